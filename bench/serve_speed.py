"""Benchmark: `pnp serve`, from a saved card file to the preview's new state.

    python bench/serve_speed.py [GAME] [--runs R]

Copies GAME (default persuasion-b04) to a scratch folder, starts `pnp serve`
on it, and R times edits one card's title in its cards file, timing from the
write to the moment the server's /state.json carries the new title (what the
page fetches when told by its event stream; the page's own fetch and paint
add a few milliseconds). Prints the median, min and max, and the cold start
(command start to the first state).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _state(url: str) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(url + "state.json") as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="persuasion-b04")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(ROOT / "card_data", Path(scratch) / "games")  # the game and the folders it shares
        game = Path(scratch) / "games" / args.game
        cards = next(p for p in sorted(game.glob("*.yaml")) if p.name != "game.yaml" and "title:" in p.read_text())
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "pnp", "serve", str(game), "--port", "0", "--out", str(Path(scratch) / "out")],
                                   cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            assert process.stdout is not None
            url = re.search(r"http://\S+/", process.stdout.readline()).group(0)  # type: ignore[union-attr]
            cold = time.perf_counter() - started
            times = []
            text = cards.read_text()
            first = re.search(r"title: (.+)", text).group(1)  # type: ignore[union-attr]
            for run in range(args.runs):
                title = f"{first} {run}"
                cards.write_text(text.replace(f"title: {first}", f"title: {title}", 1))
                saved = time.perf_counter()
                while True:
                    state = _state(url)
                    if any(c["title"] == title for comp in state.get("components", ()) for c in comp["cards"]):
                        break
                    time.sleep(0.005)
                times.append(time.perf_counter() - saved)
            print(f"{args.game}: save to updated preview state, median {statistics.median(times):.3f} s "
                  f"(min {min(times):.3f}, max {max(times):.3f}; {args.runs} edits of {cards.name}); "
                  f"cold start to first state {cold:.2f} s")
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()

"""Benchmark: cold build of a game and the PDF bytes each extra copy costs.

    python bench/build_speed.py [GAME] [--runs N]

Prints the median of N cold runs of `pnp build GAME` as a fresh process (output/
deleted first, so no cache helps), and the bytes per placed copy measured by
building the same deck with more copies of its already-placed faces.
Targets (2-core machine): cold build <= 3 s for the trait deck alone (issue 2),
<= 4 s for every B04 component (issue 3); each extra copy <= 2 KB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cold_build(game: str, out: Path, extra: list[str]) -> tuple[float, str]:
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pnp", "build", game, "--out", str(out), *extra], check=True, capture_output=True, text=True)
    return time.perf_counter() - started, done.stdout.splitlines()[0]


def bytes_per_copy(game_dir: Path, tmp: Path) -> tuple[int, int, float]:
    """Build the game twice, the second time with 10x the crest sleeves (copies of
    faces already placed), and return (copies added, bytes added, bytes per copy)."""
    copy = tmp / game_dir.name
    shutil.copytree(game_dir, copy)
    base = tmp / "base"
    subprocess.run([sys.executable, "-m", "pnp", "build", str(copy), "--paper", "a4", "--out", str(base)], check=True, capture_output=True)
    game_yaml = copy / "game.yaml"
    text = game_yaml.read_text()
    assert "copies: 10\n" in text
    game_yaml.write_text(text.replace("copies: 10\n", "copies: 100\n", 1))
    more = tmp / "more"
    subprocess.run([sys.executable, "-m", "pnp", "build", str(copy), "--paper", "a4", "--out", str(more)], check=True, capture_output=True)
    a = (base / copy.name / f"{copy.name}-home-a4.pdf").stat().st_size
    b = (more / copy.name / f"{copy.name}-home-a4.pdf").stat().st_size
    added = 8 * 90
    return added, b - a, (b - a) / added


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="persuasion-b04")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.chdir(ROOT)
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        sys.path.insert(0, str(ROOT))
        from pnp.loading.loader import load_game

        first = load_game(ROOT / "card_data" / args.game).components[0].id
        runs = (
            ("everything, a4 + letter (default)", [], 4),
            ("everything, a4 only", ["--paper", "a4"], 4),
            (f"first deck ({first}) only, a4 + letter", ["--only", first], 3),
        )
        for label, extra, target in runs:
            results = [cold_build(args.game, out, extra) for _ in range(args.runs)]
            times = [t for t, _ in results]
            print(
                f"cold `pnp build {args.game} {' '.join(extra)}` ({label}): median {statistics.median(times):.2f} s "
                f"(min {min(times):.2f}, max {max(times):.2f}, {args.runs} runs; target <= {target} s)\n"
                f"    {results[-1][1]}"
            )
        if "copies: 10\n" in (ROOT / "card_data" / args.game / "game.yaml").read_text():
            added, grown, per = bytes_per_copy(ROOT / "card_data" / args.game, Path(tmp))
            print(f"{added} extra copies of placed faces added {grown} bytes: {per:.0f} bytes per copy (target <= 2048)")


if __name__ == "__main__":
    main()

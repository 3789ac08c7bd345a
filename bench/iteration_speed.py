"""Benchmark: the designer's loop (issue 9) and each export profile (issue 8).

    python bench/iteration_speed.py [--runs N]

Every figure is the median of N runs (default 5), as fresh processes unless said:
- cold: `pnp build persuasion-b04 persuasion-d01` with output/ deleted (target <= 5 s);
- warm: `pnp build persuasion-b04` again with nothing changed;
- one edit: `pnp build persuasion-b04` after changing one card's title (target <= 1.0 s,
  process start included);
- watch: the same edit rebuilt inside one process, as `pnp watch` does, after its
  warm-up (target <= 0.3 s): for A4 + Letter as `pnp build` makes, and for A4 alone,
  `pnp watch`'s default;
- profiles: cold `pnp build persuasion-b04 --profile P` for every profile, next to home.
Works on a copy of the shipped game data, so card_data/ is never touched.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("persuasion-b04", "persuasion-d01")
PROFILES = ("home", "drivethrucards", "factory", "thegamecrafter", "makeplayingcards", "tts")


def run(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp", *args], check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - started


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f}, n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-profiles", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        shutil.copytree(ROOT / "card_data", base, dirs_exist_ok=True)  # the games and the folders they share
        games = [base / g for g in GAMES]
        out = base / "out"
        cold = []
        for _ in range(args.runs):
            shutil.rmtree(out, ignore_errors=True)
            cold.append(run("build", *map(str, games), "--out", str(out)))
        print(f"cold build, both editions (A4 + Letter): {median(cold)}")
        b04 = games[0]
        warm = [run("build", str(b04), "--out", str(out)) for _ in range(args.runs)]
        print(f"warm build, persuasion-b04, nothing changed: {median(warm)}")
        traits = b04 / "traits.yaml"
        original = traits.read_text()
        edits = []
        for i in range(args.runs):
            traits.write_text(original.replace("title: Extravagant", f"title: Extravagant {i}", 1))
            edits.append(run("build", str(b04), "--out", str(out)))
        traits.write_text(original)
        print(f"one-card edit, persuasion-b04 (fresh process): {median(edits)}")
        for papers, what in (("a4,letter", "A4 + Letter, as `pnp build`"), ("a4", "A4 only, `pnp watch`'s default")):
            watch = subprocess.run(
                [sys.executable, "-c", _WATCH, str(b04), str(out), str(args.runs), papers],
                check=True, capture_output=True, text=True, cwd=ROOT,
            )
            print(f"one-card edit inside pnp watch (in process, {what}): {watch.stdout.strip()}")
        if args.skip_profiles:
            return
        for name in PROFILES:
            times = []
            for _ in range(args.runs):
                shutil.rmtree(out, ignore_errors=True)
                times.append(run("build", str(b04), "--profile", name, "--out", str(out), *(["--force"] if name != "home" else [])))
            print(f"cold --profile {name}: {median(times)}")


_WATCH = """
import statistics, sys, time
from pathlib import Path
from pnp.iterate.watch import rebuild, warm_up
from pnp.render.layout import LONGEST_RUN
from pnp.render.sheets import session
game, out, runs, papers = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(",")
session().__enter__()  # as `pnp watch` does: stylesheets stay parsed between rebuilds
rebuild(game, papers, out, True)
warm_up()  # as `pnp watch` does after its first build
traits = game / "traits.yaml"
original = traits.read_text()
times = []
for i in range(runs):
    traits.write_text(original.replace("title: Extravagant", f"title: Extravagant watch {sys.argv[4]} {i}", 1))
    result, _ = rebuild(game, papers, out, True)
    assert 1 <= result.faces <= LONGEST_RUN, result  # the run of faces holding the edited one
    times.append(result.seconds)
traits.write_text(original)
print(f"{statistics.median(times):.3f} s (min {min(times):.3f}, max {max(times):.3f}, n={len(times)})")
"""

if __name__ == "__main__":
    main()

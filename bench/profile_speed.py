"""Benchmark: each export profile's cold build of persuasion-b04 next to the home build.

    python bench/profile_speed.py [--runs N]

Medians of N cold runs as fresh processes (the output folder deleted first).
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

RUNS = (
    ("home (A4 + Letter)", []),
    ("home --gutterfold", ["--gutterfold"]),
    ("home --ink-saver", ["--ink-saver"]),
    ("thegamecrafter", ["--profile", "thegamecrafter", "--only", "traits,crest-sleeves,ring-sleeves,reference"]),
    ("makeplayingcards", ["--profile", "makeplayingcards", "--only", "traits,crest-sleeves,ring-sleeves,reference"]),
    ("tts", ["--profile", "tts"]),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        for label, extra in RUNS:
            times = []
            for _ in range(args.runs):
                shutil.rmtree(out, ignore_errors=True)
                started = time.perf_counter()
                subprocess.run([sys.executable, "-m", "pnp", "build", "persuasion-b04", "--out", str(out), *extra],
                               cwd=ROOT, check=True, capture_output=True)
                times.append(time.perf_counter() - started)
            print(f"{label}: median {statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}, {args.runs} runs)")


if __name__ == "__main__":
    main()

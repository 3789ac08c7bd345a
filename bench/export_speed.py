"""Benchmark: each export's wall and CPU time against the home build's, cold.

    python bench/export_speed.py [GAME] [--runs N] [--profiles drivethrucards,factory,tts] [--tree DIR ...]

Runs `pnp build GAME --paper a4` (the home build) and `pnp build GAME
--profile P` for each profile as fresh processes, each into a fresh output
folder (no render cache), interleaved so the machine's drift hits every job
alike, and prints each job's median wall and CPU (the process tree's) and
its ratio to the home build's (of the same tree). With ``--tree`` (repeatable)
each tree's code builds its own game folder, all in the same interleaved run,
to compare a branch with main. Target (issue 41): DriveThruCards and factory
at most 1.2x the home build's wall.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cold(tree: Path, game: str, out: Path, extra: list[str]) -> tuple[float, float]:
    """(wall, CPU of the child processes) of one cold build by ``tree``'s code into ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(tree), "FONTCONFIG_FILE": str(tree / "pnp" / "resources" / "fontconfig.conf")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = [sys.executable, "-m", "pnp", "build", game, "--out", str(out), *extra]
    subprocess.run(command, check=True, capture_output=True, cwd=tree, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="persuasion-b04")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profiles", default="drivethrucards,factory,tts")
    parser.add_argument("--tree", type=Path, action="append", help="a checkout whose code builds (default: this one)")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree or [ROOT]]
    jobs = {"home": ["--paper", "a4"], **{p: ["--profile", p] for p in args.profiles.split(",")}}
    times: dict[tuple[Path, str], list[tuple[float, float]]] = {(t, name): [] for t in trees for name in jobs}
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {args.runs} runs, interleaved")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for (tree, name), runs in times.items():
                runs.append(cold(tree, args.game, Path(tmp) / name, jobs[name]))
    for tree in trees:
        print(tree)
        home_wall = statistics.median(w for w, _ in times[tree, "home"])
        home_cpu = statistics.median(c for _, c in times[tree, "home"])
        for name in jobs:
            wall = statistics.median(w for w, _ in times[tree, name])
            cpu = statistics.median(c for _, c in times[tree, name])
            print(f"{name:>16}: wall {wall:6.2f} s ({wall / home_wall:.2f}x home), CPU {cpu:6.2f} s ({cpu / home_cpu:.2f}x home)")


if __name__ == "__main__":
    main()

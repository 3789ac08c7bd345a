"""Benchmark: the memory of a whole cold build's process tree (issue 41).

    python bench/build_memory.py FACES [FACES ...] [--tree PATH ...]

For each number of distinct faces, writes the poker deck of that many cards
(:func:`bench.poker.job.write_game`), builds it cold on A4 with each pnp
``--tree`` (a checkout: its folder goes first on PYTHONPATH; this one when
none is given; trees alternate, so each pair is measured in the same
minutes), and every 0.1 s sums the RSS and the PSS of the build's whole
process tree (the build, its renderer and the renderer's workers). Prints
per build: the peaks of both sums, each process's peak RSS, wall time and
CPU time (the build and every process it waited for).

PSS is the honest sum for forked processes: a page shared by a parent and
the children forked from it counts once in all (split between them), where
RSS counts it in each. Target: 6,000 faces under 300 MB, flat per face.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "poker"))

from job import write_game  # noqa: E402


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(x) for x in f.read().split()]
    except OSError:  # gone meanwhile
        pass
    return found


def _tree(root: int) -> list[int]:
    seen = [root]
    for pid in seen:  # grows as it goes: children, then theirs
        seen += _children(pid)
    return seen


def _memory(pid: int) -> tuple[int, int]:
    """A process's RSS and PSS, in KB (0, 0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            fields = dict(line.split()[:2] for line in f if line.split()[0] in ("Rss:", "Pss:"))
    except (OSError, ValueError):
        return 0, 0
    return int(fields.get("Rss:", 0)), int(fields.get("Pss:", 0))


def measured(command: list[str], env: dict[str, str], cwd: Path) -> dict[str, object]:
    """Run ``command``; its tree's peak RSS and PSS (MB), each process's peak RSS, wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_rss = peak_pss = 0
    each: dict[int, int] = {}
    while process.poll() is None:
        rss = pss = 0
        for pid in _tree(process.pid):
            r, p = _memory(pid)
            rss, pss = rss + r, pss + p
            each[pid] = max(each.get(pid, 0), r)
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        time.sleep(0.1)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{process.stderr.read().decode() if process.stderr else ''}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {
        "rss": peak_rss // 1024, "pss": peak_pss // 1024, "processes": sorted((v // 1024 for v in each.values()), reverse=True),
        "wall": wall, "cpu": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("faces", type=int, nargs="+")
    parser.add_argument("--tree", type=Path, action="append", help="a pnp checkout to measure (repeatable); default this one")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree or [ROOT]]
    with tempfile.TemporaryDirectory(prefix="pnp-memory-") as scratch:
        for faces in args.faces:
            deck = write_game(Path(scratch) / f"poker{faces}", faces)
            for tree in trees:
                out = Path(scratch) / "out"
                shutil.rmtree(out, ignore_errors=True)
                env = {**os.environ, "PYTHONPATH": str(tree), "FONTCONFIG_FILE": str(tree / "pnp" / "resources" / "fontconfig.conf")}
                got = measured([sys.executable, "-m", "pnp", "build", str(deck), "--paper", "a4", "--out", str(out)], env, tree)
                print(
                    f"{faces} faces  {tree}: tree peak RSS {got['rss']} MB, PSS {got['pss']} MB; per process {got['processes']} MB; "
                    f"wall {got['wall']:.1f} s, CPU {got['cpu']:.1f} s ({1000 * float(got['cpu']) / faces:.1f} ms a face)",
                    flush=True,
                )


if __name__ == "__main__":
    main()

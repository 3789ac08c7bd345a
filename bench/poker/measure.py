"""Benchmark: the 60-card poker deck (job.py) by pnp and by its peers, in one run.

    python bench/poker/measure.py [--runs 7] [--peer-tree PATH ...] [--cards N --pnp-only]

Each run of each maker is a fresh process, the makers interleaved run by run
(so a busy machine slows them alike): pnp from this tree (a cold build, no
cache: `pnp build poker --paper a4`), pnp from each --peer-tree (another
checkout, e.g. a worktree of main), naive WeasyPrint (one HTML document:
naive_weasyprint.py) and ReportLab (reportlab_peer.py, skipped where
ReportLab is not installed). Prints each maker's median wall time, median
CPU time (its whole process tree) and PDF size, and each as a ratio to
naive WeasyPrint's measured in the same run, and the size of pnp's PDF built
with ``--no-stamp`` (naive WeasyPrint's cards carry no build stamp). Targets
(issue 41): pnp / naive wall <= 0.35; pnp's PDF no bigger than naive
WeasyPrint's.

With ``--cards N`` the deck has N distinct fronts (the peers always draw
60); ``--pnp-only`` measures pnp's trees alone and prints CPU per distinct
face and the largest process's peak memory, as ratios to the first peer tree.
``--floor`` also runs face_floor.py (WeasyPrint's own CPU a face, with every
cost but laying out and writing the faces left out) in each round, and
prints each tree's CPU per distinct face as a ratio to that floor.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from job import write_game  # noqa: E402

ROOT = HERE.parents[1]


_WATCH = (
    "import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
    "print(f'peak {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}', file=sys.stderr); sys.exit(code)"
)
"""Runs a command and tells the peak memory of the largest process in its tree (a process of its own, so one run's peak is its own)."""


def _run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float] | None:
    """(wall, CPU of the process tree, peak memory of its largest process in
    MB) of one run, or None when the maker is not installed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _WATCH, *command], env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode == 3 and "skipped" in done.stderr:
        return None
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    peak = int(done.stderr.rsplit("peak ", 1)[-1].split()[0]) / 1024
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), peak


def makers(game: Path, out: Path, trees: list[Path], peers: bool) -> dict[str, tuple[list[str], dict[str, str], Path, Path]]:
    """name -> (command, environment, working folder, the PDF it writes)."""
    found: dict[str, tuple[list[str], dict[str, str], Path, Path]] = {}
    for n, tree in enumerate(trees):
        env = {**os.environ, "PYTHONPATH": str(tree)}
        target = out / f"pnp{n}"
        found["pnp" if n == 0 else f"pnp {tree}"] = (
            [sys.executable, "-m", "pnp", "build", str(game), "--paper", "a4", "--out", str(target)],
            env, tree, target / "poker" / "poker-home-a4.pdf",
        )
    for name, script in (("naive WeasyPrint", "naive_weasyprint.py"), ("ReportLab", "reportlab_peer.py")) if peers else ():
        pdf = out / f"{script}.pdf"
        found[name] = ([sys.executable, str(HERE / script), str(pdf)], dict(os.environ), ROOT, pdf)
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--peer-tree", type=Path, action="append", default=[], help="another pnp checkout to measure in the same run")
    parser.add_argument("--cards", type=int, default=60, help="distinct card fronts in pnp's deck")
    parser.add_argument("--pnp-only", action="store_true", help="measure pnp's trees alone")
    parser.add_argument("--floor", action="store_true", help="also measure WeasyPrint's own CPU a face (face_floor.py) in each round")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {args.runs} runs each, interleaved")
    with tempfile.TemporaryDirectory(prefix="pnp-poker-") as tmp:
        game = write_game(Path(tmp) / "poker", args.cards)
        runs = makers(game, Path(tmp) / "out", [ROOT, *[t.resolve() for t in args.peer_tree]], not args.pnp_only)
        times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in runs}
        floors: list[float] = []
        for _ in range(args.runs):
            for name, (command, env, cwd, pdf) in runs.items():
                shutil.rmtree(pdf.parent, ignore_errors=True) if name.startswith("pnp") else pdf.unlink(missing_ok=True)
                measured = _run(command, env, cwd)
                if measured is not None:
                    times[name].append(measured)
            if args.floor:
                floors.append(_floor(args.cards))
        _report(times, {name: pdf for name, (_, _, _, pdf) in runs.items()}, args.cards + 1, args.pnp_only)
        if not args.pnp_only:
            _report_unstamped(runs)
        if floors:
            _report_floor(times, statistics.median(floors), args.cards + 1)


def _floor(faces: int) -> float:
    """face_floor.py's CPU a face, in seconds."""
    done = subprocess.run([sys.executable, str(HERE / "face_floor.py"), str(faces)], capture_output=True, text=True, check=True)
    return float(done.stdout.split()[1]) / 1000


def _report_unstamped(runs: dict[str, tuple[list[str], dict[str, str], Path, Path]]) -> None:
    """The size of each pnp tree's PDF built once more with ``--no-stamp``:
    the same job as naive WeasyPrint's (whose cards carry no build stamp),
    but for pnp's page of printing instructions."""
    naive = runs["naive WeasyPrint"][3].stat().st_size
    for name, (command, env, cwd, pdf) in runs.items():
        if name.startswith("pnp"):
            shutil.rmtree(pdf.parent, ignore_errors=True)
            subprocess.run([*command, "--no-stamp"], env=env, cwd=cwd, capture_output=True, check=True)
            size = pdf.stat().st_size
            print(f"{name:>20}: PDF with --no-stamp {size / 1000:.1f} KB ({size / naive:.2f}x naive WeasyPrint's), its instructions page included")


def _report_floor(times: dict[str, list[tuple[float, float, float]]], floor: float, faces: int) -> None:
    print(f"{'WeasyPrint floor':>20}: {1000 * floor:.1f} ms per face (face_floor.py: laying out and writing alone)")
    for name, runs in times.items():
        if name.startswith("pnp") and runs:
            per_face = statistics.median(cpu for _, cpu, _ in runs) / faces
            print(f"{name:>20}: {1000 * per_face:.1f} ms per distinct face = {per_face / floor:.2f}x the floor")


def _report(times: dict[str, list[tuple[float, float, float]]], pdfs: dict[str, Path], faces: int, pnp_only: bool) -> None:
    """Medians, and ratios to naive WeasyPrint (or, pnp alone, to the first peer tree)."""
    medians = {name: [statistics.median(m[i] for m in runs) for i in range(3)] for name, runs in times.items() if runs}
    base_name = "naive WeasyPrint" if not pnp_only else next((n for n in medians if n != "pnp"), "pnp")
    base_wall, base_cpu, base_memory = medians[base_name]
    base_size = pdfs[base_name].stat().st_size
    for name in times:
        if name not in medians:
            print(f"{name:>20}: not installed")
            continue
        wall, cpu, memory = medians[name]
        size = pdfs[name].stat().st_size
        print(
            f"{name:>20}: wall {wall:.2f} s ({wall / base_wall:.2f}x), CPU {cpu:.2f} s ({cpu / base_cpu:.2f}x; "
            f"{1000 * cpu / faces:.1f} ms per distinct face), PDF {size / 1000:.1f} KB ({size / base_size:.2f}x), "
            f"largest process {memory:.0f} MB ({memory / base_memory:.2f}x)"
        )
    print(f"ratios are to {base_name}, measured in the same run; {faces} distinct faces in pnp's deck")

if __name__ == "__main__":
    main()

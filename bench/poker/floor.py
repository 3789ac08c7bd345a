"""Benchmark: the fixed costs under a cold `pnp build` of the poker deck, as
ratios to naive WeasyPrint's whole job, in one run (issue 41).

    python bench/poker/floor.py [--runs 7]

Each step is a fresh process, the steps interleaved run by run (so a busy
machine slows them alike); medians of wall and CPU (the process tree):

- python start: the interpreter alone (``python -c pass``);
- load WeasyPrint: and WeasyPrint imported, with the library search that
  pnp skips skipped (see :func:`pnp.render.weasy.load_weasyprint`);
- first layout: and a line of text laid out and written, which sets up the
  fonts and the default stylesheet: what any process pays before it can lay
  out its first card;
- pnp renderer ready: what pnp's renderer does before its first job
  (its own modules, WeasyPrint, :func:`pnp.render.weasy.prime`, Pillow's
  formats): the first three and pnp's additions;
- pnp warm: `pnp build` with every face and document in its cache, so
  nothing is laid out: pnp's own fixed costs (start, imports, reading and
  checking the game, planning, imposing and writing);
- pnp cold: `pnp build`, no cache;
- naive WeasyPrint: the whole job as one HTML document (naive_weasyprint.py).

"first layout" is the floor of any cold build that lays its cards out with
WeasyPrint in a fresh process: no such build can be faster, whatever it
does around it; its ratio to naive WeasyPrint says how far the target
(pnp cold / naive <= 0.35) can be reached at all.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from job import write_game  # noqa: E402
from measure import ROOT, _run  # noqa: E402

LOAD = "import ctypes.util; ctypes.util.find_library = lambda name: None; import weasyprint"
FIRST = LOAD + "; weasyprint.HTML(string='<p>pnp</p>').write_pdf()"
READY = (
    "from pnp.images import load_decoders; from pnp.render.weasy import load_weasyprint, prime; "
    "load_weasyprint(); prime(); load_decoders()"
)


def steps(game: Path, out: Path) -> dict[str, tuple[list[str], Path | None]]:
    """name -> (command, the folder it writes and a cold run removes first)."""
    build = [sys.executable, "-m", "pnp", "build", str(game), "--paper", "a4", "--out"]
    return {
        "python start": ([sys.executable, "-c", "pass"], None),
        "load WeasyPrint": ([sys.executable, "-c", LOAD], None),
        "first layout": ([sys.executable, "-c", FIRST], None),
        "pnp renderer ready": ([sys.executable, "-c", READY], None),
        "pnp warm": ([*build, str(out / "warm")], None),
        "pnp cold": ([*build, str(out / "cold")], out / "cold"),
        "naive WeasyPrint": ([sys.executable, str(HERE / "naive_weasyprint.py"), str(out / "naive.pdf")], None),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory(prefix="pnp-floor-") as tmp:
        game = write_game(Path(tmp) / "poker", 60)
        out = Path(tmp) / "out"
        todo = steps(game, out)
        subprocess.run(todo["pnp warm"][0], env=env, cwd=ROOT, check=True, capture_output=True)  # fills its cache
        times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in todo}
        for _ in range(args.runs):
            for name, (command, fresh) in todo.items():
                if fresh is not None:
                    shutil.rmtree(fresh, ignore_errors=True)
                measured = _run(command, env, ROOT)
                assert measured is not None
                times[name].append(measured)
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {args.runs} runs each, interleaved")
    medians = {name: (statistics.median(m[0] for m in runs), statistics.median(m[1] for m in runs)) for name, runs in times.items()}
    base_wall, base_cpu = medians["naive WeasyPrint"]
    for name, (wall, cpu) in medians.items():
        print(f"{name:>20}: wall {wall:.3f} s ({wall / base_wall:.2f}x), CPU {cpu:.3f} s ({cpu / base_cpu:.2f}x)")
    print("ratios are to naive WeasyPrint, measured in the same run")


if __name__ == "__main__":
    main()

"""Benchmark: `pnp check GAME` (static checks and exact odds), 2-core machine.

    python bench/check_speed.py [GAME ...] [--runs N]

Prints, per game, the median over N runs of (a) the check in process (load the
game and run every declared check, timed with perf_counter) and (b) the whole
command as a fresh process, next to the bare interpreter's start-up.
Target (issue 5): <= 1 s wall beyond process start.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["persuasion-b04"])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from pnp.loading.loader import load_game, resolve_game_dir
    from pnp.rules.check import check_game

    start = []
    for _ in range(args.runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        start.append(time.perf_counter() - t)
    print(f"bare `python -c pass`: median {statistics.median(start):.3f} s")
    for game in args.games:
        inproc = []
        for _ in range(args.runs):
            t = time.perf_counter()
            report = check_game(load_game(resolve_game_dir(game)))
            inproc.append(time.perf_counter() - t)
        wall = []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pnp", "check", game], cwd=ROOT, capture_output=True)
            wall.append(time.perf_counter() - t)
        odds = report.exact.get("odds", {})
        runs = sum(o.get("dp_runs", 0) for o in odds.values())
        print(
            f"{game}: check in process median {statistics.median(inproc):.3f} s; "
            f"`pnp check` as a command median {statistics.median(wall):.3f} s "
            f"({statistics.median(wall) - statistics.median(start):.3f} s beyond interpreter start; target <= 1 s); "
            f"{len(report.findings)} findings, {runs} exact DP run(s)"
        )
        # Worst case: a deck with no symmetry needs one DP per desires card.
        import pnp.rules.check as checker
        from pnp.rules.odds import OddsCache

        class NoCache(OddsCache):
            def probabilities(self, deck, desires, sizes, need):  # type: ignore[no-untyped-def]
                self._done.clear()
                return super().probabilities(deck, desires, sizes, need)

        saved = checker.OddsCache
        checker.OddsCache = NoCache  # type: ignore[misc]
        try:
            game_data = load_game(resolve_game_dir(game))
            worst = []
            for _ in range(3):
                t = time.perf_counter()
                check_game(game_data)
                worst.append(time.perf_counter() - t)
        finally:
            checker.OddsCache = saved  # type: ignore[misc]
        print(f"{game}: worst case, one DP per desires card (no shared profiles): median {statistics.median(worst):.3f} s in process")


if __name__ == "__main__":
    main()

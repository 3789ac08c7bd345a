"""Benchmark: `pnp sweep` scale-out through a real Dask scheduler on 127.0.0.1.

    python bench/sweep_scale.py [--game persuasion-b04] [--games 4000] [--batch 500] [--players 4]

Starts `dask scheduler` and one `dask worker` process (one thread), plays a
sweep of two versions (rules.hand_size at the player count: 9 and 10 cards)
with the heuristic agents, then adds a second worker and plays the same sweep
again (new task names, so nothing is reused). Prints, from the same run:
the wall time on 1 and 2 workers and their ratio (the speed-up); the overhead
per task (workers x wall - the seconds the tasks spent playing, over the
tasks) and its share of a task; the cost of a game; and what a 100-core
cluster would take for 3x10^7 such games (issue 40's sweep: 50 versions x 6
player counts x 100,000 games) at the measured cost and overhead. Each
worker's first task of a version also loads the game: that is in the figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from distributed import Client  # noqa: E402

from pnp.engine.plugins import engine_for  # noqa: E402
from pnp.loading.loader import load_game, resolve_game_dir  # noqa: E402
from pnp.sweep.cluster import executor  # noqa: E402
from pnp.sweep.run import Book, seconds, sweep_rounds  # noqa: E402
from pnp.sweep.spec import read_sweep  # noqa: E402
from tests.sweep.daskprocs import dask_cluster  # noqa: E402

SWEEP = """\
seed: 1
games: {games}
batch: {batch}
players: [{players}]
changes:
  - {{kind: rule, rule: hand_size, at: {players}, values: [9, 10]}}
"""


def play(client: Client, path: Path, game_name: str, tag: str) -> tuple[float, float, int, int]:
    """Wall seconds, the tasks' own seconds, the tasks and the games of one sweep."""
    game = load_game(resolve_game_dir(game_name))
    engine, _ = engine_for(game)
    sweep, _ = read_sweep(path)
    book = Book()
    started = time.perf_counter()
    sweep_rounds(book, sweep, game, engine, False, executor(client, tag), None)
    wall = time.perf_counter() - started
    games = sum(r["tallies"][0]["games"] for r in book.results.values())
    return wall, seconds(book.results.values()), len(book.results), games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="persuasion-b04")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-sweep-bench-") as tmp:
        path = Path(tmp) / "sweep.yaml"
        path.write_text(SWEEP.format(games=args.games, batch=args.batch, players=args.players), encoding="utf-8")
        with dask_cluster(1) as cluster, Client(cluster.address, timeout=60) as client:
            one = play(client, path, args.game, "one")
            cluster.add_worker()
            client.wait_for_workers(2, timeout=60)
            two = play(client, path, args.game, "two")
    for workers, (wall, busy, tasks, games) in ((1, one), (2, two)):
        overhead = (workers * wall - busy) / tasks
        print(f"{workers} worker(s): {games} games in {tasks} tasks, wall {wall:.2f} s; tasks playing {busy:.2f} s; "
              f"overhead {overhead * 1000:.1f} ms a task ({overhead / (busy / tasks):.1%} of a task of {busy / tasks * 1000:.0f} ms)")
    print(f"speed-up 2 workers / 1 worker: {one[0] / two[0]:.2f}x (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    per_game = one[1] / one[3]
    share = max(0.0, (one[0] - one[1]) / one[1])
    total = 3e7 * per_game * (1 + share) / 100
    print(f"a game costs {per_game * 1e6:.0f} us on one core; 3x10^7 games on 100 cores: about {total / 60:.1f} min "
          f"({3e7 / args.batch:.0f} tasks of {args.batch} games, at the overhead measured on 1 worker)")


if __name__ == "__main__":
    main()

"""Small sweeps of the example game High Card (the engine starter, pnp/resources/starters/engine) for tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from pnp.engine.plugins import engine_for
from pnp.loading.loader import load_game
from pnp.model import Game
from pnp.sweep.run import Book, sweep_rounds, table
from pnp.sweep.spec import read_sweep
from pnp.sweep.tasks import Job, play_job
from pnp.sweep.variants import check_against

HIGH_CARD = Path(__file__).resolve().parent.parent.parent / "pnp" / "resources" / "starters" / "engine"

SMALL = """\
seed: 7
games: 20
batch: 10
rounds: 2
agents: heuristic
changes:
  - {kind: option, option: hand, values: [3, 5]}
  - {kind: copies, component: cards, card: r10, values: [1, 2, 4]}
targets:
  seat_balance: {min: 0.8}
  rounds: {min: 4, max: 5}
  skill_gap: {min: -50}
"""


def high_card() -> tuple[Game, ModuleType]:
    game = load_game(HIGH_CARD)
    return game, engine_for(game, True)[0]


def in_process(jobs: Sequence[Job]) -> Iterator[dict[str, Any]]:
    return (play_job(job) for job in jobs)


def run(path: Path, execute: Callable[[Sequence[Job]], Iterator[dict[str, Any]]] = in_process, **kw: Any) -> tuple[Book, list[dict[str, Any]]]:
    """Play the sweep file at ``path`` of High Card; its book and ranking."""
    game, engine = high_card()
    sweep, _ = read_sweep(path)
    check_against(sweep, game, engine)
    book = Book(stored=kw.pop("stored", {}))
    sweep_rounds(book, sweep, game, engine, True, execute, None, **kw)
    return book, table(book, sweep)


def counts(book: Book) -> dict[str, Any]:
    """Every task's counts, without its timing."""
    return {name: row["tallies"] for name, row in book.results.items()}

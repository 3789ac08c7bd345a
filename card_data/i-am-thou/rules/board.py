"""What every part of a game of "I am thou, thou art I" reads and changes:
the table (each seat's points and :class:`~.table.Mine`, the round, what
lasts into the next round) and the moves the effects make on it. The
decisions built on it are :class:`.state.ThouState`'s; :mod:`.effects` and
:mod:`.rounds` work on a :class:`Board`, so neither imports the state back."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from pnp.engine.api import Decision

from . import endgame
from .table import MOST, NPCS, TOP_TWO, Mine, Prepared


class Board:
    """A game's table, without its decisions."""

    def setup(self, prep: Prepared, players: int, rng: random.Random, check_moves: bool, mines: list[Mine]) -> None:
        self.prep, self.n, self.rng, self.check_moves = prep, players, rng, check_moves
        self.mines = mines
        self.points = [[0] * NPCS for _ in range(players)]
        self.round, self.cursor = 1, 0
        self.phase = "secret"
        self.mode = {"most": MOST, "top-two": TOP_TWO}.get(prep.endgame, 0)
        self.votes: list[int] = []
        self.shown_votes: tuple[int, ...] = ()
        self.history: list[tuple[tuple[int, ...], ...]] = []
        self.immune: frozenset[int] = frozenset()
        self.moon: frozenset[int] = frozenset()
        self.worlds: tuple[tuple[int, int], ...] = ()
        self.immune_next: list[int] = []
        self.moon_next: list[int] = []
        self.worlds_next: list[tuple[int, int]] = []
        self.ledger: tuple[tuple[int, ...], ...] | None = None
        self.results: endgame.Results | None = None
        self.candidate = -1
        self.actions: Counter[str] = Counter()
        self.powers: Counter[str] = Counter()
        self.current: Decision | None = None

    # -- what effects use ------------------------------------------------------------

    def gain(self, seat: int, x: int, amount: int) -> None:
        """Points the seat earns and is told of."""
        self.points[seat][x] += amount
        self.mines[seat].known[x] += amount

    def lose(self, seat: int, x: int) -> None:
        """A point lost (and told): never below zero."""
        self.points[seat][x] = max(0, self.points[seat][x] - 1)
        self.mines[seat].known[x] = max(0, self.mines[seat].known[x] - 1)

    def move(self, seat: int, source: int, to: int) -> None:
        """The Magician: a point moved, if there is one to move."""
        if self.points[seat][source] > 0:
            self.points[seat][source] -= 1
            self.points[seat][to] += 1
        self.mines[seat].known[source] -= 1
        self.mines[seat].known[to] += 1

    def tell(self, seat: int, *what: Any) -> None:
        self.mines[seat].told.append((self.round, *what))

    def power(self, name: str) -> None:
        self.powers[name] += 1

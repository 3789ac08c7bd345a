"""The skill ladder `pnp check` plays: each level of play, within a time budget.

A level is an agent name, weakest first: ``random``, ``heuristic`` and, for
an engine that can re-deal what a seat has not seen (``determinize``), the
search agent at two budgets (``search:S1``, ``search:S2``). At every player
count each level plays its *table* (that agent at every seat, for the rules
as printed and each variant: the balance figures and the usage) and, from the
second level on, its *pair* with the level below (one seat at this level, the
others at the one below, the seat rotated over every seat: the skill trace).

The games a level plays are chosen before it plays them, from counts alone:
``cap`` games per table (``--games``) and ``ceil(cap / n)`` per seat of a
pair at ``n`` players. With a time budget a level first plays a batch of
:data:`FIRST` games per table, and its speed on that batch decides how many
more fit in its part of the time left (an equal part for it and each level
above it); a level starts only while time is left. Game ``i`` of every run is
seeded ``f"{seed}:{i}"`` (:mod:`pnp.engine.simulate`), so the same seed and
the same game counts give the same figures, whatever the batches were.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from pnp.engine.api import PlayEngine
from pnp.engine import agents as seats
from pnp.engine.simulate import Run, Tally, simulate_many

FIRST = 8
"""Games per table in a level's first batch, when there is a time budget."""
SEARCH = (100, 1000)
"""The search agent's two budgets (iterations a decision), unless told."""

Key = tuple[str, str | int | None, int]
"""("table", variant, players) or ("pair", players, stronger seat)."""


@dataclass(frozen=True)
class Rules:
    """One way to play the game: the rules as printed (``variant`` None) or a variant."""

    variant: str | None
    engine: PlayEngine[object, object]
    prepared: object
    options: dict[str, object]
    counts: tuple[int, ...]
    rollout: str | None = None
    """The agent search levels play out with (game.yaml ``engine.rollout``)."""


@dataclass(frozen=True)
class Level:
    """A level as played: its agent, its games per table (0: not played) and why not."""

    agent: str
    games: int
    why: str | None = None


@dataclass
class Ladder:
    """Every level's runs and their tallies, by level and :data:`Key`."""

    levels: list[Level] = field(default_factory=list)
    runs: dict[tuple[str, Key], Run] = field(default_factory=dict)
    tallies: dict[tuple[str, Key], Tally] = field(default_factory=dict)

    def played(self) -> list[str]:
        return [level.agent for level in self.levels if level.games]


def levels(engine: PlayEngine[object, object], search: Sequence[int] = SEARCH) -> tuple[str, ...]:
    """The ladder's agent names for ``engine``, weakest first."""
    names = [name for name in ("random", "heuristic") if name in engine.AGENTS]
    if hasattr(engine, "determinize"):
        names += [f"{seats.SEARCH}:{budget}" for budget in search]
    return tuple(names)


def per_seat(games: int, players: int) -> int:
    """Games per seat of a pair at ``players``: together at least ``games``."""
    return -(-games // players)


def games_within(share: float, spent: float, first: int, cap: int) -> int:
    """Games per table a level plays: as many as ``share`` seconds hold at the
    pace of its first batch (``first`` games in ``spent`` seconds), at least
    the batch and at most ``cap``."""
    if spent <= 0:
        return cap
    return max(first, min(cap, math.floor(first * share / spent + 1e-9)))  # 1e-9: sums of seconds are not exact


def runs_of(rules: Sequence[Rules], level: str, weaker: str | None, start: int, stop: int, seed: int) -> list[tuple[Key, Run]]:
    """Games ``start`` to ``stop`` (per table) of ``level``: its tables for
    every way to play, and its pair with ``weaker`` for the rules as printed."""
    out: list[tuple[Key, Run]] = []
    for way in rules:
        for n in way.counts:
            run = Run(way.engine, way.prepared, way.options, n, (level,) * n, stop - start, seed, way.variant, way.rollout, start)
            out.append((("table", way.variant, n), run))
    printed = rules[0]
    if weaker is not None:
        for n in printed.counts:
            first, last = per_seat(start, n), per_seat(stop, n)
            for seat in range(n):
                agents = tuple(level if s == seat else weaker for s in range(n))
                run = Run(printed.engine, printed.prepared, printed.options, n, agents, last - first, seed, None, printed.rollout, first)
                out.append((("pair", n, seat), run))
    return [(key, run) for key, run in out if run.games > 0]


def play_ladder(
    rules: Sequence[Rules], names: Sequence[str], cap: int, seed: int, workers: int,
    budget: float | None = None, clock: Callable[[], float] = time.monotonic,
) -> Ladder:
    """Play every level of ``names`` that the budget allows (None: the levels
    without search, ``cap`` games per table each, the search levels not at all)."""
    ladder = Ladder()
    started = clock()
    for k, name in enumerate(names):
        weaker = names[k - 1] if k else None
        if budget is None and seats.iterations(name) is not None:
            ladder.levels += [Level(rest, 0, "search plays only within a --budget") for rest in names[k:]]
            break
        left = math.inf if budget is None else budget - (clock() - started)
        if left <= 0:
            ladder.levels += [Level(rest, 0, f"outside the budget of {budget:g} s") for rest in names[k:]]
            break
        first = cap if budget is None else min(cap, FIRST)
        mark = clock()
        _play(ladder, rules, name, weaker, 0, first, seed, workers)
        games = first if budget is None else games_within(left / (len(names) - k), clock() - mark, first, cap)
        _play(ladder, rules, name, weaker, first, games, seed, workers)
        ladder.levels.append(Level(name, games))
    return ladder


def _play(ladder: Ladder, rules: Sequence[Rules], name: str, weaker: str | None, start: int, stop: int, seed: int, workers: int) -> None:
    planned = runs_of(rules, name, weaker, start, stop, seed)
    if not planned:
        return
    tallies = simulate_many([run for _, run in planned], workers, label=f"playing {name}")
    for (key, run), tally in zip(planned, tallies):
        held = ladder.tallies.get((name, key))
        ladder.tallies[(name, key)] = tally if held is None else held.merge(tally)
        ladder.runs[(name, key)] = replace(run, start=0, games=ladder.tallies[(name, key)].games)

"""What-if play for `pnp check`: which card powers change the winner most often.

An engine that can switch its powers off (module attribute ``SWITCHES =
True``: the engine option ``without``, a list of names from
``usable(prepared)["powers"]``, plays the game with those powers doing
nothing) is played, at each player count for the rules as printed, twice
from the same seeds: once as printed and once with one power switched off,
for each power. A power *changes the winner* in a game where the winners
(``Outcome.winners``) of the two differ; it is *used* in a game as printed
where ``Outcome.powers`` counts it. Both are shares of the games, with Wilson
95 % intervals, and the powers are listed most changing first.

Every seat plays the engine's ``heuristic`` agent (:data:`AGENT`): random play
makes the winner change with any change at all. Game ``i`` is dealt and its
agents seeded from ``f"{seed}:{i}"``, as the ladder's are
(:mod:`pnp.engine.simulate`); a power switched off plays that same seed, so
its games differ only where the power would have acted, and what follows.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pnp.engine.api import Outcome, PlayEngine, agent_rngs, play
from pnp.engine.ladder import FIRST, games_within
from pnp.engine.simulate import wilson
from pnp.parallel import fork_map, shared
from pnp.rules.figures import PowerChange, WhatIf

AGENT = "heuristic"
"""The agent at every seat of the what-if games."""
OPTION = "without"
"""The engine option that names the powers switched off."""
PIECE = 20
"""Games (each played once as printed and once per power) a worker job plays."""


def switches(engine: PlayEngine[object, object], prepared: object) -> tuple[str, ...]:
    """The powers ``engine`` can switch off: its ``usable(prepared)["powers"]``
    when it declares ``SWITCHES = True``, else none."""
    if getattr(engine, "SWITCHES", False) is not True or not hasattr(engine, "usable"):
        return ()
    return tuple(engine.usable(prepared).get("powers", ()))


@dataclass(frozen=True)
class Table:
    """One player count: the rules as printed and, per power, the same with it off."""

    engine: PlayEngine[object, object]
    prepared: object
    options: dict[str, object]
    players: int
    seed: int
    powers: tuple[str, ...]
    switched: tuple[object, ...]
    """The engine's prepared rules with each power of ``powers`` off, in order."""


def plan(
    engine: PlayEngine[object, object], prepared: object, options: dict[str, object], counts: Sequence[int], seed: int,
    prepare: Callable[[dict[str, object]], object],
) -> list[Table]:
    """A :class:`Table` per player count of ``counts`` (none if ``engine``
    cannot switch its powers off or has no :data:`AGENT`); ``prepare(options)``
    prepares the rules with other engine options."""
    powers = switches(engine, prepared)
    if not powers or AGENT not in engine.AGENTS:
        return []
    switched = tuple(prepare({**options, OPTION: [power]}) for power in powers)
    return [Table(engine, prepared, options, n, seed, powers, switched) for n in counts]


@dataclass
class Changes:
    """Counts over games of one table; counts of parts of a run add up exactly."""

    games: int = 0
    changed: Counter[str] = field(default_factory=Counter)
    """Games whose winners differ with the power off."""
    used: Counter[str] = field(default_factory=Counter)
    """Games as printed in which the power was used."""

    def merge(self, other: Changes) -> Changes:
        self.games += other.games
        self.changed.update(other.changed)
        self.used.update(other.used)
        return self


def _outcome(table: Table, prepared: object, options: dict[str, object], seed: str) -> Outcome:
    agents = [table.engine.AGENTS[AGENT]() for _ in range(table.players)]
    state = table.engine.new_state(prepared, table.players, random.Random(seed), {**options, "trusted_agents": True})
    return play(state, agents, agent_rngs(seed, table.players))


def changes_range(table: Table, start: int, stop: int) -> Changes:
    """Play games ``start`` to ``stop`` of ``table`` as printed and with each power off."""
    out = Changes()
    for index in range(start, stop):
        seed = f"{table.seed}:{index}"
        printed = _outcome(table, table.prepared, table.options, seed)
        out.games += 1
        for power, prepared in zip(table.powers, table.switched):
            out.used[power] += bool(printed.powers.get(power))
            off = _outcome(table, prepared, {**table.options, OPTION: [power]}, seed)
            out.changed[power] += off.winners != printed.winners
    return out


def _job(index: int, start: int, stop: int) -> tuple[int, Changes]:
    return index, changes_range(shared()[index], start, stop)


def play_changes(planned: Sequence[Table], start: int, stop: int, workers: int) -> list[Changes]:
    """Games ``start`` to ``stop`` of every table, in pieces of :data:`PIECE`
    games handed to one pool of ``workers`` processes."""
    jobs = [(i, first, min(first + PIECE, stop)) for i in range(len(planned)) for first in range(start, stop, PIECE)]
    jobs.sort(key=lambda job: -planned[job[0]].players * (job[2] - job[1]))  # longest first
    totals = [Changes() for _ in planned]
    from pnp.progress import Progress

    with Progress("playing what-ifs", len(jobs)) as bar:
        for index, part in fork_map(_job, jobs, max(1, workers), share=list(planned), done=bar.advance):
            totals[index].merge(part)
    return totals


def whatif(
    planned: Sequence[Table], cap: int, workers: int, budget: float | None = None, clock: Callable[[], float] = time.monotonic,
) -> WhatIf | None:
    """The report (None: nothing to play): per player count, each power's
    share of games whose winners change with it off and of games that used it.
    ``cap`` games per player count; within ``budget`` seconds, a first batch
    of :data:`~pnp.engine.ladder.FIRST` games sets the pace of the rest, as a
    ladder level's does (:func:`pnp.engine.ladder.games_within`)."""
    if not planned:
        return None
    if budget is not None and budget <= 0:
        return {"agent": AGENT, "games": 0, "why": "outside the budget", "by_players": {}}
    first = cap if budget is None else min(cap, FIRST)
    mark = clock()
    totals = play_changes(planned, 0, first, workers)
    games = first if budget is None else games_within(budget, clock() - mark, first, cap)
    for total, more in zip(totals, play_changes(planned, first, games, workers) if games > first else ()):
        total.merge(more)
    return {"agent": AGENT, "games": games, "by_players": {str(t.players): rows(t, c) for t, c in zip(planned, totals)}}


def rows(table: Table, counted: Changes) -> list[PowerChange]:
    """Each power's figures at one player count, most changing first."""
    out: list[PowerChange] = [
        {"power": power, "changed": wilson(counted.changed[power], counted.games), "used": wilson(counted.used[power], counted.games)}
        for power in table.powers
    ]
    return sorted(out, key=lambda row: (-row["changed"]["rate"], -row["used"]["rate"], row["power"]))


def budget_share(levels: int) -> float:
    """The part of a ``--budget`` the ladder's ``levels`` get when what-if play
    follows them: an equal part each, what-if play the last one (and whatever
    the ladder leaves)."""
    return levels / (levels + 1) if levels else 1.0

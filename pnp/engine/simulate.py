"""Play many seeded games and measure them.

Game ``i`` of a run with seed ``S`` is dealt with ``random.Random(f"{S}:{i}")``
and each seat's agent draws from its own generator seeded from that string and
the seat (:func:`pnp.engine.api.agent_rngs`), so a run gives the same numbers
however many workers share it, and no agent can replay the deal. Workers keep
a :class:`Tally` of their games and only the tallies travel back. Every rate
comes with a 95 % Wilson interval.
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain

from pnp.engine import agents as seats
from pnp.engine.api import Outcome, PlayEngine, agent_rngs, play
from pnp.errors import UsageError
from pnp.parallel import fork_map, shared
from pnp.rules.figures import Mean, Measure, Metrics, OutcomeFigures, Rate

Z95 = 1.959963984540054


def wilson(hits: float, total: int, z: float = Z95) -> Rate:
    """A rate with its 95 % Wilson score interval (another with ``z``: 3.29
    is 99.9 %; ``hits`` may hold parts of one, such as shared wins: the
    interval is then a little wider than need be)."""
    if total == 0:
        return {"rate": 0.0, "low": 0.0, "high": 0.0}
    p = hits / total
    denominator = 1 + z**2 / total
    centre = (p + z**2 / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z**2 / (4 * total**2)) / denominator
    return {"rate": round(p, 6), "low": round(max(0.0, centre - half), 6), "high": round(min(1.0, centre + half), 6)}


@dataclass(frozen=True)
class Run:
    """What to simulate: which engine, how many players, which agents."""

    engine: PlayEngine[object, object]
    prepared: object
    options: dict[str, object]
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int
    variant: str | None = None
    """The rules' variant played (game.yaml engine.variants), None: as printed."""
    rollout: str | None = None
    """The agent search agents play out with (game.yaml engine.rollout), None: the default."""
    start: int = 0
    """The index of the run's first game: a run continued from game ``start``
    adds up exactly with the one that played the games before it."""


@dataclass
class Tally:
    """Counts over many games; tallies of parts of a run add up exactly."""

    games: int = 0
    seat_wins: Counter[int] = field(default_factory=Counter)
    no_winner: int = 0
    capped: int = 0
    categories: Counter[tuple[str, bool]] = field(default_factory=Counter)
    """(category, won) per seat and game."""
    actions: Counter[str] = field(default_factory=Counter)
    powers: Counter[str] = field(default_factory=Counter)
    """Card powers used (Outcome.powers), counted as actions are."""
    shared_wins: Counter[tuple[int, int]] = field(default_factory=Counter)
    """(seat, number of winners) per win: a win shared by k seats is 1/k of one."""
    rounds: Counter[int] = field(default_factory=Counter)
    held: Counter[str] = field(default_factory=Counter)
    held_by_winner: Counter[str] = field(default_factory=Counter)
    measures: dict[str, list[float]] = field(default_factory=dict)
    """Per measure: [sum, sum of squares, games where it is not 0]."""

    def add(self, o: Outcome) -> None:
        self.games += 1
        for name, value in o.measures.items():
            sums = self.measures.get(name)
            if sums is None:
                sums = self.measures[name] = [0.0, 0.0, 0.0]
            sums[0] += value
            sums[1] += value * value
            sums[2] += value != 0
        self.no_winner += not any(o.winners)
        self.capped += o.capped
        self.rounds[o.rounds] += 1
        actions, held, held_by_winner = self.actions, self.held, self.held_by_winner
        for name, count in o.actions.items():  # plain loops: Counter.update costs more than the few counts it adds
            actions[name] += count
        if o.powers:
            powers = self.powers
            for name, count in o.powers.items():
                powers[name] += count
        winners = sum(o.winners)
        held.update(chain.from_iterable(o.hands))  # one call for every card held (a loop would step through each)
        for seat, won in enumerate(o.winners):
            self.categories[(o.categories[seat], won)] += 1
            if won:
                self.seat_wins[seat] += 1
                self.shared_wins[(seat, winners)] += 1
                held_by_winner.update(o.hands[seat])

    def merge(self, other: Tally) -> Tally:
        self.games += other.games
        for name, sums in other.measures.items():
            own = self.measures.setdefault(name, [0.0, 0.0, 0.0])
            for k in range(3):
                own[k] += sums[k]
        self.no_winner += other.no_winner
        self.capped += other.capped
        for mine, theirs in (
            (self.seat_wins, other.seat_wins), (self.categories, other.categories), (self.actions, other.actions),
            (self.powers, other.powers), (self.shared_wins, other.shared_wins),
            (self.rounds, other.rounds), (self.held, other.held), (self.held_by_winner, other.held_by_winner),
        ):
            mine.update(theirs)  # type: ignore[arg-type]
        return self


def agents_for(engine: PlayEngine[object, object], names: Sequence[str], players: int) -> tuple[str, ...]:
    """One agent name per seat: a single name fills the table; unknown names are refused."""
    chosen = list(names) or ["heuristic"]
    if len(chosen) == 1:
        chosen = chosen * players
    if len(chosen) != players:
        raise UsageError(f"--agents: {len(chosen)} agents for {players} players; give one, or one per seat")
    for name in chosen:
        seats.check(engine, name)
    return tuple(chosen)


def searches(run: Run) -> bool:
    """Whether a seat of ``run`` searches (its games cost thousands of playouts each)."""
    return any(seats.iterations(name) is not None for name in run.agents)


def _tally_shared(start: int, stop: int) -> Tally:
    return tally_range(shared(), start, stop)


def tally_range(run: Run, start: int, stop: int) -> Tally:
    """Play games ``start`` to ``stop`` of ``run`` and count them."""
    agents = [seats.make(run.engine, run.prepared, name, run.rollout) for name in run.agents]
    # pnp's own agents only make legal moves (each game's tests/test_*_engine.py check every
    # step of random playouts), so bulk play skips re-checking each move.
    options = {**run.options, "trusted_agents": True}
    tally = Tally()
    for index in range(start, stop):
        seed = f"{run.seed}:{index}"
        state = run.engine.new_state(run.prepared, run.players, random.Random(seed), options)
        tally.add(play(state, agents, agent_rngs(seed, run.players)))
    return tally


def _tally_job(index: int, start: int, stop: int) -> tuple[int, Tally]:
    return index, tally_range(shared()[index], start, stop)


def simulate_many(runs: Sequence[Run], workers: int = 1, piece: int = 500, label: str = "simulating") -> list[Tally]:
    """Several runs at once, cut into pieces of ``piece`` games handed to one
    pool, so no core waits for another between runs (a searching run game
    by game); ``label`` names them on the progress bar."""
    jobs = [
        (i, start, min(start + step, run.start + run.games))
        for i, run in enumerate(runs)
        for step in [1 if searches(run) else piece]
        for start in range(run.start, run.start + run.games, step)
    ]
    jobs.sort(key=lambda job: -runs[job[0]].players * (job[2] - job[1]))  # longest first
    totals = [Tally() for _ in runs]
    from pnp.progress import Progress

    with Progress(label, len(jobs)) as bar:
        parts = fork_map(_tally_job, jobs, max(1, min(workers, os.cpu_count() or 1)), share=list(runs), done=bar.advance)
    for index, part in parts:
        totals[index].merge(part)
    return totals


def simulate(run: Run, workers: int = 1) -> Tally:
    """Every game of ``run``, counted, on up to ``workers`` processes: a
    searching run game by game, with a progress bar on a terminal."""
    if searches(run):
        return simulate_many([run], workers)[0]
    workers = max(1, min(workers, os.cpu_count() or 1, run.games // 50 or 1))
    bounds = [run.games * w // workers for w in range(workers + 1)]
    parts = fork_map(_tally_shared, [(bounds[w], bounds[w + 1]) for w in range(workers)], workers, share=run)
    total = Tally()
    for part in parts:
        total.merge(part)
    return total


WORDS = {"rounds": "rounds", "actions": "actions", "first_seat": "first seat", "no_winner": "no seat won"}
"""What an engine calls its rounds, its kinds of action and its first seat,
and what a game without a winner is in its rules, unless it says otherwise
(module attributes ROUNDS, ACTIONS, FIRST_SEAT, NO_WINNER)."""


def words(engine: PlayEngine[object, object]) -> dict[str, str]:
    """The engine's own words for the report (:data:`WORDS`)."""
    return {key: str(getattr(engine, key.upper(), default)) for key, default in WORDS.items()}


def mean_interval(sums: list[float], games: int, z: float = Z95) -> Mean:
    """A per-game mean with its 95 % interval (another with ``z``; normal
    approximation, sample variance)."""
    if games == 0:
        return {"mean": 0.0, "low": 0.0, "high": 0.0}
    mean = sums[0] / games
    variance = max(0.0, (sums[1] - games * mean * mean) / (games - 1)) if games > 1 else 0.0
    half = z * math.sqrt(variance / games)
    return {"mean": round(mean, 6), "low": round(mean - half, 6), "high": round(mean + half, 6)}


def measured(engine: PlayEngine[object, object], tally: Tally) -> dict[str, Measure]:
    """Each measure the engine reports, in its ``MEASURES`` order: the mean
    per game and how many games had any, both with 95 % intervals."""
    named = tuple(getattr(engine, "MEASURES", {}))
    order = [*[m for m in named if m in tally.measures], *sorted(set(tally.measures) - set(named))]
    return {
        name: {**mean_interval(tally.measures[name], tally.games), "games_with": wilson(int(tally.measures[name][2]), tally.games)}
        for name in order
    }


def metrics(run: Run, tally: Tally) -> Metrics:
    """The numbers a designer reads: seats, outcomes (in the engine's own
    categories, its ``CATEGORIES`` first), length, actions, cards."""
    n, games = run.players, tally.games
    rates = [wilson(tally.seat_wins[s], games) for s in range(n)]
    seats_total = games * n
    chosen = sum(tally.actions.values())
    ordered = sorted(tally.rounds.elements())

    def pct(q: float) -> int:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0

    outcomes: dict[str, OutcomeFigures] = {}
    named = tuple(getattr(run.engine, "CATEGORIES", ()))
    for category in (*named, *sorted({c for c, _ in tally.categories} - set(named))):
        wins, losses = tally.categories[(category, True)], tally.categories[(category, False)]
        outcomes[category] = {
            "wins": wins, "losses": losses, "share": wilson(wins + losses, seats_total), "win_rate": wilson(wins, wins + losses),
        }
    return {
        "games": games,
        "players": n,
        "variant": run.variant,
        "agents": list(run.agents),
        "words": words(run.engine),
        "seed": run.seed,
        "win_rate_by_seat": rates,
        "seat_balance": round(1 - (max(r["rate"] for r in rates) - min(r["rate"] for r in rates)), 6) if rates else 1.0,
        "seat_balance_high": round(1 - max(0.0, max(r["low"] for r in rates) - min(r["high"] for r in rates)), 6) if rates else 1.0,
        # the most balanced the seats may be within their 95 % intervals: what a band is judged on
        "winners_share": wilson(sum(tally.seat_wins.values()), seats_total),
        "no_winner_rate": wilson(tally.no_winner, games),
        "capped_rate": wilson(tally.capped, games),
        "outcomes": outcomes,
        "rounds": {
            "mean": round(sum(ordered) / len(ordered), 4) if ordered else 0.0,
            "p10": pct(0.1), "p50": pct(0.5), "p90": pct(0.9), "max": ordered[-1] if ordered else 0,
        },
        "actions": {k: round(v / chosen, 6) for k, v in sorted(tally.actions.items())} if chosen else {},
        "powers": {k: round(v / games, 6) for k, v in sorted(tally.powers.items())} if games else {},
        "held_by_winner": {card: round(tally.held_by_winner[card] / tally.held[card], 6) for card in sorted(tally.held)},
        "measures": measured(run.engine, tally),
    }

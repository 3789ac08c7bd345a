"""Play many seeded games and measure them.

Game ``i`` of a run with seed ``S`` is played with ``random.Random(f"{S}:{i}")``,
so a run gives the same numbers however many workers share it. Every rate
comes with a 95 % Wilson interval.
"""

from __future__ import annotations

import math
import os
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from pnp.engine.api import Outcome, play
from pnp.errors import UsageError
from pnp.parallel import fork_map, shared

Z95 = 1.959963984540054


def wilson(hits: int, total: int) -> dict[str, float]:
    """A rate with its 95 % Wilson score interval."""
    if total == 0:
        return {"rate": 0.0, "low": 0.0, "high": 0.0}
    p = hits / total
    denominator = 1 + Z95**2 / total
    centre = (p + Z95**2 / (2 * total)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / total + Z95**2 / (4 * total**2)) / denominator
    return {"rate": round(p, 6), "low": round(max(0.0, centre - half), 6), "high": round(min(1.0, centre + half), 6)}


@dataclass(frozen=True)
class Run:
    """What to simulate: which engine, how many players, which agents."""

    engine: ModuleType
    prepared: Any
    options: dict[str, Any]
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int


def agents_for(engine: ModuleType, names: Sequence[str], players: int) -> tuple[str, ...]:
    """One agent name per seat: a single name fills the table; unknown names are refused."""
    chosen = list(names) or ["heuristic"]
    if len(chosen) == 1:
        chosen = chosen * players
    if len(chosen) != players:
        raise UsageError(f"--agents: {len(chosen)} agents for {players} players; give one, or one per seat")
    unknown = [a for a in chosen if a not in engine.AGENTS]
    if unknown:
        raise UsageError(f"--agents: unknown agent {unknown[0]!r}; expected one of {', '.join(engine.AGENTS)}")
    return tuple(chosen)


def _play_shared(start: int, stop: int) -> list[Outcome]:
    return _play_range(shared(), start, stop)


def _play_range(run: Run, start: int, stop: int) -> list[Outcome]:
    agents = [run.engine.AGENTS[name]() for name in run.agents]
    out = []
    for index in range(start, stop):
        rng = random.Random(f"{run.seed}:{index}")
        state = run.engine.new_state(run.prepared, run.players, rng, run.options)
        out.append(play(state, agents, rng))
    return out


def outcomes(run: Run, workers: int = 1) -> list[Outcome]:
    """Every game's outcome, in game order, on ``workers`` processes."""
    workers = max(1, min(workers, os.cpu_count() or 1, run.games // 50 or 1))
    if workers == 1:
        return _play_range(run, 0, run.games)
    bounds = [run.games * w // workers for w in range(workers + 1)]
    parts = fork_map(_play_shared, [(bounds[w], bounds[w + 1]) for w in range(workers)], workers, share=run)
    return [o for part in parts for o in part]


def metrics(run: Run, results: Sequence[Outcome]) -> dict[str, Any]:
    """The numbers a designer reads: seats, outcomes, length, actions, cards."""
    n, games = run.players, len(results)
    seat_wins = [sum(o.winners[s] for o in results) for s in range(n)]
    rates = [wilson(w, games) for w in seat_wins]
    by_status: dict[str, Counter[str]] = {s: Counter() for s in ("engaged", "independent", "available")}
    actions: Counter[str] = Counter()
    held: Counter[str] = Counter()
    held_by_winner: Counter[str] = Counter()
    for o in results:
        for seat in range(n):
            by_status[o.status[seat]]["wins" if o.winners[seat] else "losses"] += 1
            for card in o.hands[seat]:
                held[card] += 1
                if o.winners[seat]:
                    held_by_winner[card] += 1
        actions.update(o.actions)
    rounds = sorted(o.rounds for o in results)
    seats_total = games * n
    chosen = sum(actions.values())

    def pct(q: float) -> int:
        return rounds[min(len(rounds) - 1, int(q * len(rounds)))] if rounds else 0

    return {
        "games": games,
        "players": n,
        "agents": list(run.agents),
        "seed": run.seed,
        "win_rate_by_seat": rates,
        "seat_balance": round(1 - (max(r["rate"] for r in rates) - min(r["rate"] for r in rates)), 6) if rates else 1.0,
        "winners_share": wilson(sum(seat_wins), seats_total),
        "no_winner_rate": wilson(sum(1 for o in results if not any(o.winners)), games),
        "capped_rate": wilson(sum(1 for o in results if o.capped), games),
        "outcomes": {
            status: {"wins": c["wins"], "losses": c["losses"], "share": wilson(c["wins"] + c["losses"], seats_total),
                     "win_rate": wilson(c["wins"], c["wins"] + c["losses"])}
            for status, c in by_status.items()
        },
        "rounds": {
            "mean": round(statistics.fmean(rounds), 4) if rounds else 0.0,
            "p10": pct(0.1), "p50": pct(0.5), "p90": pct(0.9), "max": rounds[-1] if rounds else 0,
        },
        "actions": {k: round(v / chosen, 6) for k, v in sorted(actions.items())} if chosen else {},
        "held_by_winner": {card: round(held_by_winner[card] / held[card], 6) for card in sorted(held)},
    }

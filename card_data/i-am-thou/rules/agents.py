"""Agents for "I am thou, thou art I". Each decides from its own observation.

- ``random``: a uniformly random legal option at every decision.
- ``heuristic``: reads the race for each NPC from its own points and the
  others' seen visits (a point a visit; the true points when the moderator
  reveals them). It visits the NPCs it can still take (ahead by little or
  behind by little), doubly where Cups or Wands pay for it, and the NPCs
  whose effects help now (Sun, Strength, Death, the Wheel, the Empress and
  the Tower on their third round ...), and a player when the NPCs left are
  worth less than the suits' interaction abilities; it aims each effect at the race it
  is in: its points where it is close, the rival ahead of it on that NPC for
  the Star, the High Priestess, Justice and the Devil, the overall leader for
  the Tower, the Moon and the Swords. It votes for the top two holding
  Swords (which gain most from it), for the single highest otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from pnp.engine.api import Agent, Decision, Product

from .table import (
    CUPS, DEATH, EMPRESS, FOOL, HIEROPHANT, LOVERS, MOST, NPCS, PLAYER, SKIP, STAR, STOP, STRENGTH, SUN, SWORDS, TEMPERANCE, TOP_TWO, TOWER, WANDS, WHEEL,
    Observation,
)


def random_agent(obs: Observation, decision: Decision, rng: random.Random) -> Any:
    options = decision.options
    return options[int(rng.random() * len(options))]


def seen_points(obs: Observation) -> list[list[int]]:
    """Every seat's points as this seat can read them: the revealed ledger (if
    any) and a point for each NPC visit seen since."""
    n = obs.players
    seen = [[0] * NPCS for _ in range(n)]
    since = 0
    if obs.ledger is not None:
        seen = [list(row) for row in obs.ledger]
        since = obs.round - 1
    for visits in obs.history[since:]:
        for s in range(n):
            row = seen[s]
            for x in visits[s]:
                if x < NPCS:
                    row[x] += 1
    return seen


class Race:
    """The race for each NPC as one seat reads it."""

    def __init__(self, obs: Observation, seen: list[list[int]]):
        me = obs.seat
        self.points = [list(obs.mine.known) if s == me else row for s, row in enumerate(seen)]
        self.me = me
        rows = [row for s, row in enumerate(self.points) if s != me]
        self.best_other = [max(column) for column in zip(*rows)]
        self.margin = [a - b for a, b in zip(self.points[me], self.best_other)]
        self.worth = [1.5 if -2 <= m <= 1 else 0.7 if m == 2 or m == -3 else 0.3 for m in self.margin]
        """How much a point on each NPC is worth: most where the race is close."""

    @property
    def leader(self) -> int:
        """The other seat ahead on the most NPCs."""
        n = len(self.points)
        best = [max(column) for column in zip(*self.points)]
        return max((s for s in range(n) if s != self.me), key=lambda s: sum(a == b > 0 for a, b in zip(self.points[s], best)))

    def contest(self, x: int) -> float:
        return self.worth[x]

    def rival(self, x: int) -> int:
        """The other seat with the most points on ``x``."""
        return max((s for s in range(len(self.points)) if s != self.me), key=lambda s: self.points[s][x])


def _effect_bonus(obs: Observation) -> list[float]:
    """What visiting each NPC's effect is worth to the seat this round."""
    m, r = obs.mine, obs.round
    bonus = [0.2] * NPCS
    if m.death:
        return [0.0] * NPCS
    bonus[SUN] = 0.9 if m.sun_last < r - 1 else 0.0
    bonus[STRENGTH] = 0.8 if m.strength_last < r - 1 and r < obs.rounds else 0.0
    bonus[DEATH] = 0.7 if r < obs.rounds else 0.0
    bonus[WHEEL] = 0.5 if r < obs.rounds else 0.0
    bonus[STAR] = 0.5
    bonus[HIEROPHANT] = 0.3
    bonus[TEMPERANCE] = 0.6 if m.thirds >= 3 * (m.temperance_used + 1) else 0.0
    bonus[FOOL] = 0.5 if obs.fool == 2 or m.fool_last < r - 1 else 0.2
    into = (r - 1) % 3  # rounds of the current three already played: the Empress and the Tower pay at its end
    for npc in (EMPRESS, TOWER):
        streak = all(npc in v[obs.seat] for v in obs.history[len(obs.history) - into :]) if into else True
        bonus[npc] = 1.0 if streak and r + 2 - into < obs.rounds else 0.0  # paid next round: not after the last
    return bonus


_MEETING = (0.45, 0.25, 0.05, 0.1)
"""What each suit's interaction ability is worth to the heuristic on a
visit to a player: a Wands watch likely pays a point next round, a third of
a Garnet buys toward Temperance, a gift is never taken, a block harms."""


def _visit(obs: Observation, decision: Decision, rng: random.Random, race: Race) -> Any:
    mine = obs.mine
    picks = mine.picks
    bonus = _effect_bonus(obs)
    worth = race.worth
    fresh = [w + b for w, b in zip(worth, bonus)]
    again = [w + (0.8 if mine.suit == CUPS and picks.count(x) == 1 else 0.0) for x, w in enumerate(worth)] if picks else worth
    wands = mine.suit == WANDS
    meeting = [_MEETING[mine.suit] + _MEETING[suit] for suit in range(4)]
    best, best_value = STOP, 0.0
    for target in decision.options:
        if target == STOP:
            continue
        if target >= PLAYER:
            value = meeting[obs.suits[target - PLAYER]]
        else:
            value = again[target] if target in picks else fresh[target]
        if wands and picks.count(target) == 2:
            value += 1.0
        value += 0.3 * rng.random()
        if value > best_value:
            best, best_value = target, value
    return best


def _npc_for_points(race: Race, options: Sequence[Any]) -> Any:
    """The NPC a point helps most (SKIP, when offered, if none is close)."""
    npcs = [x for x in options if x != SKIP]
    best = max(npcs, key=race.contest)
    return best if SKIP not in options or race.contest(best) > 1 else SKIP


def _aimed(race: Race, options: Product) -> Any:
    """(player, NPC): the rival ahead on the NPC closest to the seat's reach."""
    players, npcs = options.parts
    x = max(npcs, key=lambda y: (race.contest(y), race.best_other[y]))
    rival = race.rival(x)
    return (rival if rival in players else players[0], x)


def _choose(obs: Observation, decision: Decision, rng: random.Random, race: Race) -> Any:
    kind, options = decision.kind, decision.options
    if kind == "vote":
        return TOP_TWO if obs.mine.suit == SWORDS else MOST  # the top two favour Swords most (DESIGN.md)
    if kind == "buy":
        return True
    if kind == "eliminate":
        return options[0]
    if kind in ("sun", "judgement-point", "hierophant", "world", "temperance", "sword point"):
        return _npc_for_points(race, options)
    if kind == "fool":
        return SUN if SUN in options and obs.mine.sun_last < obs.round - 1 else max(options, key=race.contest)
    if kind == "judgement":
        return min(options, key=lambda x: (race.points[race.me][x] > 0 and race.margin[x] < -3, -race.contest(x), race.points[race.me][x]))
    if kind in ("magician-in", "magician-out", "cups"):
        return SKIP
    if kind == "hanged-man":
        return min(options, key=race.contest)
    if isinstance(options, Product):
        if kind == "wands":
            return _wands(obs, options)
        return _aimed(race, options)
    if kind in ("tower", "moon", "swords"):
        return race.leader if race.leader in options else options[0]
    if kind == "emperor":
        return min(options, key=lambda s: sum(m > 0 for m in race.points[s]))
    if kind == "lovers":
        last = obs.history[-1]
        return next((p for p in options if LOVERS in last[p]), options[0])
    return options[int(rng.random() * len(options))]


def _wands(obs: Observation, options: Product) -> Any:
    """(player, NPC) the player visits most."""
    players, npcs = options.parts
    counts: dict[tuple[int, int], int] = {}
    for visits in obs.history:
        for p in players:
            for x in visits[p]:
                if x < NPCS:
                    counts[(p, x)] = counts.get((p, x), 0) + 1
    return max(counts, key=counts.__getitem__) if counts else (players[0], npcs[0])


def heuristic() -> Agent[Observation]:
    """The heuristic, with a note of each race it read (read again when the
    visits, its points or the revealed ledger change)."""
    notes: dict[tuple[Any, ...], Race] = {}

    def agent(obs: Observation, decision: Decision, rng: random.Random) -> Any:
        key = (obs.seat, obs.round, obs.history, obs.mine.known, obs.ledger)
        race = notes.get(key)
        if race is None:
            race = notes[key] = Race(obs, seen_points(obs))
        if decision.kind == "visit":
            return _visit(obs, decision, rng, race)
        return _choose(obs, decision, rng, race)

    return agent


AGENTS: dict[str, Callable[[], Agent[Observation]]] = {"heuristic": heuristic, "random": lambda: random_agent}

"""A whole game consistent with one seat's view (the engine API's search hook, docs/engine.md)."""

from __future__ import annotations

import random

from pnp.engine.api import Decision, EngineError, shuffle

from .pack import KINDS, Pack
from .state import CourtingState, View


def determinize(pack: Pack, view: View, decision: Decision, rng: random.Random, check_moves: bool = True) -> CourtingState:
    """The table as ``view`` shows it (every society, face down or not, the
    prestige, the discards, the steps still to come), the seat's own hand,
    and what it has not seen dealt afresh from ``rng``: the order of the two
    character piles (their cards are known: none other is left), and the
    influence cards neither in its hand nor played, to the other hands in
    their known sizes and to the pile. The dice roll from a generator seeded
    from ``rng``. Reads only its arguments."""
    if decision.seat != view.seat:
        raise EngineError(f"seat {view.seat}'s view cannot make seat {decision.seat}'s decision")
    players = len(view.societies)
    state = CourtingState.__new__(CourtingState)
    state._begin(pack, players, random.Random(rng.getrandbits(64)), check_moves)
    placed = {c for society in view.societies for c in society} | set(view.discarded)
    piles = [[c.index for c in pack.characters if c.kind == kind and c.index not in placed] for kind in range(len(KINDS))]
    seen = set(view.hand) | set(view.played)
    unseen = [card.index for card in pack.influence if card.index not in seen]
    if [len(p) for p in piles] + [len(unseen)] != [view.piles[0], view.piles[1], view.piles[2] + sum(view.hand_sizes) - len(view.hand)]:
        raise EngineError(f"the view shows piles of {view.piles} and hands of {view.hand_sizes}; the unseen cards do not fit")
    for pile in (*piles, unseen):
        shuffle(pile, rng)
    state.hands = [list(view.hand) if s == view.seat else [unseen.pop() for _ in range(size)] for s, size in enumerate(view.hand_sizes)]
    state.piles, state.influence = piles, unseen
    state.active, state.turn, state.passes, state.extra = view.active, view.turn, view.passes, view.extra
    state.prestige, state.supply = list(view.prestige), view.supply
    state.societies, state.down = [list(s) for s in view.societies], set(view.down)
    state.discarded, state.played, state.steps = list(view.discarded), list(view.played), list(view.steps)
    if decision.kind == "reroll":
        state.face = decision.context["face"]
    if not view.piles[0] or not view.piles[1] or not view.piles[2] or not view.supply:
        state.ended = next(why for why, left in zip(("ladies", "gentlemen", "influence", "tokens"), (*view.piles, view.supply)) if not left)
    state._current = decision
    return state

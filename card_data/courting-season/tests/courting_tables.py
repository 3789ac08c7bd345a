"""Courting Season tables set up by hand for the engine's tests: chosen
societies, hands, prestige and piles, and dice that roll the faces given."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.engine.plugins import engine_for
from pnp.loading.loader import load_game

GAME_DIR = Path(__file__).resolve().parents[1]
GAME = load_game(GAME_DIR)
RULES, OPTIONS = engine_for(GAME, trust=True)
State = RULES.state.CourtingState


@functools.cache
def pack(variant: str | None = None) -> Any:
    return RULES.prepare(GAME, GAME.engine.options_for(variant))


def char(p: Any, cid: str) -> int:
    return next(c.index for c in p.characters if c.id == cid)


def card(p: Any, iid: str, copy: int = 0) -> int:
    return [c.index for c in p.influence if c.id == iid][copy]


class Dice:
    """A stand-in for the state's generator: each roll is the next face
    given by name (a trait or ``preference``), and nothing else is drawn."""

    def __init__(self, p: Any, faces: Sequence[str]):
        names = [("preference" if f < 0 else p.traits[f]) for f in p.faces]
        self.rolls = [names.index(f) for f in faces]

    def randrange(self, n: int) -> int:
        return self.rolls.pop(0)


def table(
    p: Any, societies: Sequence[Sequence[str]], *, prestige: Sequence[int] | None = None, hands: Sequence[Sequence[str]] | None = None,
    supply: int | None = None, faces: Sequence[str] = (), influence_left: int | None = None, down: Sequence[str] = (),
) -> Any:
    """A game at seat 0's turn, its society full and face up (the fill done),
    about to act. Piles hold every other character in printed order (the
    last on top); the influence pile every card not in a hand, or only its
    top ``influence_left``."""
    n = len(societies)
    state = State.__new__(State)
    state._begin(p, n, Dice(p, faces), True)
    state.societies = [[char(p, c) for c in s] for s in societies]
    state.down = {char(p, c) for c in down}
    state.hands = [[card(p, i, list(h[:k]).count(i)) for k, i in enumerate(h)] for h in (hands or [[] for _ in range(n)])]
    placed = {c for s in state.societies for c in s}
    state.piles = [[c.index for c in p.characters if c.kind == kind and c.index not in placed] for kind in (0, 1)]
    held = {i for h in state.hands for i in h}
    state.influence = [c.index for c in p.influence if c.index not in held]
    if influence_left is not None:
        state.influence = state.influence[-influence_left:]
    state.prestige = list(prestige or [p.start_prestige] * n)
    state.supply = p.supply - sum(state.prestige) if supply is None else supply
    state.steps = [("act",), ("next",)]
    state._run()
    return state

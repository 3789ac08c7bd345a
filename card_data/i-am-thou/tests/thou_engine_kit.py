"""What the engine tests of "I am thou, thou art I" share: the loaded game, a
game with chosen suits, and a round played from a script of visits and answers."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from pnp.engine.api import Decision
from pnp.engine.plugins import engine_for
from pnp.loading.loader import load_game

GAME_DIR = Path(__file__).resolve().parents[1]
GAME = load_game(GAME_DIR)
RULES, OPTIONS = engine_for(GAME, trust=True)
T = RULES.table
"""The engine's constants: T.SUN, T.PLAYER, T.STOP ..."""


def prepared(variant: str | None = None, **over: Any) -> Any:
    assert GAME.engine is not None
    return dataclasses.replace(RULES.prepare(GAME, GAME.engine.options_for(variant)), **over)


def new_game(suits: tuple[str, ...] = ("coins", "coins", "coins"), seed: int = 0, **over: Any) -> Any:
    """A game at its first round's visits with the given suits (Coins by
    default: no passive effect without Garnets)."""
    state = RULES.new_state(prepared(**over), len(suits), random.Random(seed), {})
    for mine, suit in zip(state.mines, suits):
        mine.suit, mine.asked_buy = T.SUIT_IDS.index(suit), False
    state.current = None
    state._advance()
    return state


def play_round(
    state: Any, visits: dict[int, list[int]], answers: dict[tuple[int, str], list[Any]] | None = None
) -> list[Decision]:
    """Play the current round to its end: each seat makes ``visits[seat]``
    (then stops); each effect decision takes the next of ``answers[(seat,
    kind)]``, or SKIP where it may be skipped; a Coins seat buys nothing, a
    Swords seat takes no point unless answered. Every decision asked is returned."""
    answers = {k: list(v) for k, v in (answers or {}).items()}
    start, asked = state.round, []
    while (decision := state.decision()) is not None and (state.round == start or state.phase == "eliminate"):
        asked.append(decision)
        seat, kind = decision.seat, decision.kind
        if kind == "visit":
            plan, made = visits.get(seat, []), len(state.mines[seat].picks)
            choice = plan[made] if made < len(plan) else T.STOP
        elif answers.get((seat, kind)):
            choice = answers[(seat, kind)].pop(0)
        elif T.SKIP in decision.options:
            choice = T.SKIP
        elif kind == "buy":
            choice = False
        else:
            raise AssertionError(f"no answer for {decision}")
        state.apply(choice)
    assert not any(answers.values()), f"answers never asked for: {answers}"
    return asked


def kinds(asked: list[Decision], seat: int) -> list[str]:
    """The kinds of decision a seat was asked, visits left out."""
    return [d.kind for d in asked if d.seat == seat and d.kind != "visit"]

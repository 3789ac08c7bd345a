"""The agents: random play, and a heuristic that weighs what a move is
expected to bring its seat against what it brings the other player."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pnp.engine.api import Agent, Decision

from .pack import APPROVAL, KINDS, Pack, approval, expected
from .state import ACCEPT, DECLINE, KEEP, REROLL, View

RIVAL = 0.5
"""How much a point given to another player weighs against one's own."""
INFLUENCE = 2.0
"""What an influence card drawn is taken to be worth."""


def _random() -> Agent[View]:
    def agent(view: Any, decision: Decision, rng: random.Random) -> Any:
        return rng.choice(decision.options)

    return agent


def _relief(pack: Pack, char: int) -> float:
    """The penalty a character takes away by leaving, less its likely successor's."""
    return pack.characters[char].traits[pack.penalty] - 3.0


def _best_approval(view: View, mine: int, other: int) -> float:
    pack = view.pack
    worths = [approval(pack, c, mine, other) for c in view.hand if pack.influence[c].kind == APPROVAL]
    return float(max(worths, default=0))


def _best_move(view: View, options: Any) -> Any:
    """The move worth most to the seat less half what it gives the other
    player (the first of equals): a proposal's expected roll, best approval,
    the penalty its character takes away and the influence card it brings;
    a host play's take and change of penalty, and a welcome home's extra turn."""
    pack = view.pack
    chars, cards, pen = pack.characters, pack.influence, pack.penalty
    approvals = [c for c in view.hand if cards[c].kind == APPROVAL]
    best, most = None, float("-inf")
    for move in options:
        if move[0] == "propose":
            _, mine, other, theirs = move
            bonus = float(max((approval(pack, c, mine, theirs) for c in approvals), default=0))
            me = expected(pack, mine, theirs) + bonus + _relief(pack, mine) + INFLUENCE
            them = expected(pack, theirs, mine) + _relief(pack, theirs) + INFLUENCE
            worth = me - RIVAL * them
        else:
            _, card, mine, other, theirs = move
            trait = cards[card].trait
            gain = chars[theirs].traits[trait] - chars[theirs].traits[pen] + chars[mine].traits[pen]
            given = chars[mine].traits[trait] - chars[mine].traits[pen] + chars[theirs].traits[pen]
            welcome = 4.0 if pack.welcome and chars[theirs].home == cards[card].house else 0.0
            worth = gain + welcome - RIVAL * given - 1.0  # the host card is spent
        if worth > most:
            best, most = move, worth
    return best


def _answer(view: View, decision: Decision) -> str:
    pack = view.pack
    _, theirs, _, mine = decision.context["proposal"]
    mine_e, theirs_e = expected(pack, mine, theirs), expected(pack, theirs, mine)
    accept = mine_e + _best_approval(view, mine, theirs) + _relief(pack, mine) + INFLUENCE - RIVAL * (theirs_e + _relief(pack, theirs) + INFLUENCE)
    decline = -min(mine_e, view.prestige[view.seat]) + INFLUENCE + RIVAL * theirs_e
    return ACCEPT if accept >= decline else DECLINE


def _reroll(view: View, decision: Decision) -> str:
    _, _, mine, other, sign = view.steps[0]
    worse = decision.context["value"] < expected(view.pack, mine, other)
    return REROLL if worse == (sign > 0) else KEEP


def _approve(view: View, decision: Decision) -> Any:
    mine, other = decision.context["mine"], decision.context["other"]
    cards = [c for c in decision.options if c is not None]
    best = max(cards, key=lambda c: approval(view.pack, c, mine, other))
    return best if approval(view.pack, best, mine, other) >= 3 or len(cards) > 1 else None


def _heuristic() -> Agent[View]:
    def agent(view: View, decision: Decision, rng: random.Random) -> Any:
        kind, pack = decision.kind, view.pack
        if kind == "act":
            return _best_move(view, decision.options)
        if kind == "answer":
            return _answer(view, decision)
        if kind == "reroll":
            return _reroll(view, decision)
        if kind == "approve":
            return _approve(view, decision)
        if kind == "farewell":
            return max(decision.options, key=lambda c: pack.characters[c].traits[pack.penalty])
        counts = [sum(pack.characters[c].kind == k for c in view.societies[view.seat]) for k in range(len(KINDS))]
        return min(decision.options, key=lambda k: counts[KINDS.index(k)])  # draw: the kind it holds fewer of

    return agent


AGENTS: dict[str, Callable[[], Agent[View]]] = {"heuristic": _heuristic, "random": _random}

__all__ = ["AGENTS"]

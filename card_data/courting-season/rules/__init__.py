"""Courting Season as the simulator and the scorer use it: the glue between
the loaded game data (:mod:`.pack`), the rules (:mod:`.state`), the agents
and a real table's scoring (:mod:`.scoring`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pnp.model import Game

from .agents import AGENTS
from .determinize import determinize
from .pack import Pack, read_pack
from .scoring import score, score_text
from .state import BEHIND, ENDINGS, MOVES, TOP, CourtingState

__all__ = [
    "ACTIONS", "AGENTS", "CATEGORIES", "FIRST_SEAT", "MEASURES", "ROUNDS", "determinize", "new_state", "player_counts", "prepare",
    "score", "score_text", "usable",
]

CATEGORIES = (TOP, BEHIND)
ROUNDS = "rounds"
ACTIONS = "moves"
FIRST_SEAT = "first player"
MEASURES = {
    "turns": "turns played, extra turns included",
    "matches": "proposals accepted",
    "tied for the win": "games whose highest score is shared",
    "winning margin": "highest score less the second highest",
    "penalty": "the mean penalty a player pays for the characters left in their society",
    "prestige lost to an empty supply": "prestige claimed after the supply ran out",
    **{f"ended by {why}": f"games ended by {text}" for why, text in zip(
        ENDINGS, ("the last prestige taken", "the last lady drawn", "the last gentleman drawn", "the last influence card drawn", "a round in which nobody could move"),
    )},
}
"""What each measure an outcome reports means."""


def prepare(game: Game, options: Mapping[str, Any]) -> Pack:
    """The characters, influence cards, dice, supply and numbers, read once."""
    return read_pack(game, options)


def player_counts(pack: Pack) -> list[int]:
    return list(range(pack.players[0], pack.players[1] + 1))


def new_state(pack: Pack, players: int, rng: random.Random, options: Mapping[str, Any]) -> CourtingState:
    return CourtingState(pack, players, rng, not options.get("trusted_agents", False))


def usable(pack: Pack) -> dict[str, tuple[str, ...]]:
    """Every kind of move (``Outcome.actions``) a game plays, and the advanced
    rules' powers in play. A pass, counted too, is left out: only a table
    where nobody can reach anybody forces one (RULES-NOTES.md), and no skill
    level ever chooses it."""
    return {"actions": tuple(m for m in MOVES if m != "pass"), "powers": pack.advanced}



"""Checked playouts and golden playthroughs: :mod:`pnp.testing`'s, for tests/."""

from __future__ import annotations

from types import ModuleType

from pnp.model import Game
from pnp.testing import assert_matches_golden, engine, play_checked

__all__ = ["assert_matches_golden", "game_rules", "play_checked", "shipped"]


def shipped(name: str) -> tuple[ModuleType, Game]:
    """A shipped game's engine and the game itself, by its name under card_data/."""
    return engine(name)


def game_rules(name: str) -> ModuleType:
    return engine(name)[0]

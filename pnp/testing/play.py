"""Seeded games played with every move checked, and golden playthroughs."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from pnp.engine.api import Agent, Outcome, State


S = TypeVar("S", bound=State[object])


def play_checked(state: S, agents: Sequence[Agent[object]], rng: random.Random, check: Callable[[S], None], max_steps: int) -> Outcome:
    """Play ``state`` to the end as :func:`pnp.engine.api.play` does, asserting
    that every decision offers options, every choice is one of them, ``check``
    holds after each choice, and the game ends within ``max_steps`` choices."""
    steps = 0
    while (decision := state.decision()) is not None:
        assert decision.options, decision
        choice = agents[decision.seat](state.observation(decision.seat), decision, rng)
        assert choice in decision.options
        state.apply(choice)
        check(state)
        steps += 1
        assert steps < max_steps
    return state.outcome()


def assert_matches_golden(folder: Path, name: str, lines: list[str]) -> None:
    """``lines`` are the playthrough in ``folder/<name>.txt`` (a game's
    ``tests/golden/``); PNP_UPDATE_GOLDEN=1 writes the file first."""
    golden = folder / f"{name}.txt"
    actual = "\n".join(lines) + "\n"
    if os.environ.get("PNP_UPDATE_GOLDEN") == "1":
        golden.write_text(actual)
    assert golden.exists(), "make it with PNP_UPDATE_GOLDEN=1 and read it"
    assert actual == golden.read_text()

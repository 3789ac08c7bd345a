"""Edges of the engines that mutation testing (bench/mutation.py) found
untested: moves checked unless the agents are trusted, the day cap counted
exactly, and reflection's choice limited to the seat's own letters."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from pnp.loading.loader import load_game, resolve_game_dir
from tests.enginetools import game_rules

B04 = game_rules("persuasion-b04")
D01 = game_rules("persuasion-d01")
persuasion_b04_play = B04
persuasion_d01_play = D01
D01State = D01.state.D01State
AGENTS = D01.agents.AGENTS

D01_GAME = load_game(resolve_game_dir("persuasion-d01"))
PACK = persuasion_d01_play.prepare(D01_GAME, dict(D01_GAME.engine.options))


@pytest.mark.parametrize("play, game", [(persuasion_b04_play, "persuasion-b04"), (persuasion_d01_play, "persuasion-d01")])
def test_every_move_is_checked_unless_the_agents_are_trusted(play: ModuleType, game: str) -> None:
    """A user's agent may answer anything: by default each choice is checked
    against the options; only the bundled agents, trusted, skip the check."""
    loaded = load_game(resolve_game_dir(game))
    prepared = play.prepare(loaded, dict(loaded.engine.options))
    assert play.new_state(prepared, 4, random.Random(1), {}).check_moves is True
    assert play.new_state(prepared, 4, random.Random(1), {"trusted_agents": True}).check_moves is False


@pytest.mark.parametrize("cap", [1, 2, 5])
def test_a_stalled_game_plays_exactly_its_day_cap(cap: int) -> None:
    """Agents that never settle: the game plays ``cap`` whole days, then goes
    to matrimony as it stands (the day that would pass the cap is counted)."""
    rng = random.Random(cap)
    state = D01State(PACK, 4, rng, day_cap=cap)

    def stall(decision: Any) -> Any:  # random, but never proposes nor accepts a ring
        options = [o for o in decision.options if not (isinstance(o, tuple) and o[0] in ("propose", "accept"))]
        return options[rng.randrange(len(options))]

    while (decision := state.decision()) is not None:
        state.apply(stall(decision))
    outcome = state.outcome()
    assert outcome.capped and outcome.rounds == cap + 1
    assert sum(outcome.actions.values()) > 0  # days were played before the cap


def test_reflection_keeps_the_hand_size_with_the_seats_own_letters() -> None:
    """After reflecting, the seat discards the letter it drew or one of its
    own letters: never a letter another player owns that it holds."""
    seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = D01State(PACK, 5, rng)
        agents = [AGENTS["random"]() for _ in range(5)]
        while (decision := state.decision()) is not None:
            if decision.kind == "keep":
                drawn = decision.context["drawn"]
                mine = [c for c in state.hands[decision.seat] if c != drawn and state.owner[c] == decision.seat]
                assert sorted(decision.options[1:]) == sorted(mine) and decision.options[0] == "drawn"
                seen += any(state.owner[c] != decision.seat for c in state.hands[decision.seat] if c != drawn)
            state.apply(agents[decision.seat](state.observation(decision.seat), decision, rng))
    assert seen > 0  # some reflections happened with another player's letter in hand

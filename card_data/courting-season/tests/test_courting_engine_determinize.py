"""``determinize``: a whole Courting Season game guessed from what one seat
has seen, at the decision it is about to make, for the search agent
(docs/engine.md). The engine API's own contract (tests/engine/test_search.py)
is run on it, and the guesses are checked as Partisan's are: at the decision,
the seat's view equal, the unseen cards dealt once in their known sizes,
varied from guess to guess, and every guess playable to its end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from courting_tables import RULES, pack
from pnp.engine.api import agent_rngs
from pnp.testing import play_checked


def _decisions(variant: str | None, players: int, seed: int) -> Any:
    p = pack(variant)
    state = RULES.new_state(p, players, random.Random(f"det:{seed}"), {})
    agents, rngs = [RULES.AGENTS["heuristic"]() for _ in range(players)], agent_rngs(f"det:{seed}", players)
    while (decision := state.decision()) is not None:
        yield state, decision
        state.apply(agents[decision.seat](state.observation(decision.seat), decision, rngs[decision.seat]))


def _unseen(state: Any, seat: int) -> tuple[Any, ...]:
    return tuple(state.piles[0]), tuple(state.piles[1]), tuple(state.influence), tuple(tuple(h) for s, h in enumerate(state.hands) if s != seat)


@pytest.mark.parametrize(("variant", "players"), [(None, 2), ("advanced", 4), ("advanced", 5)])
def test_a_guess_is_at_the_decision_and_shows_the_seat_what_it_saw(variant: str | None, players: int) -> None:
    kinds: set[str] = set()
    p = pack(variant)
    for seed in range(6):
        for state, decision in _decisions(variant, players, seed):
            seat = decision.seat
            view = state.observation(seat)
            guess = RULES.determinize(p, view, decision, random.Random(seed))
            assert guess.decision() == decision and guess.observation(seat) == view
            piles0, piles1, influence, hands = _unseen(guess, seat)
            assert sorted(piles0) == sorted(state.piles[0]) and sorted(piles1) == sorted(state.piles[1])
            mine = sorted([*influence, *(c for h in hands for c in h)])
            assert mine == sorted([*state.influence, *(c for s, h in enumerate(state.hands) if s != seat for c in h)])
            assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
            kinds.add(decision.kind)
    want = {"act", "answer", "approve", "farewell", "draw"} | ({"reroll"} if variant else set())
    assert kinds >= want


def test_guesses_vary_and_each_plays_to_the_end_under_the_rules() -> None:
    p = pack("advanced")
    played = 0
    for index, (state, decision) in enumerate(_decisions("advanced", 4, 3)):
        if index % 4:
            continue
        seat, truth = decision.seat, _unseen(state, decision.seat)
        deals = set()
        for k in range(8):
            guess = RULES.determinize(p, state.observation(seat), decision, random.Random(k))
            deals.add(_unseen(guess, seat))
            play_checked(guess, [RULES.AGENTS["random"]() for _ in range(4)], random.Random(k), lambda s: None, 5000)
            played += 1
        assert len(deals) >= 6
        assert _unseen(state, seat) == truth
    assert played > 50

"""Courting Season hidden information: a seat's observation (and each
decision it is given) reaches no other hand and no pile's order; the only
influence cards it names are its own hand and those played; and two games
that differ only in what a seat has not seen look the same to it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from courting_tables import RULES, pack
from pnp.engine.api import clone
from pnp.testing import reachable

Pack = RULES.pack.Pack


def _games(variant: str | None, players: int, seeds: int) -> Any:
    p = pack(variant)
    for seed in range(seeds):
        rng = random.Random(f"hidden:{seed}")
        state = RULES.new_state(p, players, rng, {})
        agents = [RULES.AGENTS["random"]() for _ in range(players)]
        while (decision := state.decision()) is not None:
            yield state, decision
            state.apply(agents[decision.seat](state.observation(decision.seat), decision, rng))


@pytest.mark.parametrize("variant", [None, "advanced"])
@pytest.mark.parametrize("players", [2, 5])
def test_a_seat_reaches_only_its_hand_and_the_table(variant: str | None, players: int) -> None:
    for state, decision in _games(variant, players, 3):
        private = {id(state), id(state.piles), id(state.influence), id(state.hands), *map(id, state.piles), *map(id, state.hands)}
        for seat in range(players):
            view = state.observation(seat)
            assert set(view.hand) == set(state.hands[seat])
            for root in [view] + ([decision] if decision.seat == seat else []):
                for path, obj in reachable(root, lambda o: isinstance(o, Pack)):
                    assert id(obj) not in private, (seat, path)
                    assert not isinstance(obj, (list, dict, set)), (seat, path)  # nothing an agent could edit


@pytest.mark.parametrize("players", [3, 4])
def test_what_a_seat_has_not_seen_changes_nothing_it_sees(players: int) -> None:
    """Swap another seat's influence hand with cards of the pile, and shuffle
    both character piles: every other seat's observation and decision stay equal."""
    checked = 0
    for index, (state, decision) in enumerate(_games("advanced", players, 2)):
        if index % 3:
            continue
        twin = clone(state)
        other = (decision.seat + 1) % players
        hand, pile = twin.hands[other], twin.influence
        k = min(len(hand), len(pile))
        hand[:k], pile[-k:] = pile[-k:], hand[:k]
        for p in twin.piles:
            random.Random(index).shuffle(p)
        for seat in range(players):
            if seat != other:
                assert twin.observation(seat) == state.observation(seat)
        assert twin.decision() == decision or decision.seat == other
        checked += 1
    assert checked > 20


def test_an_agent_cannot_edit_its_view() -> None:
    state = RULES.new_state(pack(), 3, random.Random("edit"), {})
    view = state.observation(0)
    for edit in (lambda: setattr(view, "hand", ()), lambda: view.prestige.__setitem__(0, 99), lambda: view.societies[0].append(1)):
        with pytest.raises((AttributeError, TypeError)):
            edit()
    assert state.observation(0) == view

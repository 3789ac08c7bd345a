"""determinize for B04 (docs/engine.md, the search API): a whole new game
consistent with what one seat has seen, in which it is about to decide."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from pnp.engine.api import Decision
from pnp.testing import engine, game_folder

B04, GAME = engine(game_folder(__file__))
B04State = B04.state.B04State
AGENTS = B04.agents.AGENTS
DECK = B04.prepare(GAME, dict(GAME.engine.options))
determinize = B04.determinize


def positions(players: int, seed: int, agent: str = "random") -> Iterator[tuple[B04State, Any, Decision]]:
    """Every decision of a game, with the true state and the decider's observation."""
    rng = random.Random(seed)
    state = B04State(DECK, players, random.Random(seed))
    play = AGENTS[agent]()
    while (d := state.decision()) is not None:
        obs = state.observation(d.seat)
        yield state, obs, d
        state.apply(play(obs, d, rng))


def check_truth(state: B04State) -> None:
    """What each seat is told it knows is true of the table."""
    for a in range(state.n):
        for b in range(state.n):
            assert state.known[a][b] <= set(state.hands[b]), (a, b)
        assert state.lying[a] <= state.away and state.discarded[a] <= set(state.discards)


def check_legal(state: B04State) -> None:
    check_truth(state)
    assert sorted(state.all_cards()) == list(range(len(DECK.ids)))
    assert all(len(hand) == DECK.hand_size[state.n] for hand in state.hands)
    owners = [p for c in state.away for p in range(state.n) if c in state.hands[p]]
    assert len(owners) == len(state.away), "every card away belongs to one hand"


def play_out(state: B04State, rng: random.Random) -> None:
    """To the end with random agents, the engine checking every move."""
    agent = AGENTS["random"]()
    assert state.check_moves
    steps = 0
    while (d := state.decision()) is not None:
        for option in d.options:
            hash(option)
        state.apply(agent(state.observation(d.seat), d, rng))
        check_legal(state)
        steps += 1
        assert steps < 20_000
    state.outcome()


@pytest.mark.parametrize("players, agent", [(3, "random"), (4, "heuristic"), (5, "random"), (8, "heuristic")])
def test_the_seat_sees_the_same_and_is_about_to_make_the_same_decision(players: int, agent: str) -> None:
    kinds = set()
    for seed in range(4):
        for true, obs, d in positions(players, seed, agent):
            check_truth(true)
            kinds.add(d.kind)
            new = determinize(DECK, obs, d, random.Random(seed))
            got = new.decision()
            assert got is not None
            assert (got.seat, got.kind, dict(got.context), list(got.options)) == (d.seat, d.kind, dict(d.context), list(d.options))
            assert new.observation(d.seat) == obs
            # Whatever the seat knows the place of stays where it is.
            for p in range(players):
                assert obs.known[p] <= set(new.hands[p])
            assert obs.discarded <= set(new.discards) and new.hands[d.seat] == list(obs.hand)
            check_legal(new)
    assert kinds >= {"intention", "invitation", "sort", "proposal", "give", "draw", "reflect"}


@pytest.mark.parametrize("players", [3, 6])
def test_the_hidden_cards_vary_and_every_deal_plays_to_the_end(players: int) -> None:
    checked = 0
    for true, obs, d in positions(players, 7):
        if d.kind not in ("intention", "invitation", "sort", "draw") or true.round % 2:
            continue
        deals = set()
        for k in range(8):
            new = determinize(DECK, obs, d, random.Random(k))
            other = (d.seat + 1) % players
            deals.add((tuple(sorted(new.hands[other])), tuple(new.desires), tuple(new.draw_pile)))
            play_out(new, random.Random(k))
        assert len(deals) > 1, f"round {true.round} {d.kind}: the unseen cards never change"
        checked += 1
    assert checked > 5


def test_options_are_hashable_and_equal_across_deals() -> None:
    for true, obs, d in positions(5, 3, "heuristic"):
        first = None
        for k in range(3):
            got = determinize(DECK, obs, d, random.Random(k)).decision()
            assert got is not None
            options = list(got.options)
            assert len({hash(o) for o in options}) <= len(options)
            first = options if first is None else first
            assert options == first


def test_the_same_rng_gives_the_same_deal() -> None:
    for true, obs, d in positions(4, 5):
        one, two = (determinize(DECK, obs, d, random.Random(9)) for _ in range(2))
        assert (one.hands, one.desires, one.draw_pile, one.away) == (two.hands, two.desires, two.draw_pile, two.away)
        if true.round > 3:
            break

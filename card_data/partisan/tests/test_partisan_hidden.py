"""Partisan hidden information: from a seat's observation (and each decision
it is given) nothing reaches another seat's hand or the deck; every card it
can reach is in its own hand or face up on the table. Whole games, every
decision, every seat, every variant."""

from __future__ import annotations

import random
from typing import Any
from pathlib import Path

import pytest

from pnp.engine.plugins import engine_for
from pnp.loading.loader import load_game
from pnp.testing import reachable

GAME_DIR = Path(__file__).resolve().parents[1]
GAME = load_game(GAME_DIR)
RULES, OPTIONS = engine_for(GAME, trust=True)
Card = RULES.table.Card
Pack = RULES.table.Pack


@pytest.mark.parametrize("variant", [None, "leaders"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seat_reaches_only_its_hand_and_the_table(variant: str | None, players: int) -> None:
    pack = RULES.prepare(GAME, GAME.engine.options_for(variant))
    for seed in range(3):
        rng = random.Random(f"hidden:{seed}")
        state = RULES.new_state(pack, players, rng, {})
        agents = [RULES.AGENTS["random"]() for _ in range(players)]
        while (decision := state.decision()) is not None:
            for seat in range(players):
                public = {id(c) for c in state.table.topics} | {id(c) for c in state.table.discards}
                allowed = public | {id(c) for c in state.hands[seat]}
                private = {id(state.deck), id(state)} | {id(h) for s, h in enumerate(state.hands) if s != seat}
                roots = [state.observation(seat)] + ([decision] if decision.seat == seat else [])
                for root in roots:
                    # The pack is the printed deck in its printed order and the game's numbers: public.
                    for path, obj in reachable(root, lambda o: isinstance(o, Pack)):
                        assert id(obj) not in private, (seat, path)
                        if isinstance(obj, Card):
                            assert id(obj) in allowed, (seat, path, obj)
            state.apply(agents[decision.seat](state.observation(decision.seat), decision, rng))
        assert [c.index for c in pack.cards] == list(range(len(pack.cards)))  # never the shuffled order


def test_an_agent_that_edits_its_view_changes_nothing() -> None:
    """Every edit an agent might try on its view (set a field, change a count,
    a topic, its hand, the list of discards) raises, and the game plays out
    exactly as the heuristic's own, seed for seed."""
    from pnp.engine.api import agent_rngs, play

    pack = RULES.prepare(GAME, GAME.engine.options_for("leaders"))
    refused: list[bool] = []

    def tamperer(view: Any, decision: Any, rng: random.Random) -> Any:
        table = view.table
        card = view.pack.cards[0]
        edits = [
            lambda: setattr(view, "seat", 0), lambda: setattr(view, "hand", ()), lambda: setattr(table, "players", 9),
            lambda: setattr(table, "supply", (9,) * 6), lambda: setattr(table, "turn", 0),
            lambda: table.partisans[view.seat].__setitem__(0, 9), lambda: table.best.__setitem__(0, 9),
            lambda: table.topics.__setitem__(card, (9,) * 6), lambda: next(iter(table.topics.values()), ()).__setitem__(0, 9),
            lambda: table.won.append((0, view.seat)), lambda: table.picks.__setitem__(0, view.seat),
            lambda: view.hand.remove(view.hand[0]), lambda: table.discards.append(card),
        ]
        for edit in edits:
            try:
                edit()
                refused.append(False)
            except (TypeError, AttributeError):
                refused.append(True)
        return heuristic(view, decision, rng)

    heuristic = RULES.AGENTS["heuristic"]()
    for seed in range(3):
        games = []
        for agent in (tamperer, heuristic):
            state = RULES.new_state(pack, 4, random.Random(f"tamper:{seed}"), {})
            games.append(play(state, [agent] * 4, agent_rngs(f"tamper:{seed}", 4)))
        assert games[0] == games[1]
    assert len(refused) > 1000 and all(refused), f"{refused.count(False)} of {len(refused)} edits went through"

"""D01's determinize (the search API, docs/engine.md): a whole game consistent
with one seat's observation, about to ask that seat the same decision."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from pnp.engine.api import Decision, play
from pnp.testing import engine, game_folder

D01, GAME = engine(game_folder(__file__))
D01State = D01.state.D01State
Observation = D01.state.Observation
AGENTS = D01.agents.AGENTS
determinize = D01.determinize
PACKS = {
    "core": D01.prepare(GAME, dict(GAME.engine.options)),
    "shadows": D01.prepare(GAME, {**GAME.engine.options, "with_modules": True}),
}


def _decisions(pack: Any, games: int, agent: str, seed: int) -> Iterator[tuple[D01State, Observation, Decision]]:
    """Every decision of ``games`` games at 3 to 8 players, with the deciding seat's observation."""
    rng = random.Random(seed)
    agents = {p: [AGENTS[agent]() for _ in range(p)] for p in range(3, 9)}
    for g in range(games):
        players = 3 + g % 6
        state = D01State(pack, players, rng)
        while (d := state.decision()) is not None:
            obs = state.observation(d.seat)
            yield state, obs, d
            state.apply(agents[players][d.seat](obs, d, rng))


def _letters(state: D01State) -> list[int]:
    return sorted(state.all_letters())


@pytest.mark.parametrize("pack", sorted(PACKS))
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_the_seat_sees_the_same_and_is_asked_the_same(pack: str, agent: str) -> None:
    """Requirement 1, at every decision of whole games, every kind and stage."""
    kinds: set[tuple[str, str]] = set()
    for n, (state, obs, d) in enumerate(_decisions(PACKS[pack], 18, agent, 1)):
        new = determinize(PACKS[pack], obs, d, random.Random(n))
        nd = new.decision()
        assert nd is not None and (nd.seat, nd.kind, dict(nd.context)) == (d.seat, d.kind, dict(d.context))
        assert list(nd.options) == list(d.options)
        assert new.observation(d.seat) == obs, f"{d.kind} at {obs.stage}"
        assert _letters(new) == list(range(len(PACKS[pack].letters))), "a letter was lost or doubled"
        kinds.add((obs.stage, d.kind))
    assert {("morning", "morning"), ("reveal", "keep"), ("evening", "ring"), ("evening", "letter"),
            ("evening", "scorned"), ("evening", "keep"), ("matrimony", "gift")} <= kinds


def test_what_the_seat_knows_the_place_of_stays() -> None:
    pack = PACKS["shadows"]
    for n, (state, obs, d) in enumerate(_decisions(pack, 12, "random", 2)):
        new = determinize(pack, obs, d, random.Random(n))
        me = d.seat
        assert new.hands[me] == state.hands[me] and new.discards == state.discards
        assert all(c in new.hands[h] for c, h in obs.places.items())
        assert new.deck[len(new.deck) - len(obs.deck_seen):] == state.deck[len(state.deck) - len(obs.deck_seen):]
        assert [c for *_, c in obs.post if c >= 0] == [c for (r, s, c) in new._letters if s == me or (r == me and obs.stage == "evening")]
        assert new.desires[me] is state.desires[me] and all(new.desires[t] is w for t, w in obs.peeked_desires.items())
        assert [sorted(new.owner[c] for c in h) for h in new.hands] == [sorted(state.owner[c] for c in h) for h in state.hands]


def test_the_hidden_parts_vary_and_every_deal_plays_to_the_end() -> None:
    """Requirement 2: random and heuristic agents, the engine checking every move."""
    rnd = AGENTS["random"]()
    for pack in PACKS.values():
        for n, (state, obs, d) in enumerate(_decisions(pack, 6, "heuristic", 3)):
            if n % 7:
                continue
            deals = {(tuple(map(tuple, new.hands)), tuple(new.deck), tuple(map(id, new.desires)))
                     for new in (determinize(pack, obs, d, random.Random(f"{n}:{k}")) for k in range(6))}
            hidden = sum(map(len, state.hands)) - len(state.hands[d.seat]) + len(state.deck)
            assert len(deals) > 1 or hidden <= len(obs.places) + len(obs.deck_seen) + 1, f"{d.kind} at {obs.stage}: one deal"
            for agent in (rnd, AGENTS["heuristic"]()):  # the heuristic reads what each seat knows
                new = determinize(pack, obs, d, random.Random(n))
                assert new.check_moves
                outcome = play(new, [agent] * state.n, [random.Random(n)] * state.n)
                assert len(outcome.winners) == state.n and new.is_terminal()


def test_options_are_hashable_and_equal_across_deals() -> None:
    """Requirement 3: the search tree keys moves by the options."""
    pack = PACKS["shadows"]
    for n, (_, obs, d) in enumerate(_decisions(pack, 12, "random", 4)):
        seen = [list(determinize(pack, obs, d, random.Random(f"{n}:{k}")).decision().options) for k in range(3)]  # type: ignore[union-attr]
        assert seen[0] == seen[1] == seen[2]
        assert len({hash(o) for o in seen[0]}) >= 1 and all(hash(o) == hash(p) for o, p in zip(seen[0], seen[1]))


def test_the_same_rng_gives_the_same_deal() -> None:
    pack = PACKS["core"]
    for n, (_, obs, d) in enumerate(_decisions(pack, 3, "random", 5)):
        a, b = determinize(pack, obs, d, random.Random(n)), determinize(pack, obs, d, random.Random(n))
        assert (a.hands, a.deck, a.desires) == (b.hands, b.deck, b.desires)

"""What the D01 table keeps up to date instead of working out per decision
(issue 40, speed) equals what working it out afresh gives: the morning
options (offered lazily), the backs of every hand, and every seat's whole
observation with its shared public part, at every decision of whole games,
every player count, with every module's letters in play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnp.engine.api import agent_rngs
from pnp.testing import engine, game_folder

D01, GAME = engine(game_folder(__file__))
D01State = D01.state.D01State
MorningOptions = D01.views.MorningOptions
Observation = D01.views.Observation
Public = D01.views.Public
AGENTS = D01.agents.AGENTS
PACK = D01.prepare(GAME, {**GAME.engine.options, "with_modules": True})


def eager_morning(state: Any, seat: int) -> list[tuple[Any, ...]]:
    """The morning options built in full, as the engine built them before issue 40."""
    hand = state.hands[seat]
    suitors = [p for p in range(state.n) if p != seat]
    options: list[tuple[Any, ...]] = [("write", t, c) for c in hand for t in suitors]
    if state.received[seat] and state.deck:
        options += [("reflect", g) for g in sorted(set(state.received[seat]))]
    if state.fiance[seat] < 0 and state.ring[seat] == seat:
        options += [("propose", t) for t in suitors]
    if state.fiance[seat] >= 0:
        options.append(("break",))
    for c in hand:
        for power in state._powers(c, "owner-morning" if state.owner[c] == seat else "holder-morning"):
            if state._usable(seat, c, power):
                options.append(("power", c))
    return options or [("rest",)]


def backs_afresh(state: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(state.owner[c] for c in hand)) for hand in state.hands)


def observation_afresh(state: Any, seat: int) -> dict[str, Any]:
    """``seat``'s observation worked out from the table's own records, no kept
    view used: every field by name but ``post_seen`` (it may keep letters
    answered since), and ``post``, which it serves."""
    public = Public(
        tuple(state.supply), tuple(tuple(r) for r in state.received), tuple(state.fiance),
        tuple(state.ring[p] == p for p in range(state.n)), tuple(state.discards),
        tuple(state._rings), tuple(state._later), tuple(state._scorned),
    )
    post = tuple((r, s, state.owner[c], c if s == seat or (r == seat and state._opened) else -1) for r, s, c in state._letters)
    return dict(
        seat=seat, players=state.n, day=state.day, stage=state.stage, deck_left=len(state.deck), hand=tuple(state.hands[seat]),
        desires=state.desires[seat], known=dict(state._known[seat]), owners=dict(state._owners[seat]),
        seen_suits=state._seen_suits[seat], peeked_desires=dict(state._peeked[seat]), deck_seen=state._deck_seen[seat],
        public=public, backs=backs_afresh(state), posted=tuple((r, s, seal) for r, s, seal, _ in post), post=post,
        places=dict(state._places[seat]), commits=tuple(c for c, s in state.committed.items() if s == seat), notes=state._notes[seat],
    )


def games(players: int, agent: str, count: int) -> Any:
    """Every decision of ``count`` seeded games: (state, decision) before it is answered."""
    for g in range(count):
        seed = f"kept:{players}:{agent}:{g}"
        state = D01State(PACK, players, random.Random(seed))
        agents = [AGENTS[agent]() for _ in range(players)]
        rngs = agent_rngs(seed, players)
        while (decision := state.decision()) is not None:
            yield state, decision
            state.apply(agents[decision.seat](state.observation(decision.seat), decision, rngs[decision.seat]))


@pytest.mark.parametrize("players", [3, 4, 6, 8])
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_observation_backs_are_kept_up_to_date(players: int, agent: str) -> None:
    for state, decision in games(players, agent, 15):
        assert state.observation(decision.seat).backs == backs_afresh(state), (decision.kind, state.day)


@pytest.mark.parametrize("players", [3, 4, 6, 8])
@pytest.mark.parametrize("agent", ["random", "heuristic", "plain"])
def test_every_observation_equals_one_built_afresh(players: int, agent: str) -> None:
    """Every seat's observation, at every decision, equals the one worked out
    from the table's records, and every seat shares one public part: kept
    views (known letters, places, the public part renewed a part at a time)
    give a seat nothing more, nothing less and nothing stale."""
    for state, decision in games(players, agent, 15):
        seen = [state.observation(seat) for seat in range(players)]
        for seat, obs in enumerate(seen):
            afresh = observation_afresh(state, seat)
            assert set(afresh) == set(Observation._fields) - {"post_seen"} | {"post"}
            for name, fresh in afresh.items():
                assert getattr(obs, name) == fresh, (name, seat, decision.kind, state.day)
        assert all(obs.public is seen[0].public for obs in seen), "one public part, shared"


@pytest.mark.parametrize("players", [3, 4, 6, 8])
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_lazy_morning_options_are_the_full_list(players: int, agent: str) -> None:
    powers = 0
    for state, decision in games(players, agent, 15):
        if decision.kind != "morning":
            continue
        options, full = decision.options, eager_morning(state, decision.seat)
        assert isinstance(options, MorningOptions)
        assert list(options) == full and len(options) == len(full)
        assert [options[i] for i in range(-len(full), len(full))] == full + full
        assert options[1:3] == full[1:3]
        assert all(o in options for o in full)
        assert ("power", -1) not in options and ("write", decision.seat, state.hands[decision.seat][0]) not in options
        powers += any(o[0] == "power" for o in full)
    assert powers, "some morning offers a power"


def test_morning_options_without_anything_else_offer_rest() -> None:
    options = D01.views.morning_options((), (1, 2), (), False, False, ())
    assert list(options) == [("rest",)] and len(options) == 1 and ("rest",) in options and options[0] == ("rest",)
    with pytest.raises(IndexError):
        options[1]
    some = D01.views.morning_options((5,), (1, 2), (), False, False, ())
    assert ("rest",) not in some and list(some) == [("write", 1, 5), ("write", 2, 5)]
    assert some == D01.views.morning_options((5,), (1, 2), (), False, False, ()) and hash(some) == hash(D01.views.morning_options((5,), (1, 2), (), False, False, ()))
    with pytest.raises(AttributeError):
        some.hand = ()  # type: ignore[misc]


def test_the_table_keeps_every_attribute_in_a_slot() -> None:
    """Some sixty attributes, read at every step: each in a slot (a plain
    load), none in the instance dict (past CPython's 30 shared keys every
    attribute read goes through a dict). An attribute added without a slot fails here."""
    for state, _ in games(4, "heuristic", 1):
        assert vars(state) == {}, sorted(vars(state))


def test_a_clone_of_a_slotted_table_plays_on_alike() -> None:
    """``pnp.engine.api.clone`` (deepcopy) copies the slots: at every 50th
    decision of a game the clone sees what the table sees, and two clones
    played on alike end alike."""
    from pnp.engine.api import clone

    for step, (state, decision) in enumerate(games(4, "heuristic", 1)):
        if step % 50:
            continue
        one, two = clone(state), clone(state)
        assert one.observation(decision.seat) == state.observation(decision.seat)
        ends = [table.play_out([AGENTS["heuristic"]() for _ in range(4)], agent_rngs("twin", 4)) for table in (one, two)]
        assert ends[0] == ends[1] and one.hands == two.hands and one.day == two.day

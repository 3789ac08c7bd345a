"""Rules read as printed (issue 36): hearts break ties, a heart or ring
returned in the morning fills a letterbox, the backs of hands are public,
a letterbox is resolved with all its items in view; and the usage report."""

from __future__ import annotations

import random

from pnp.engine.api import play
from pnp.testing import engine, game_folder

D01, GAME = engine(game_folder(__file__))
D01State = D01.state.D01State
AtMatrimony = D01.state.AtMatrimony
score_players = D01.state.score_players
AGENTS = D01.agents.AGENTS
PACK = D01.prepare(GAME, dict(GAME.engine.options))
SHADOWS = D01.prepare(GAME, {**GAME.engine.options, "with_modules": True})


def _mornings(state: D01State, choices: dict[int, tuple[object, ...]]) -> None:
    for _ in range(state.n):
        d = state.decision()
        assert d is not None and d.kind == "morning"
        state.apply(choices[d.seat])


def test_hearts_break_a_tie_on_points() -> None:
    """"Hearts ... also break ties": 3 points from a victory lose to 3 points with more hearts."""
    hearts = next(d for d in PACK.desires if d.condition["type"] == "hearts" and int(d.condition["count"]) > 3)
    none = next(d for d in PACK.desires if d.condition["type"] == "no-suit")
    scores = score_players(PACK, [AtMatrimony(none, (), 0), AtMatrimony(hearts, (), 3), AtMatrimony(hearts, (), 1)])
    assert [s.points for s in scores] == [3, 3, 1]
    assert [s.wins for s in scores] == [False, True, False]
    level = score_players(PACK, [AtMatrimony(hearts, (), 2), AtMatrimony(hearts, (), 2)])
    assert [s.wins for s in level] == [True, True], "level on points and hearts: they share"


def test_a_heart_returned_in_the_morning_fills_the_letterbox() -> None:
    """Reflection returns the heart to its owner's letterbox: that owner is not scorned."""
    state = D01State(PACK, 3, random.Random(6))
    state.received[0] = [2]
    state.supply[2] = 2
    _mornings(state, {0: ("reflect", 2), 1: ("write", 0, state.hands[1][0]), 2: ("write", 1, state.hands[2][0])})
    asked = []
    while (d := state.decision()) is not None and state.day == 1:
        asked.append((d.seat, d.kind))
        state.apply(d.options[-1])
    assert (2, "scorned") not in asked and not any(kind == "scorned" for _, kind in asked)


def test_a_ring_returned_in_the_morning_fills_the_letterbox() -> None:
    """Breaking off returns the fiance's ring to the fiance's letterbox."""
    state = D01State(PACK, 3, random.Random(5))
    state._engage(0, 1)
    state._queue.clear()
    state._steps = [state._start_day]
    _mornings(state, {0: ("break",), 1: ("write", 2, state.hands[1][0]), 2: ("write", 0, state.hands[2][0])})
    state.decision()
    assert state._scorned == [] and state.observation(1).scorned == ()


def test_every_seat_sees_the_backs_of_every_hand() -> None:
    """Hand sizes and the seals on the backs are public."""
    state = D01State(PACK, 4, random.Random(3))
    for _ in range(12):
        d = state.decision()
        assert d is not None
        for seat in range(4):
            obs = state.observation(seat)
            assert obs.backs == tuple(tuple(sorted(state.owner[c] for c in hand)) for hand in state.hands)
        state.apply(d.options[0])


def test_a_letterbox_is_opened_whole() -> None:
    """Two letters on one letterbox: both are in view before either is answered."""
    state = D01State(PACK, 3, random.Random(4))
    a, b = state.hands[1][0], state.hands[2][0]
    _mornings(state, {0: ("write", 1, state.hands[0][0]), 1: ("write", 0, a), 2: ("write", 0, b)})
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (0, "letter")
    obs = state.observation(0)
    assert a in obs.known and b in obs.known
    assert {c for r, _, _, c in obs.post if r == 0} == {a, b}


def test_rings_on_one_letterbox_are_answered_together() -> None:
    """Two rings on one letterbox: the recipient chooses which to accept, seeing both."""
    state = D01State(PACK, 3, random.Random(2))
    _mornings(state, {0: ("write", 1, state.hands[0][0]), 1: ("propose", 0), 2: ("propose", 0)})
    d = state.decision()
    assert d is not None and (d.seat, d.kind, d.context["from"]) == (0, "ring", (1, 2))
    assert set(d.options) == {"reject", ("accept", 1), ("accept", 2)}
    state.apply(("accept", 2))
    assert state.fiance == [2, -1, 0] and state.ring[1] == 1


def test_usable_names_every_power_and_games_count_them() -> None:
    usable = D01.usable(SHADOWS)
    assert set(usable["actions"]) == {"write", "reflect", "propose", "break", "power"}
    assert {"well-read", "influential", "moneyed", "constant", "jealous"} <= set(usable["powers"])
    assert "influential" not in set(usable["powers"]) - {L.id for L in SHADOWS.letters if L.powers}
    used: dict[str, int] = {}
    rnd = AGENTS["random"]()
    for g in range(40):
        state = D01State(SHADOWS, 6, random.Random(g))
        outcome = play(state, [rnd] * 6, [random.Random(g)] * 6)
        assert set(outcome.powers) <= set(usable["powers"]) and set(outcome.actions) <= set(usable["actions"])
        for name, count in outcome.powers.items():
            used[name] = used.get(name, 0) + count
    assert len(used) >= len(usable["powers"]) - 2, f"never used: {set(usable['powers']) - set(used)}"

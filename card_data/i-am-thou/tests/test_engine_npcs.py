"""One test per NPC effect, from the rules' own words: what it does, when it
takes hold, its limits, and who is told. Each fails if the effect changes."""

from __future__ import annotations

import pytest
from thou_engine_kit import T, kinds, new_game, play_round

from pnp.engine.api import IllegalMove

P1, P2 = T.PLAYER + 1, T.PLAYER + 2


def told(state, seat):  # type: ignore[no-untyped-def]
    return [entry[1:] for entry in state.mines[seat].told]


def test_fool_option_one_triggers_another_npc_not_twice_in_a_row() -> None:
    st = new_game()
    asked = play_round(st, {0: [T.FOOL]}, {(0, "fool"): [T.SUN], (0, "sun"): [T.MOON]})
    assert T.FOOL not in next(d for d in asked if d.kind == "fool").options
    assert (st.points[0][T.FOOL], st.points[0][T.SUN], st.points[0][T.MOON]) == (1, 0, 1)
    assert kinds(play_round(st, {0: [T.FOOL]}), 0) == []  # not in consecutive rounds
    assert kinds(play_round(st, {0: [T.FOOL]}, {(0, "fool"): [T.HIEROPHANT], (0, "hierophant"): [T.SUN]}), 0) == ["fool", "hierophant"]


def test_fool_option_two_makes_every_fool_point_two_random_points() -> None:
    for seed in range(6):
        st = new_game(seed=seed, fool=2)
        st.mines[0].strength = True  # two Fool points this round
        assert kinds(play_round(st, {0: [T.FOOL]}), 0) == []
        (got,) = [e[1:] for e in told(st, 0) if e[0] == "fool"]
        assert len(got) == 4 and sum(st.points[0]) == 4
        assert st.points[0] == [got.count(x) for x in range(T.NPCS)] == st.mines[0].known


def test_magician_moves_a_point_in_and_a_point_out() -> None:
    st = new_game()
    play_round(st, {0: [T.SUN]}, {(0, "sun"): [T.SUN]})
    asked = play_round(st, {0: [T.MAGICIAN]}, {(0, "magician-in"): [T.SUN], (0, "magician-out"): [T.MOON]})
    assert tuple(next(d for d in asked if d.kind == "magician-in").options) == (T.SKIP, T.SUN)  # only a point it has
    assert (st.points[0][T.SUN], st.points[0][T.MAGICIAN], st.points[0][T.MOON]) == (1, 1, 1)


def test_high_priestess_voids_the_target_s_points_next_round_and_tells_nobody() -> None:
    st = new_game()
    play_round(st, {0: [T.HIGH_PRIESTESS]}, {(0, "high-priestess"): [(1, T.STAR)]})
    play_round(st, {1: [T.STAR]}, {(1, "star"): [(2, T.SUN)]})
    assert st.points[1][T.STAR] == 0 and st.mines[1].known[T.STAR] == 1
    assert told(st, 1) == [] and told(st, 2) == []
    play_round(st, {1: [T.STAR]}, {(1, "star"): [(2, T.SUN)]})
    assert st.points[1][T.STAR] == 1  # only the round after


def test_empress_gives_a_visit_after_three_rounds_in_a_row_on_a_multiple_of_three() -> None:
    st = new_game()
    play_round(st, {0: [T.EMPRESS, T.EMPRESS], 1: [T.EMPRESS]})
    play_round(st, {0: [T.EMPRESS], 1: [T.CHARIOT], 2: [T.EMPRESS]})
    play_round(st, {0: [T.EMPRESS], 1: [T.EMPRESS], 2: [T.EMPRESS]})
    assert [m.actions for m in st.mines] == [4, 3, 3]  # one visit, however many Empress visits
    play_round(st, {0: [T.CHARIOT] * 4, 2: [T.EMPRESS]})
    assert st.history[-1][0] == (T.CHARIOT,) * 4 and [m.actions for m in st.mines] == [3, 3, 3]  # round 4: not a multiple of three


def test_emperor_immunity_is_public_and_makes_negative_effects_illegal() -> None:
    st = new_game()
    play_round(st, {0: [T.EMPEROR]}, {(0, "emperor"): [1]})
    assert all(st.observation(s).immune == {1} for s in range(3))
    for npc, kind in ((T.JUSTICE, "justice"), (T.MOON, "moon"), (T.HIGH_PRIESTESS, "high-priestess"), (T.STAR, "star"), (T.DEVIL, "devil")):
        probe = new_game()
        probe.mines[2].known[T.SUN] = probe.points[2][T.SUN] = 1
        play_round(probe, {0: [T.EMPEROR]}, {(0, "emperor"): [1]})
        while (d := probe.decision()).kind == "visit":
            probe.apply(npc if d.seat == 2 and not probe.mines[2].picks else T.STOP)
        assert d.kind == kind and {o if isinstance(o, int) else o[0] for o in d.options} == {0}
        with pytest.raises(IllegalMove):
            probe.apply(1 if kind == "moon" else (1, T.SUN))
    play_round(st, {})
    assert st.observation(0).immune == frozenset()  # next round only


def test_hierophant_adds_a_hidden_point_for_every_visitor_next_round() -> None:
    st = new_game()
    play_round(st, {0: [T.HIEROPHANT]}, {(0, "hierophant"): [T.HERMIT]})
    play_round(st, {1: [T.HERMIT], 2: [T.HERMIT, T.HERMIT]})
    assert (st.points[1][T.HERMIT], st.points[2][T.HERMIT]) == (2, 4)
    assert (st.mines[1].known[T.HERMIT], st.mines[2].known[T.HERMIT]) == (1, 2)  # not revealed
    play_round(st, {1: [T.HERMIT]})
    assert st.points[1][T.HERMIT] == 3


def test_lovers_who_choose_each_other_both_gain_a_visit() -> None:
    st = new_game()
    play_round(st, {s: [T.LOVERS] for s in range(3)}, {(0, "lovers"): [1], (1, "lovers"): [0], (2, "lovers"): [0]})
    assert [m.actions for m in st.mines] == [4, 4, 3]


def test_chariot_adds_a_point_on_each_npc_shared_with_another_player_once() -> None:
    st = new_game()
    play_round(st, {0: [T.CHARIOT, T.CHARIOT, T.HERMIT], 1: [T.HERMIT]})
    assert (st.points[0][T.HERMIT], st.points[0][T.CHARIOT], st.points[1][T.HERMIT]) == (2, 2, 1)


def test_justice_bars_an_npc_next_round_and_the_target_is_told() -> None:
    st = new_game()
    play_round(st, {0: [T.JUSTICE]}, {(0, "justice"): [(1, T.SUN)]})
    assert told(st, 1) == [("justice", T.SUN)]
    while (d := st.decision()).seat != 1:
        st.apply(T.STOP)
    assert T.SUN not in d.options and T.MOON in d.options
    with pytest.raises(IllegalMove):
        st.apply(T.SUN)
    play_round(st, {})
    play_round(st, {1: [T.SUN]}, {(1, "sun"): [T.SUN]})  # the round after next: free again


def test_hermit_gives_a_visit_when_no_player_visits_you() -> None:
    st = new_game()
    play_round(st, {0: [T.HERMIT, T.HERMIT], 2: [T.HERMIT], 1: [P2]})
    assert [m.actions for m in st.mines] == [4, 3, 3]  # seat 2 was visited by seat 1


def test_wheel_of_fortune_doubles_each_visit_by_chance_and_tells_when() -> None:
    outcomes = set()
    for seed in range(12):
        st = new_game(seed=seed)
        play_round(st, {0: [T.WHEEL]})
        play_round(st, {0: [T.HERMIT, T.EMPRESS, T.CHARIOT]})
        lucky = {e[1] for e in told(st, 0) if e[0] == "wheel"}
        for x in (T.HERMIT, T.EMPRESS, T.CHARIOT):
            assert st.points[0][x] == (2 if x in lucky else 1)
            outcomes.add(st.points[0][x])
    assert outcomes == {1, 2}


def test_strength_adds_a_point_a_visit_next_round_not_in_consecutive_rounds() -> None:
    st = new_game()
    play_round(st, {0: [T.STRENGTH]})
    play_round(st, {0: [T.HERMIT, T.STRENGTH]})
    assert (st.points[0][T.HERMIT], st.points[0][T.STRENGTH]) == (2, 3)
    play_round(st, {0: [T.HERMIT]})
    assert st.points[0][T.HERMIT] == 3  # the second Strength did not count


def test_hanged_man_loses_a_point_of_last_round_for_its_effect() -> None:
    st = new_game()
    play_round(st, {0: [T.HIEROPHANT, T.HERMIT]}, {(0, "hierophant"): [T.MOON]})
    asked = play_round(st, {0: [T.HANGED_MAN]}, {(0, "hanged-man"): [T.HIEROPHANT], (0, "hierophant"): [T.SUN]})
    assert set(next(d for d in asked if d.kind == "hanged-man").options) == {T.HIEROPHANT, T.HERMIT}
    assert st.points[0][T.HIEROPHANT] == 0 and st.mines[0].hierophant == [T.SUN]  # its effect, for the round now begun


def test_death_doubles_next_round_s_points_and_triggers_no_effect() -> None:
    st = new_game()
    play_round(st, {0: [T.DEATH]})
    assert kinds(play_round(st, {0: [T.SUN, T.MOON]}), 0) == []
    assert (st.points[0][T.SUN], st.points[0][T.MOON]) == (2, 2)
    assert kinds(play_round(st, {0: [T.SUN]}, {(0, "sun"): [T.SUN]}), 0) == ["sun"]


def test_temperance_sells_points_for_one_then_two_then_three_garnets() -> None:
    st = new_game(garnets=3)
    play_round(st, {0: [T.TEMPERANCE]}, {(0, "temperance"): [T.SUN]})
    assert (st.mines[0].thirds, st.points[0][T.SUN]) == (6, 1)
    play_round(st, {0: [T.TEMPERANCE]}, {(0, "temperance"): [T.SUN]})
    assert (st.mines[0].thirds, st.points[0][T.SUN]) == (0, 2)
    assert kinds(play_round(st, {0: [T.TEMPERANCE]}), 0) == []  # three Garnets: cannot pay


def test_devil_costs_both_a_point_and_never_takes_anyone_below_zero() -> None:
    st = new_game()
    play_round(st, {0: [T.SUN], 1: [T.SUN]}, {(0, "sun"): [T.SUN], (1, "sun"): [T.MOON]})
    asked = play_round(st, {0: [T.DEVIL]}, {(0, "devil"): [(1, T.SUN)]})
    assert set(next(d for d in asked if d.kind == "devil").options.parts[1]) == {T.SUN, T.DEVIL}  # only its own points
    assert (st.points[0][T.SUN], st.points[1][T.SUN]) == (1, 0)
    assert told(st, 1) == [("devil", T.SUN, 0)]
    play_round(st, {0: [T.DEVIL]}, {(0, "devil"): [(1, T.SUN)]})
    assert (st.points[0][T.SUN], st.points[1][T.SUN], st.mines[1].known[T.SUN]) == (0, 0, 0)  # never below zero


def test_tower_takes_a_visit_after_three_rounds_in_a_row_and_the_target_is_told() -> None:
    st = new_game()
    assert kinds(play_round(st, {0: [T.TOWER]}), 0) == []
    play_round(st, {0: [T.TOWER]})
    play_round(st, {0: [T.TOWER]}, {(0, "tower"): [1]})
    assert [m.actions for m in st.mines] == [3, 2, 3] and told(st, 1) == [("tower", 0)]


def test_star_takes_the_target_s_points_and_two_stars_void_them() -> None:
    st = new_game()
    play_round(st, {0: [T.STAR]}, {(0, "star"): [(1, T.HERMIT)]})
    play_round(st, {1: [T.HERMIT]})
    assert (st.points[0][T.HERMIT], st.points[1][T.HERMIT], st.mines[1].known[T.HERMIT]) == (1, 0, 1)
    assert told(st, 1) == [] and told(st, 0) == [("star", 1, T.HERMIT, 1)]
    st = new_game()
    play_round(st, {0: [T.STAR], 2: [T.STAR]}, {(0, "star"): [(1, T.HERMIT)], (2, "star"): [(1, T.HERMIT)]})
    play_round(st, {1: [T.HERMIT]})
    assert [p[T.HERMIT] for p in st.points] == [0, 0, 0]


def test_moon_bars_visits_to_a_player_next_round_publicly() -> None:
    st = new_game()
    play_round(st, {0: [T.MOON]}, {(0, "moon"): [1]})
    assert all(st.observation(s).moon == {1} for s in range(3))
    assert P1 not in st.decision().options and P2 in st.decision().options


def test_sun_gives_a_point_once_a_round_not_in_consecutive_rounds() -> None:
    st = new_game()
    assert kinds(play_round(st, {0: [T.SUN, T.SUN]}, {(0, "sun"): [T.MOON]}), 0) == ["sun"]
    assert (st.points[0][T.SUN], st.points[0][T.MOON]) == (2, 1)
    assert kinds(play_round(st, {0: [T.SUN]}), 0) == []
    assert kinds(play_round(st, {0: [T.SUN]}, {(0, "sun"): [T.MOON]}), 0) == ["sun"]


def test_judgement_redistributes_four_fifths_rounded_down() -> None:
    st = new_game()
    st.points[0][T.HERMIT] = st.mines[0].known[T.HERMIT] = 5
    asked = play_round(st, {0: [T.JUDGEMENT]}, {(0, "judgement"): [T.HERMIT], (0, "judgement-point"): [T.MOON, T.MOON, T.SUN, T.HERMIT]})
    assert kinds(asked, 0).count("judgement-point") == 4
    assert (st.points[0][T.HERMIT], st.points[0][T.MOON], st.points[0][T.SUN]) == (1, 2, 1)
    assert told(st, 0) == [("judgement", T.HERMIT, 4)]


def test_world_gives_five_points_a_visit_only_to_a_lone_visitor() -> None:
    st = new_game()
    play_round(st, {0: [T.WORLD], 1: [T.WORLD]}, {(0, "world"): [T.HERMIT], (1, "world"): [T.EMPRESS]})
    assert all(st.observation(s).worlds == ((0, T.HERMIT), (1, T.EMPRESS)) for s in range(3))
    play_round(st, {0: [T.HERMIT], 1: [T.EMPRESS], 2: [T.EMPRESS]})
    assert (st.points[0][T.HERMIT], st.points[1][T.EMPRESS]) == (5, 1)

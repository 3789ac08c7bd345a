"""One test per suit ability (passive and interaction), the bonus time of a
returned visit, and the clarifications on points (never below zero, no
willing loss of a point one does not have)."""

from __future__ import annotations

import pytest
from thou_engine_kit import T, kinds, new_game, play_round

from pnp.engine.api import IllegalMove

P0, P1, P2 = T.PLAYER, T.PLAYER + 1, T.PLAYER + 2


def test_wands_passive_a_fourth_visit_when_three_are_on_one_target() -> None:
    st = new_game(("wands", "coins", "coins"))
    play_round(st, {0: [T.HERMIT, T.CHARIOT, T.HERMIT, T.HERMIT]})
    assert st.history[-1][0] == (T.HERMIT, T.CHARIOT, T.HERMIT, T.HERMIT) and st.points[0][T.HERMIT] == 3
    st = new_game(("wands", "coins", "coins"))
    st.apply(T.HERMIT), st.apply(T.CHARIOT), st.apply(T.EMPRESS)
    assert st.decision().seat == 1  # no three on one target: no fourth visit
    st = new_game(("wands", "coins", "coins"))
    for x in (T.HERMIT, T.HERMIT, T.CHARIOT):
        st.apply(x)
    assert set(st.decision().options) == {T.HERMIT, T.STOP}  # the fourth must make the three
    with pytest.raises(IllegalMove):
        st.apply(T.CHARIOT)


def test_wands_interaction_watches_a_player_and_an_npc_next_round() -> None:
    st = new_game(("wands", "coins", "coins"))
    asked = play_round(st, {0: [P1]}, {(0, "wands"): [(2, T.HERMIT)], (1, "wands"): [(0, T.CHARIOT)]})
    assert kinds(asked, 0) == kinds(asked, 1) == ["wands"]  # both receive both abilities
    assert [m.thirds for m in st.mines] == [1, 1, 0]
    play_round(st, {0: [T.CHARIOT], 2: [T.HERMIT, T.HERMIT]})
    assert (st.points[0][T.HERMIT], st.points[1][T.CHARIOT]) == (1, 1)  # once, however many visits
    play_round(st, {2: [T.HERMIT]})
    assert st.points[0][T.HERMIT] == 1  # for the next round only


def test_coins_passive_buys_a_visit_for_six_garnets_once_a_round() -> None:
    st = new_game(("coins", "cups", "cups"), garnets=12)
    assert st.decision().kind == "buy"
    st.apply(True)
    play_round(st, {0: [T.HERMIT] * 4})
    assert len(st.history[-1][0]) == 4 and st.mines[0].thirds == 18
    asked = play_round(st, {0: [T.HERMIT] * 4}, {(0, "buy"): [True]})
    assert kinds(asked, 0)[:1] == ["buy"] and st.mines[0].thirds == 0
    assert kinds(play_round(st, {}), 0) == []  # six Garnets no more: not asked


def test_coins_passive_at_most_six_times_a_game() -> None:
    st = new_game(("coins", "cups", "cups"), garnets=60)
    for _ in range(6):
        play_round(st, {}, {(0, "buy"): [True]})
    assert st.mines[0].coins_used == 6 and kinds(play_round(st, {}), 0) == []


def test_coins_interaction_earns_a_third_and_a_returned_visit_triples_it() -> None:
    st = new_game(("coins", "coins", "cups"))
    play_round(st, {0: [P1], 1: [P0]})
    assert [m.thirds for m in st.mines] == [6, 6, 0]  # two Coins abilities, three times each
    st = new_game(("coins", "cups", "cups"))
    asked = play_round(st, {0: [P1], 1: [P0]})
    assert st.mines[0].thirds == st.mines[1].thirds == 3
    assert kinds(asked, 0) == kinds(asked, 1) == []  # no point to gift: Cups' gift not asked


def test_cups_passive_a_point_more_for_two_visits_to_one_npc() -> None:
    st = new_game(("cups", "coins", "coins"))
    play_round(st, {0: [T.HERMIT, T.HERMIT, T.EMPRESS], 1: [T.HERMIT, T.HERMIT]})
    assert (st.points[0][T.HERMIT], st.points[0][T.EMPRESS], st.points[1][T.HERMIT]) == (3, 1, 2)


def test_cups_interaction_gifts_one_of_your_points_and_the_player_is_told() -> None:
    st = new_game(("cups", "coins", "coins"))
    asked = play_round(st, {0: [P1, T.HERMIT]}, {(0, "cups"): [(1, T.HERMIT)]})
    gift = next(d for d in asked if d.kind == "cups")
    assert set(gift.options) == {T.SKIP, (1, T.HERMIT), (2, T.HERMIT)}  # only a point it has
    assert (st.points[0][T.HERMIT], st.points[1][T.HERMIT]) == (0, 1)
    assert [e[1:] for e in st.mines[1].told] == [("cups", T.HERMIT, 0)]


def test_swords_passive_a_point_then_two_rounds_away() -> None:
    st = new_game(("swords", "coins", "coins"))
    play_round(st, {}, {(0, "sword point"): [T.HERMIT]})
    assert st.points[0][T.HERMIT] == 1
    for _ in range(2):
        assert T.HERMIT not in st.decision().options
        play_round(st, {})
    assert T.HERMIT in st.decision().options


def test_swords_interaction_chosen_next_round_blocks_the_round_after_and_says_who() -> None:
    st = new_game(("swords", "coins", "coins"))
    assert kinds(play_round(st, {0: [P1]}), 0) == ["sword point"]  # no block chosen this round
    asked = play_round(st, {}, {(0, "swords"): [2], (1, "swords"): [2]})
    assert kinds(asked, 0) == ["sword point", "swords"] and kinds(asked, 1) == ["swords"]
    assert [e[1:] for e in st.mines[2].told] == [("swords", 0), ("swords", 1)]
    while st.decision().seat != 2:
        st.apply(T.SKIP if st.decision().kind == "sword point" else T.STOP)
    assert not any(o >= T.PLAYER for o in st.decision().options)  # no player this round
    with pytest.raises(IllegalMove):
        st.apply(P0)
    play_round(st, {})
    while st.decision().seat != 2:
        st.apply(T.SKIP if st.decision().kind == "sword point" else T.STOP)
    assert P0 in st.decision().options  # one round only


def test_no_point_is_lost_below_zero_nor_given_away_without_having_it() -> None:
    st = new_game()
    st.lose(0, T.SUN)
    assert st.points[0][T.SUN] == 0 and st.mines[0].known[T.SUN] == 0
    asked = play_round(st, {0: [T.MAGICIAN, T.DEVIL]}, {(0, "devil"): [(1, T.MAGICIAN)]})
    assert tuple(next(d for d in asked if d.kind == "magician-in").options) == (T.SKIP, T.DEVIL)
    assert set(next(d for d in asked if d.kind == "devil").options.parts[1]) == {T.MAGICIAN, T.DEVIL}

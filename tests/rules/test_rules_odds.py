"""Known answers for the exact odds: hand-worked cases and brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.rules.odds import OddsCache, brute_force, probabilities, probability, profile


def test_a_case_worked_by_hand() -> None:
    # Deck: two cards +a, one card -a, one card +b. Desires: +a, +b; need 1.
    # 2-card hands (6 in all): a's total is > 0 unless the hand holds -a with
    # at most one +a... list them: {+a,+a'} a=2 hit; {+a,-a} a=0, b=0 miss;
    # {+a,+b} hit; {+a',-a} miss; {+a',+b} hit; {-a,+b} b=1 hit. 4 of 6.
    deck = [{"a": 1}, {"a": 1}, {"a": -1}, {"b": 1}]
    assert probability(deck, {"a": 1, "b": 1}, 2, 1) == Fraction(4, 6)
    # Needing both: only {+a,+b} and {+a',+b}: 2 of 6.
    assert probability(deck, {"a": 1, "b": 1}, 2, 2) == Fraction(2, 6)
    # A desired minus: -a matches only a negative total: {-a,+b}: 1 of 6.
    assert probability(deck, {"a": -1}, 2, 1) == Fraction(1, 6)


def test_a_goal_card_no_hand_can_satisfy() -> None:
    deck = [{"a": 1}, {"a": 1}, {"b": -1}]
    assert probability(deck, {"a": -1, "b": 1}, 2, 1) == 0


def test_matches_every_hand_listed_on_a_deck_like_b04() -> None:
    symbols = "abcde"
    deck = [
        dict(zip(triple, signs))
        for triple in itertools.combinations(symbols, 3)
        for signs in itertools.product((1, -1), repeat=3)
        if len(set(signs)) > 1
    ][:18]
    goal = deck[0]
    rest = deck[1:]
    for size in (3, 4, 5):
        assert probability(rest, goal, size, 2) == brute_force(rest, goal, size, 2)


signed = st.dictionaries(st.sampled_from("abcd"), st.sampled_from((-1, 1)), min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(deck=st.lists(signed, min_size=1, max_size=9), goal=signed, data=st.data())
def test_dp_equals_brute_force(deck, goal, data) -> None:
    size = data.draw(st.integers(1, len(deck)))
    need = data.draw(st.integers(1, len(goal)))
    assert probability(deck, goal, size, need) == brute_force(deck, goal, size, need)


def test_one_run_answers_every_hand_size() -> None:
    deck = [{"a": 1, "b": -1}, {"a": -1}, {"b": 1}, {"a": 1, "c": 1}, {"c": -1}, {"b": 1, "c": 1}]
    got = probabilities(deck, {"a": 1, "b": 1, "c": -1}, [1, 2, 3, 4], 2)
    for size, value in got.items():
        assert value == brute_force(deck, {"a": 1, "b": 1, "c": -1}, size, 2)
        assert value.denominator <= comb(len(deck), size)


def test_cache_shares_runs_between_equivalent_goal_cards() -> None:
    deck = [{"a": 1, "b": -1}, {"a": -1, "b": 1}, {"a": 1}, {"b": 1}, {"a": -1}, {"b": -1}]
    # Swapping the roles of a and b maps the deck onto itself.
    assert profile(deck, {"a": 1, "b": 1}) == profile(deck, {"b": 1, "a": 1})
    cache = OddsCache()
    first = cache.probabilities(deck, {"a": 1, "b": -1}, [2, 3], 1)
    second = cache.probabilities(deck, {"b": 1, "a": -1}, [2, 3], 1)
    assert first == second and cache.runs == 1
    assert first[2] == brute_force(deck, {"a": 1, "b": -1}, 2, 1)


def test_suit_matches_equal_brute_force() -> None:
    from pnp.rules.odds import at_least_of_kind

    # 3 suits of 4 cards; the hand wants at least 2 of suit "a".
    deck = [s for s in "abc" for _ in range(4)]
    for hand in (3, 4, 5):
        for need in (1, 2, 3):
            hits = sum(1 for h in itertools.combinations(range(len(deck)), hand) if sum(deck[i] == "a" for i in h) >= need)
            assert at_least_of_kind(12, 4, hand, need) == Fraction(hits, comb(12, hand))
    # Worked by hand: 21 letters, 7 matching, 5 drawn, at least 3:
    # (C(7,3)C(14,2) + C(7,4)C(14,1) + C(7,5)) / C(21,5) = 3696 / 20349.
    assert at_least_of_kind(21, 7, 5, 3) == Fraction(3696, 20349)

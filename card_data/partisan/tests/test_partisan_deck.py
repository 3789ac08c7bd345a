"""pnp's Decktet against the structure of the published card list
(SOURCES.md), and the suits it shows against the chips the rules give."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pnp.loading.loader import load_game

GAME = load_game(Path(__file__).resolve().parents[1])
DECK = GAME.component("decktet").cards
SUITS = [e.id for e in GAME.sets["suits"]]


def _kind(kind: str) -> list:  # type: ignore[type-arg]
    return [c for c in DECK if c.fields["kind"] == kind]


def test_the_deck_has_the_published_shape() -> None:
    assert len(DECK) == 45 and all(c.copies == 1 for c in DECK)
    assert Counter(c.fields["kind"] for c in DECK) == {"ace": 6, "numeral": 24, "pawn": 4, "court": 4, "crown": 6, "excuse": 1}
    assert len({c.title for c in DECK}) == 45


def test_each_suit_once_per_rank_two_to_nine() -> None:
    for rank in range(2, 10):
        cards = [c for c in _kind("numeral") if c.fields["rank"] == rank]
        assert len(cards) == 3 and all(len(c.fields["suits"]) == 2 for c in cards), rank
        assert sorted(s for c in cards for s in c.fields["suits"]) == sorted(SUITS), rank
        assert all(c.fields["index"] == str(rank) for c in cards)


def test_aces_and_crowns_one_suit_each_one_per_suit() -> None:
    for kind, rank in (("ace", 1), ("crown", 10)):
        cards = _kind(kind)
        assert sorted(c.fields["suits"][0] for c in cards) == sorted(SUITS) and all(len(c.fields["suits"]) == 1 for c in cards)
        assert all(c.fields["rank"] == rank for c in cards)


def test_pawns_and_courts_three_suits_each_suit_twice() -> None:
    for kind in ("pawn", "court"):
        cards = _kind(kind)
        assert all(len(set(c.fields["suits"])) == 3 for c in cards)
        assert Counter(s for c in cards for s in c.fields["suits"]) == {s: 2 for s in SUITS}
        assert all(c.fields.get("rank") is None for c in cards)
    # No two of the eight extended three-suit cards share all three suits.
    triples = [frozenset(c.fields["suits"]) for c in _kind("pawn") + _kind("court")]
    assert len(set(triples)) == 8


def test_the_excuse_has_no_suit_and_no_rank() -> None:
    excuse, = _kind("excuse")
    assert list(excuse.fields["suits"]) == [] and excuse.fields.get("rank") is None


def test_the_shuffled_deck_shows_each_suit_more_often_than_it_has_chips() -> None:
    """The rules' calibration, counted by hand rather than by `pnp check`: the
    32 cards shuffled (number cards, pawns, courts) show each suit 12 times,
    more than its 8 chips; the 24 number cards alone (No pawns and courts)
    show each suit 8 times, more than 6 chips; two Decktets, 24 times against 16."""
    def shown(kinds: tuple[str, ...]) -> Counter[str]:
        return Counter(s for c in DECK if c.fields["kind"] in kinds for s in c.fields["suits"])

    assert shown(("numeral", "pawn", "court")) == {s: 12 for s in SUITS} and 12 > GAME.rules["chips_per_suit"]
    assert shown(("numeral",)) == {s: 8 for s in SUITS} and 8 > GAME.rules["chips_no_pawns_courts"]
    assert 2 * 12 > GAME.rules["chips_double_deck"]

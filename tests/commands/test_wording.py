"""Counts read as a person would write them: one card, two cards."""

from __future__ import annotations


from pnp.iterate.watch import Rebuild, describe
from pnp.words import count
from tests.conftest import MINI, run_pnp


def test_count_is_singular_for_exactly_one() -> None:
    assert [count(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [count(n, "copy") for n in (1, 4)] == ["1 copy", "4 copies"]
    assert count(3, "die", "dice") == "3 dice"


def test_watch_says_one_file_and_why_faces_were_laid_out_when_no_card_changed() -> None:
    one = describe(Rebuild(0.5, ("cards/one",), 1, 1))
    assert one.endswith("1 card changed: cards/one; 1 face laid out, 1 file written")
    styled = describe(Rebuild(0.5, (), 14, 2))
    assert "no card data changed, but a template, stylesheet or art file did: 14 faces laid out, 2 files written" in styled
    assert "nothing changed; 0 files written" in describe(Rebuild(0.1, (), 0, 0))


def test_list_counts_copies_and_cards_in_words() -> None:
    done = run_pnp("list", str(MINI))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "  sleeves: Sleeves, 4 copies of 2 cards (poker)" in lines, done.stdout
    assert not any("of 1 cards" in line or "1 copies" in line for line in lines)


def test_a_component_of_one_card_says_one_card() -> None:
    done = run_pnp("list", "persuasion-b04")
    assert done.returncode == 0, done.stderr
    assert "  reference: Player aids, 8 copies of 1 card (poker)" in done.stdout.splitlines()

"""A home copy can be set up from the printed pages: page 1 and the rulebook
say how many clear sleeves to buy (counted from the data) and how the printed
crest and ring cards become sealed and ring sleeves."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.loading.loader import load_game, resolve_game_dir
from tests.conftest import b04_build  # noqa: F401  (fixture shared with tests/)
from tests.pdftools import pdfinfo_pages, prose


def _sleeves() -> int:
    game = load_game(resolve_game_dir("persuasion-b04"))
    copies = {c.id: sum(card.copies for card in c.cards) for c in game.components}
    return copies["crest-sleeves"] + copies["ring-sleeves"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_one_lists_the_sleeves_and_how_the_sleeves_are_made(b04_build: Path, paper: str) -> None:  # noqa: F811
    pdf = b04_build / f"persuasion-b04-home-{paper}.pdf"
    text = prose(pdf, 1, 1)
    assert _sleeves() == 88
    assert "Also needed, and how the pieces go together" in text
    assert "88 clear poker-size card sleeves (63.5 x 88.9 mm)" in text
    assert "A crest card in a sleeve, crest out, is a sealed sleeve: a trait card goes in behind it, face out." in text
    assert "A ring card in a sleeve, ring out, is a ring sleeve" in text
    # the instructions still fit one page, so the card pages keep their numbers
    assert "1 These instructions" in text and "This square measures 50 mm" in text
    assert len(pdfinfo_pages(pdf)) > 1


def test_the_rulebook_says_it_too(b04_build: Path) -> None:  # noqa: F811
    text = prose(b04_build / "persuasion-b04-rulebook-a4.pdf", 1, 1)
    assert (
        "Making a home copy Besides the printed pages you need: – 88 clear poker-size card sleeves (63.5 x 88.9 mm). "
        "A crest card in a sleeve, crest out, is a sealed sleeve"
    ) in text

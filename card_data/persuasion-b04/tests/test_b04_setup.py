"""A home copy can be set up from the printed pages: page 1 and the rulebook
say how many clear sleeves to buy (counted from the data), the sheets of card
stock and the punches, and how the printed crest and ring cards become sealed
and ring sleeves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.loading.loader import load_game, resolve_game_dir
from pnp.testing import pdftotext, prose, setup_columns

HOW = (
    "A crest card in a sleeve, crest out, is a sealed sleeve: a trait card goes in behind it, face out. "
    "A ring card in a sleeve, ring out, is a ring sleeve: a proposed trait card goes in behind it. "
    "Desires cards stay unsleeved."
)


def _sleeves() -> int:
    game = load_game(resolve_game_dir("persuasion-b04"))
    copies = {c.id: sum(card.copies for card in c.cards) for c in game.components}
    return copies["crest-sleeves"] + copies["ring-sleeves"]


def _sheets_in_table(text: str) -> int:
    """Sheets of card stock as the What to print table tells them: each row's
    pages, halved for two-sided rows (a front and its back are one sheet)."""
    rows = re.findall(r"^\s*(\d+)(?:\u2013(\d+))?\s.*\s\d+\s+card stock\s+(two-sided|one-sided)", text, re.M)
    assert len(rows) == 8, text
    return sum((int(last or first) - int(first) + 1) // (2 if sides == "two-sided" else 1) for first, last, sides in rows)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_one_lists_what_to_get_and_how_the_sleeves_are_made(b04_build: Path, paper: str) -> None:  # noqa: F811
    pdf = b04_build / f"persuasion-b04-home-{paper}.pdf"
    text = prose(pdf, 1, 1)
    assert _sleeves() == 88
    # the two sections stand side by side: What you need, then Putting the pieces together
    need = setup_columns(pdf)[0].replace("-", "").split("What you need ")[1].split(" Putting the pieces together")[0]
    items = [item.strip() for item in need.split("\u2022") if item.strip()]
    assert items[0] == f"{_sheets_in_table(pdftotext(pdf, 1, 1))} sheets of card stock"
    assert items[1:] == [
        "round craft punches (or scissors): 3/4inch for the symbol markers; 5/8inch for the crest trackers",
        "88 clear pokersize card sleeves (63.5 x 88.9 mm)",
    ]  # poppler drops a hyphen that ends a line, so the words are compared without hyphens
    assert f"Putting the pieces together • {HOW}".replace("-", "") in setup_columns(pdf)[1].replace("-", "")
    # the instructions still fit one page, so the card pages keep their numbers
    assert "1 These instructions" in text and "This square measures 50 mm" in text


def test_the_rulebook_says_it_too(b04_build: Path) -> None:  # noqa: F811
    for paper in ("a4", "letter"):
        text = prose(b04_build / f"persuasion-b04-rulebook-{paper}.pdf", 1, 1)
        assert (
            "Making a home copy Besides the printed pages you need: – card stock – round craft punches (or scissors): "
            "3/4-inch for the symbol markers; 5/8-inch for the crest trackers – 88 clear poker-size card sleeves (63.5 x 88.9 mm) "
            f"How the pieces go together: – {HOW}"
        ) in text

"""A home copy of D01 can be set up from the printed pages: page 1 and the
rulebook say the seals need removable labels (how many sheets, worked out from
the seals and the label layout), the punch sizes, and how a seal is cut out,
stuck on a letter and moved."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from pnp.loading.loader import load_game, resolve_game_dir
from tests.conftest import d01_build  # noqa: F401  (fixture shared with tests/)
from tests.pdftools import pdfinfo_pages, pdftotext, prose, prose_of_half

PUNCHES = "round craft punches (or scissors): 1-inch for the rings; 3/4-inch for the crest heart tokens and trait seals (stickers)"


def _seals() -> tuple[int, str, dict[str, int]]:
    """The seals printed, their assembly text, and label sheets per paper (labels a sheet from the layout)."""
    game = load_game(resolve_game_dir("persuasion-d01"))
    seals = next(c for c in game.components if c.id == "seals")
    assert seals.assembly
    per_sheet = {paper: game.layouts[seals.layout_for(paper)].columns * game.layouts[seals.layout_for(paper)].rows for paper in ("a4", "letter")}
    return seals.copies, " ".join(seals.assembly.split()), {p: math.ceil(seals.copies / n) for p, n in per_sheet.items()}


def sheets_of_card(text: str) -> int:
    """Sheets of card stock as the What to print table tells them: each row's
    pages, halved for two-sided rows (a front and its back are one sheet)."""
    rows = re.findall(r"^\s*(\d+)(?:\u2013(\d+))?\s.*\s\d+\s+card stock\s+(two-sided|one-sided)", text, re.M)
    assert len(rows) == 7, text
    return sum((int(last or first) - int(first) + 1) // (2 if sides == "two-sided" else 1) for first, last, sides in rows)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_one_says_removable_labels_how_many_and_how_seals_go_on(d01_build: Path, paper: str) -> None:  # noqa: F811
    pdf = d01_build / f"persuasion-d01-home-{paper}.pdf"
    text = prose(pdf, 1, 1)
    copies, assembly, sheets = _seals()
    assert (copies, sheets) == (56, {"a4": 1, "letter": 2})
    label_sheets = f"{sheets[paper]} sheet{'s' if sheets[paper] > 1 else ''} of removable labels (seals are moved)"
    left, right = prose_of_half(pdf, 1, "left"), prose_of_half(pdf, 1, "right")
    assert f"What you need • {sheets_of_card(pdftotext(pdf, 1, 1))} sheets of card stock • {label_sheets} • {PUNCHES} Cutting " in left
    assert f"Putting the pieces together • Trait seals (stickers): {assembly} " in right
    assert "Removable labels only: seals move. Cut each seal out along its circle" in assembly
    # the page the labels print on is the last, one per label sheet
    assert text.count("Trait seals (stickers)") >= 2 and len(pdfinfo_pages(pdf)) > 20
    assert "1 These instructions" in text and "This square measures 50 mm" in text


def test_the_module_file_lists_only_its_own_card_stock(d01_build: Path) -> None:  # noqa: F811
    text = prose(d01_build / "persuasion-d01-shadows-home-a4.pdf", 1, 1)
    assert "What you need • 1 sheet of card stock Cutting" in prose_of_half(d01_build / "persuasion-d01-shadows-home-a4.pdf", 1, "left")
    assert "Putting the pieces together" not in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rulebook_says_it_too(d01_build: Path, paper: str) -> None:  # noqa: F811
    text = prose(d01_build / f"persuasion-d01-rulebook-{paper}.pdf", 1, 1)
    _, assembly, _ = _seals()
    assert (
        "Making a home copy Besides the printed pages you need: – card stock – removable labels (seals are moved) "
        f"– {PUNCHES} How the pieces go together: – Trait seals (stickers): {assembly}"
    ) in text

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
from pnp.testing import pdfinfo_pages, prose, setup_columns

PUNCHES = "round craft punches (or scissors): 1-inch for the rings; 3/4-inch for the crest heart tokens and trait seals (stickers)"


def _seals() -> tuple[int, str, dict[str, int]]:
    """The seals printed, their assembly text, and label sheets per paper (labels a sheet from the layout)."""
    game = load_game(resolve_game_dir("persuasion-d01"))
    seals = next(c for c in game.components if c.id == "seals")
    assert seals.assembly
    per_sheet = {paper: game.layouts[seals.layout_for(paper)].columns * game.layouts[seals.layout_for(paper)].rows for paper in ("a4", "letter")}
    return seals.copies, " ".join(seals.assembly.split()), {p: math.ceil(seals.copies / n) for p, n in per_sheet.items()}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_one_says_removable_labels_how_many_and_how_seals_go_on(d01_build: Path, paper: str) -> None:  # noqa: F811
    pdf = d01_build / f"persuasion-d01-home-{paper}.pdf"
    text = prose(pdf, 1, 1)
    copies, assembly, sheets = _seals()
    assert (copies, sheets) == (56, {"a4": 1, "letter": 2})
    label_sheets = f"{sheets[paper]} sheet{'s' if sheets[paper] > 1 else ''} of removable labels"
    # the instructions' own pages, as the What to print table gives them (Letter's table is tall:
    # the calibration square and these sections may go over to page 2, whole)
    pages = 2 if "1\u20132 These instructions" in text else 1
    assert "1 These instructions" in text or pages == 2
    # poppler drops a hyphen that ends a line, so the words are compared without hyphens
    left = " ".join(setup_columns(pdf, page)[0] for page in range(1, pages + 1)).replace("-", "")
    right = " ".join(setup_columns(pdf, page)[1] for page in range(1, pages + 1)).replace("-", "")
    match = re.search(r"What you need • (\d+) sheets of card stock • ", left)
    assert match, left
    # card pages: all but the instructions and the label sheets; a duplexed front and back are one sheet
    card_pages = len(pdfinfo_pages(pdf)) - pages - sheets[paper]
    assert card_pages // 2 < int(match.group(1)) < card_pages
    assert f"{match.group(0)}{label_sheets} • {PUNCHES}".replace("-", "") in left
    assert f"Putting the pieces together • Trait seals (stickers): {assembly}".replace("-", "") in right
    assert "Removable labels only: seals move. Cut each seal out along its circle" in assembly
    assert "This square measures 50 mm on each side" in prose(pdf, 1, pages)


def test_the_module_file_lists_only_its_own_card_stock(d01_build: Path) -> None:  # noqa: F811
    text = prose(d01_build / "persuasion-d01-shadows-home-a4.pdf", 1, 1)
    assert "What you need • 1 sheet of card stock" in setup_columns(d01_build / "persuasion-d01-shadows-home-a4.pdf")[0]
    assert "Putting the pieces together" not in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rulebook_says_it_too(d01_build: Path, paper: str) -> None:  # noqa: F811
    text = prose(d01_build / f"persuasion-d01-rulebook-{paper}.pdf", 1, 1)
    _, assembly, _ = _seals()
    assert (
        "Making a home copy Besides the printed pages you need: – card stock – removable labels "
        f"– {PUNCHES} How the pieces go together: – Trait seals (stickers): {assembly}"
    ) in text

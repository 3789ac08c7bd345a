"""Partisan's chips can be made from the printed pages: page 1 names the
1-inch punch (from the chips' size) and says how a chip is made; the rulebook
says it too."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.loading.loader import load_game, resolve_game_dir
from tests.conftest import partisan_build  # noqa: F401  (the fixture, shared with tests/)
from tests.pdftools import prose, prose_of_half


def _chips_how() -> str:
    chips = next(c for c in load_game(resolve_game_dir("partisan")).components if c.id == "chips")
    assert chips.size.width == pytest.approx(72.0)  # 1 inch in points
    assert chips.assembly
    return " ".join(chips.assembly.split())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_one_names_the_punch_and_how_chips_are_made(partisan_build: Path, paper: str) -> None:  # noqa: F811
    pdf = partisan_build / f"partisan-home-{paper}.pdf"
    assert "• a round craft punch (or scissors): 1-inch for the suit chips Cutting " in prose_of_half(pdf, 1, "left")
    assert f"Putting the pieces together • Suit chips: {_chips_how()} " in prose_of_half(pdf, 1, "right")
    module = prose_of_half(partisan_build / f"partisan-double-deck-home-{paper}.pdf", 1, "left")
    assert "a round craft punch (or scissors): 1-inch for the suit chips" in module


def test_the_rulebook_says_how_chips_are_made(partisan_build: Path) -> None:  # noqa: F811
    for paper in ("a4", "letter"):
        text = prose(partisan_build / f"partisan-rulebook-{paper}.pdf", 1, 1)
        assert f"Suit chips: {_chips_how()}" in text

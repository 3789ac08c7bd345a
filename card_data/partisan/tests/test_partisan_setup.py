"""Partisan's chips can be made from the printed pages: page 1 names the
1-inch punch (from the chips' size) and says how a chip is made; the rulebook
says it too."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.loading.loader import load_game, resolve_game_dir
from pnp.testing import prose, setup_columns


def _chips_how() -> str:
    chips = next(c for c in load_game(resolve_game_dir("partisan")).components if c.id == "chips")
    assert chips.size.width == pytest.approx(72.0)  # 1 inch in points
    assert chips.assembly
    return " ".join(chips.assembly.split())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_one_names_the_punch_and_how_chips_are_made(partisan_build: Path, paper: str) -> None:  # noqa: F811
    pdf = partisan_build / f"partisan-home-{paper}.pdf"
    left, right = (column.replace("-", "") for column in setup_columns(pdf))  # poppler drops a line-end hyphen
    sheets = {"a4": 5 + 1 + 1, "letter": 6 + 1 + 1}[paper]  # the Decktet 9 (A4) or 8 (Letter) a sheet, chips, aids
    assert f"What you need • {sheets} sheets of card stock • a round craft punch (or scissors): 1inch for the suit chips" in left
    assert f"Putting the pieces together • Suit chips: {_chips_how()}".replace("-", "") in right
    module = setup_columns(partisan_build / f"partisan-double-deck-home-{paper}.pdf")[0]
    assert "a round craft punch (or scissors): 1inch for the suit chips" in module.replace("-", "")


def test_the_rulebook_says_how_chips_are_made(partisan_build: Path) -> None:  # noqa: F811
    for paper in ("a4", "letter"):
        text = prose(partisan_build / f"partisan-rulebook-{paper}.pdf", 1, 1)
        assert f"Suit chips: {_chips_how()}" in text

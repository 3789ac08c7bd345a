"""Page 1's shopping list and assembly steps, worked out from the parts of a
file and the game's data (pnp/output/home/needs.py)."""

from __future__ import annotations

from typing import Any

import pytest

from pnp.output.home.needs import document_needs, inch_text, needs, steps
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.model import Module


def _part(id: str, name: str, material: str, sheets: int, width_mm: float = 63.5, round_: bool = False) -> dict[str, Any]:
    return {"id": id, "name": name, "material": material, "sheets": sheets, "width_mm": width_mm, "round": round_}


@pytest.mark.parametrize(
    ("inches", "said"),
    [(1.0, "1-inch"), (0.75, "3/4-inch"), (15.9 / 25.4, "5/8-inch"), (19.0 / 25.4, "3/4-inch"), (1.5, "1 1/2-inch"), (0.9, "0.90-inch")],
)
def test_punch_sizes_read_as_shops_sell_them(inches: float, said: str) -> None:
    assert inch_text(inches) == said


def test_sheets_are_counted_per_stock_in_words_and_punches_grouped_by_size() -> None:
    game = load_game(resolve_game_dir("persuasion-d01"))
    parts = [
        _part("traits", "Trait letters", "card stock", 6),
        _part("hearts", "Crest heart tokens", "card stock", 1, 19.05, True),
        _part("rings", "Rings", "card stock", 1, 25.4, True),
        _part("seals", "Trait seals (stickers)", "removable labels (seals are moved)", 1, 19.0, True),
    ]
    assert needs(game, parts) == [
        "8 sheets of card stock",
        "1 sheet of removable labels (seals are moved)",
        "round craft punches (or scissors): 1-inch for the rings; 3/4-inch for the crest heart tokens and trait seals (stickers)",
    ]
    assert needs(game, parts[:1]) == ["6 sheets of card stock"]
    assert steps(game, parts[:1]) == []
    seal = next(c for c in game.components if c.id == "seals")
    assert steps(game, parts) == [{"name": "Trait seals (stickers)", "how": seal.assembly}]


def test_the_games_own_list_is_on_the_base_file_only() -> None:
    game = load_game(resolve_game_dir("persuasion-b04"))
    parts = [_part("crest-sleeves", "Sealed crest sleeves", "card stock", 9)]
    base = needs(game, parts)
    assert base[-1] == "88 clear poker-size card sleeves (63.5 x 88.9 mm)"
    assert steps(game, parts)[0]["how"].startswith("A crest card in a sleeve, crest out, is a sealed sleeve")
    module = Module(id="extra", name="Extra", description=None, field="extra", value=True)
    assert needs(game, parts, module) == ["9 sheets of card stock"]
    assert steps(game, parts, module) == []


def test_a_rulebook_gets_the_stocks_and_the_punches_of_its_paper() -> None:
    game = load_game(resolve_game_dir("persuasion-d01"))
    for paper in ("a4", "letter"):
        assert document_needs(game, paper) == [
            "card stock",
            "removable labels",
            "round craft punches (or scissors): 1-inch for the rings; 3/4-inch for the crest heart tokens and trait seals (stickers)",
        ]
    partisan = load_game(resolve_game_dir("partisan"))
    assert document_needs(partisan, "a4") == ["card stock", "a round craft punch (or scissors): 1-inch for the suit chips"]

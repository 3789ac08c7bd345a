"""Export profiles: PNG faces at exact pixels, Tabletop Simulator sheets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from tests.conftest import MINI, run_pnp


@pytest.mark.parametrize("profile, size, dpi", [("thegamecrafter", (825, 1125), 300), ("makeplayingcards", (822, 1122), 300)])
def test_png_faces_have_exact_pixels_and_pair_up(tmp_path: Path, profile: str, size: tuple[int, int], dpi: int) -> None:
    result = run_pnp("build", str(MINI), "--profile", profile, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "mini" / profile
    index = json.loads((folder / "cards.json").read_text())
    assert [(c["component"], c["card"], c["quantity"]) for c in index["cards"]] == [
        ("cards", "one", 1), ("cards", "two", 2), ("cards", "three", 1), ("sleeves", "red", 2), ("sleeves", "blue", 2),
    ]
    for card in index["cards"]:
        front = Image.open(folder / card["front"])
        assert front.size == size
        assert round(front.info["dpi"][0]) == dpi
        if card["component"] == "cards":
            assert Image.open(folder / card["back"]).size == size  # fronts and backs pair up by name
            assert card["back"] == card["front"].replace("-front", "-back")
        else:
            assert "back" not in card
    # Different cards are different images.
    one, two = (Image.open(folder / "cards" / f"{c}-front.png").convert("RGB") for c in ("one", "two"))
    assert max(ImageStat.Stat(ImageChops.difference(one, two)).mean) > 0.5


def test_tts_sheets_fit_the_limits_and_hide_the_last_slot(tmp_path: Path) -> None:
    result = run_pnp("build", "persuasion-b04", "--profile", "tts", "--only", "traits", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "persuasion-b04" / "tts"
    decks = json.loads((folder / "decks.json").read_text())["decks"]
    (deck,) = decks
    (sheet,) = deck["sheets"]
    assert sheet["num_width"] == 10 and sheet["num_height"] == 7 and len(sheet["cards"]) == 60
    assert sheet["hidden_slot"] == 69
    image = Image.open(folder / sheet["face"]).convert("RGB")
    w, h = deck["card_px"]
    assert image.size == (10 * w, 7 * h) and max(image.size) <= 4096
    # The hidden slot shows the back image; an empty slot before it is blank.
    back = Image.open(folder / deck["back"]).convert("RGB")
    hidden = image.crop((9 * w, 6 * h, 10 * w, 7 * h))
    assert max(ImageStat.Stat(ImageChops.difference(hidden, back)).mean) < 3
    empty = image.crop((8 * w, 6 * h, 9 * w, 7 * h))
    assert ImageStat.Stat(empty).mean == [255.0, 255.0, 255.0]


def test_unknown_profile_and_unsupported_size(tmp_path: Path) -> None:
    bad = run_pnp("build", str(MINI), "--profile", "printomatic", "--out", str(tmp_path))
    assert bad.returncode == 2 and "unknown profile 'printomatic'" in bad.stderr
    board = run_pnp("build", "persuasion-b04", "--profile", "makeplayingcards", "--only", "letterboxes", "--out", str(tmp_path))
    assert board.returncode == 2 and "no pixel size for card size custom" in board.stderr


def test_png_faces_put_a_modules_cards_in_a_deck_of_their_own(mini_copy: Path, tmp_path: Path) -> None:
    """A print-on-demand site takes one upload per deck: card three, in the optional
    module, goes in ``extra-cards/``, never into the base ``cards/`` deck."""
    game = mini_copy / "game.yaml"
    text = game.read_text().replace("components:\n", "modules:\n  - {id: extra, name: Extra, description: One more card., field: extra}\ncomponents:\n", 1)
    game.write_text(text.replace("      crest: {type: ref, set: crests, doc: The owner.}\n", "      crest: {type: ref, set: crests, doc: The owner.}\n      extra: {type: boolean, doc: In the module., default: false}\n", 1))
    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("    symbols: {moon: 1}\n", "    symbols: {moon: 1}\n    extra: true\n", 1))
    result = run_pnp("build", str(mini_copy), "--profile", "thegamecrafter", "--only", "cards", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "mini" / "thegamecrafter"
    index = json.loads((folder / "cards.json").read_text())
    assert [(c["card"], c.get("module"), c["front"]) for c in index["cards"]] == [
        ("one", None, "cards/one-front.png"), ("two", None, "cards/two-front.png"), ("three", "extra", "extra-cards/three-front.png"),
    ]
    assert sorted(p.name for p in (folder / "cards").iterdir()) == ["one-back.png", "one-front.png", "two-back.png", "two-front.png"]
    assert sorted(p.name for p in (folder / "extra-cards").iterdir()) == ["three-back.png", "three-front.png"]

"""`pnp proof`: contact sheets of every distinct face, captioned, as PNGs and one PDF."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pikepdf
from PIL import Image

from pnp.output.raster import face_images
from pnp.iterate.proof import GAP, tiles
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.render.faces import plan_faces
from tests.conftest import MINI, run_pnp


def test_each_card_shows_its_front_then_each_distinct_back_once() -> None:
    game = load_game(resolve_game_dir("persuasion-b04"))
    traits = next(c for c in game.components if c.id == "traits")
    plan = plan_faces(game, [traits])
    found = tiles(game, traits, plan.cards["traits"])
    assert len(found) == 61  # 60 trait fronts and their one shared back
    assert found[0].caption == (traits.cards[0].id, f"front \u00d7{traits.cards[0].copies}")
    assert found[-1].caption == ("60 cards", f"back \u00d7{traits.copies}")
    assert len({t.face for t in found}) == 61


def test_pnp_proof_writes_a_sheet_per_component_and_a_pdf_of_them(tmp_path: Path) -> None:
    done = run_pnp("proof", str(MINI), "--out", str(tmp_path), "--dpi", "60")
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "mini" / "proof"
    assert f"Mini: 2 contact sheets and a PDF of them in {tmp_path / 'mini' / 'proof'}" in done.stdout
    one = run_pnp("proof", str(MINI), "--out", str(tmp_path / "one"), "--dpi", "30", "--only", "cards")
    assert "1 contact sheet and a PDF of it in" in one.stdout, one.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["mini-proof.pdf", "proof-cards.png", "proof-sleeves.png"]
    sheet = Image.open(folder / "proof-cards.png").convert("RGB")
    assert round(sheet.info["dpi"][0]) == 60
    # The first tile is the first card's front, exactly as pnp rasterises it, at its place.
    game = load_game(MINI)
    cards = next(c for c in game.components if c.id == "cards")
    plan, images = face_images(game, [cards], None, 60)
    first = images[plan.cards["cards"][0][1]]
    tile = sheet.crop((GAP, 60, GAP + first.width, 60 + first.height))
    assert np.abs(np.asarray(tile, dtype=np.int16) - np.asarray(first, dtype=np.int16)).max() <= 1
    # 3 fronts and their one back in a row of 4.
    assert sheet.width == GAP + 4 * (first.width + GAP)
    with pikepdf.open(folder / "mini-proof.pdf") as pdf:
        assert len(pdf.pages) == 2
        width = float(pdf.pages[0].mediabox[2])
        assert abs(width - sheet.width * 72 / 60) < 0.5  # the sheet at its dpi
    again = run_pnp("proof", str(MINI), "--out", str(tmp_path / "again"), "--dpi", "60")
    assert again.returncode == 0
    for name in ("mini-proof.pdf", "proof-cards.png"):
        assert (tmp_path / "again" / "mini" / "proof" / name).read_bytes() == (folder / name).read_bytes()  # reproducible


def test_a_back_is_shown_unless_it_is_its_own_cards_front() -> None:
    """A piece whose back is another face shows that back, labelled, even when
    the face is some other card's front; a piece the same on both sides says so."""
    game = load_game(MINI)
    cards = next(c for c in game.components if c.id == "cards")
    found = tiles(game, cards, [("one", "A", "B"), ("two", "B", "B"), ("three", "C", None)])
    assert [(t.face, t.caption) for t in found] == [
        ("A", ("one", "front \u00d71")), ("B", ("two", "both sides \u00d72")), ("C", ("three", "front \u00d71")),
        ("B", ("one", "back \u00d71")),
    ]


def test_partisans_chips_say_they_are_the_same_on_both_sides() -> None:
    game = load_game(resolve_game_dir("partisan"))
    chips = next(c for c in game.components if c.id == "chips")
    found = tiles(game, chips, plan_faces(game, [chips]).cards["chips"])
    assert found[0].caption == ("moons-leader", "both sides \u00d71") and len(found) == 18


def _ink(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return bool((np.asarray(image.crop(box).convert("L")) < 200).any())


def test_no_caption_or_title_is_cut_short(mini_copy: Path, tmp_path: Path) -> None:
    """A sheet is as wide as its title, a column as wide as its widest caption:
    nothing is drawn up to the sheet's right edge, and no caption runs into the next."""
    from PIL import ImageFont

    from pnp.iterate.proof import CAPTION_FONT

    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("- id: one", "- id: one-with-a-rather-long-card-id"))
    done = run_pnp("proof", str(mini_copy), "--out", str(tmp_path), "--dpi", "30")
    assert done.returncode == 0, done.stderr
    for name, longest in (("sleeves", "Mini: Sleeves (2 printed, 2 faces)"), ("cards", "one-with-a-rather-long-card-id")):
        sheet = Image.open(tmp_path / "mini" / "proof" / f"proof-{name}.png").convert("RGB")
        size = 28 if name == "sleeves" else 18
        assert sheet.width >= 2 * GAP + ImageFont.truetype(str(CAPTION_FONT), size).getlength(longest)
        assert not _ink(sheet, (sheet.width - GAP // 2, 0, sheet.width, sheet.height)), name  # a margin on the right
    sheet = Image.open(tmp_path / "mini" / "proof" / "proof-cards.png").convert("RGB")
    game = load_game(mini_copy)
    plan, images = face_images(game, [next(c for c in game.components if c.id == "cards")], None, 30)
    face = images[plan.cards["cards"][0][1]]
    second = round(ImageFont.truetype(str(CAPTION_FONT), 18).getlength("one-with-a-rather-long-card-id")) + 2 * GAP
    assert not _ink(sheet, (second - GAP // 2, 60 + face.height + 3, second - 2, 60 + face.height + 23))  # the gap after the long id


def test_a_face_with_overflowing_text_is_framed_in_red_and_warned_of(mini_copy: Path, tmp_path: Path) -> None:
    from pnp.iterate.proof import FLAG, FLAG_WIDTH

    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: Two", "title: " + ("Two words " * 8).strip()))
    template = mini_copy / "templates" / "mini" / "card.html"
    template.write_text(template.read_text().replace("<h1>", '<h1 style="height: 12mm; margin: 0">'))  # "One" fits, card two's title does not
    done = run_pnp("proof", str(mini_copy), "--out", str(tmp_path), "--dpi", "30", "--only", "cards")
    assert done.returncode == 0, done.stderr
    assert "/cards.yaml:6:5: warning: cards/two front: div.safe h1: text overflows its box by" in done.stderr, done.stderr
    sheet = np.asarray(Image.open(tmp_path / "mini" / "proof" / "proof-cards.png").convert("RGB"), dtype=np.int16)
    game = load_game(mini_copy)
    plan, images = face_images(game, [next(c for c in game.components if c.id == "cards")], None, 30)
    face = images[plan.cards["cards"][1][1]]
    band = sheet[60 - FLAG_WIDTH: 60 + face.height + FLAG_WIDTH]  # the first row of tiles and the frames round them
    ys, xs = np.nonzero((np.abs(band - np.array(FLAG)).max(axis=2) <= 2))
    assert xs.size, "no red frame"
    assert (xs.max() - xs.min() + 1, ys.max() - ys.min() + 1) == (face.width + 2 * FLAG_WIDTH, face.height + 2 * FLAG_WIDTH)
    assert xs.min() > GAP + face.width  # round the second tile (card two), not the first
    below = sheet[60 + face.height + FLAG_WIDTH:]
    assert (np.abs(below - np.array(FLAG)).max(axis=2) <= 2).any()  # its label

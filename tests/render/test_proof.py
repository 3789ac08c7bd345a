"""`pnp proof`: contact sheets of every distinct face, captioned, as PNGs and one PDF."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pikepdf
from PIL import Image

from pnp.export.raster import face_images
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

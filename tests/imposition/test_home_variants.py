"""Home-print variants: gutter-fold sheets and the ink saver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import ImageStat

from pnp.imposition.geometry import gutterfold_grid, impose_gutterfold
from pnp.loading.presets import load_layouts, load_papers
from pnp.units import mm
from tests.conftest import run_pnp
from tests.pdftools import clip_rects, crop_face, pdfinfo_pages, pdftotext, prose


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutterfold_mirrors_backs_about_the_fold(paper: str) -> None:
    g = gutterfold_grid(load_layouts()["poker-9up"], load_papers()[paper], mm(63.5), mm(88.9))
    width = g.paper.width
    assert width > g.paper.height  # landscape
    assert g.per_sheet == 4
    for front, back in zip(g.fronts, g.backs):
        assert front.right <= width / 2 - mm(5) + 1e-6  # fronts stay left of the fold, with margin
        assert back.x >= width / 2 + mm(5) - 1e-6
        assert back.x == pytest.approx(width - front.right) and back.y == pytest.approx(front.y)
    folds = [m for m in g.marks if m.dashed]
    assert len(folds) == 1 and folds[0].x1 == folds[0].x2 == pytest.approx(width / 2)
    for mark in g.marks:
        if not mark.dashed:
            assert not any(mark.x1 == r.x and mark.y1 > r.y and mark.y1 < r.top for r in g.fronts + g.backs)
    sheets = impose_gutterfold("deck", [("f", "b")] * 5, g)
    assert [len(s.placements) for s in sheets] == [8, 2]
    assert {p.face for p in sheets[0].placements} == {"f", "b"}


def test_gutterfold_build(tmp_path: Path) -> None:
    result = run_pnp("build", "persuasion-b04", "--gutterfold", "--paper", "letter", "--only", "traits,crest-sleeves", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "persuasion-b04" / "persuasion-b04-home-gutterfold-letter.pdf"
    pages = pdfinfo_pages(pdf)
    # 60 trait cards, 4 a sheet with their backs: 15 landscape sheets; 80 one-sided sleeves: 9 portrait sheets.
    assert len(pages) == 1 + 15 + 9
    assert all(p == pytest.approx((792.0, 612.0)) for p in pages[1:16])
    assert len(clip_rects(pdf, 2)) == 8
    text = prose(pdf, 1, 1)
    assert "fold along the dashed centre line" in text and "2–16 Trait cards 60 card stock one-sided, then fold" in text
    assert "Paper: US Letter, landscape for the sheets to fold, portrait for the rest." in text
    manifest = json.loads((tmp_path / "persuasion-b04" / "manifest.json").read_text())
    assert manifest["files"][0]["path"] == "persuasion-b04-home-gutterfold-letter.pdf"


def test_ink_saver_lightens_the_dark_backs(tmp_path: Path) -> None:
    normal = run_pnp("build", "persuasion-b04", "--paper", "a4", "--only", "traits", "--out", str(tmp_path / "n"))
    saver = run_pnp("build", "persuasion-b04", "--ink-saver", "--paper", "a4", "--only", "traits", "--out", str(tmp_path / "s"))
    assert normal.returncode == 0 and saver.returncode == 0, saver.stderr
    dark = crop_face(tmp_path / "n" / "persuasion-b04" / "persuasion-b04-home-a4.pdf", 3, 0, 60).convert("L")
    light = crop_face(tmp_path / "s" / "persuasion-b04" / "persuasion-b04-home-inksaver-a4.pdf", 3, 0, 60).convert("L")
    # Mean grey of a trait back: a dark field normally, nearly white with the ink saver.
    assert ImageStat.Stat(dark).mean[0] < 80
    assert ImageStat.Stat(light).mean[0] > 220

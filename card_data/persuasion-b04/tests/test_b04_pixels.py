"""Persuasion B04's rendered faces compared as pixels with reviewed
reference images (this folder's golden/; see tests/pixels.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from pnp.testing import DPI, TOLERANCE, compare, crop_face, rasterise

GOLDEN = Path(__file__).parent / "golden"


# One of each component type, by page and place on the A4 build.
FACES = [
    ("b04-trait-front-extravagant", 2, 0),
    ("b04-trait-back", 3, 0),
    ("b04-crest-sleeve-ashford", 16, 0),
    ("b04-ring-sleeve-ashford", 25, 0),
    ("b04-ring-sleeve-back-ashford", 26, 0),
    ("b04-aid-front", 27, 0),
    ("b04-aid-back", 28, 0),
    ("b04-letterbox-ashford", 29, 0),
    ("b04-spreadsheet", 37, 0),
    ("b04-tracker-ashford", 41, 0),
    ("b04-marker-fortune-plus", 43, 0),
    ("b04-marker-fortune-minus", 44, 0),
]


@pytest.mark.parametrize("name, page, index", FACES, ids=[f[0] for f in FACES])
def test_face_matches_reference(b04_build: Path, name: str, page: int, index: int) -> None:
    compare(crop_face(b04_build / "persuasion-b04-home-a4.pdf", page, index, DPI), GOLDEN, name)


def _difference(a: Image.Image, b: Image.Image) -> float:
    """How unlike two crops of placed faces are inside the trim (cut marks
    cross a front sheet's bleed, never a back's): the mean difference of the
    worst channel at the best of the nine one-pixel alignments, since two
    copies sit at different fractions of a pixel."""
    inset = round(2 / 25.4 * DPI)
    inner = a.crop((inset, inset, a.width - inset, a.height - inset))
    return min(
        max(ImageStat.Stat(ImageChops.difference(
            inner, b.crop((inset + dx, inset + dy, b.width - inset + dx, b.height - inset + dy))
        )).mean)
        for dx in (-1, 0, 1) for dy in (-1, 0, 1)
    )


def test_a_ring_sleeve_back_looks_like_its_crest_sleeve(b04_build: Path) -> None:
    pdf = b04_build / "persuasion-b04-home-a4.pdf"
    back = crop_face(pdf, 26, 0, DPI)
    assert _difference(back, crop_face(pdf, 16, 0, DPI)) < TOLERANCE  # Ashford, the first crest
    assert _difference(back, crop_face(pdf, 17, 1, DPI)) > TOLERANCE  # the 11th sleeve: the second crest


def test_comparison_catches_a_changed_card(b04_build: Path) -> None:
    """The same check must fail for a different card (it is not blind)."""
    other = crop_face(b04_build / "persuasion-b04-home-a4.pdf", 2, 1, DPI)
    expected = Image.open(GOLDEN / "b04-trait-front-extravagant.png").convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(expected, other)).mean) > TOLERANCE


def test_symbols_differ_in_grayscale(b04_build: Path) -> None:
    """The five symbols stay distinct when printed without colour."""
    from pnp.loading.loader import load_game, resolve_game_dir

    game = load_game(resolve_game_dir("persuasion-b04"))
    images = []
    for entry in game.sets["symbols"]:
        images.append((entry.id, _svg_gray(entry.art)))
    for i, (a, img_a) in enumerate(images):
        for b, img_b in images[i + 1 :]:
            diff = ImageStat.Stat(ImageChops.difference(img_a, img_b)).mean[0]
            assert diff > 20, f"{a} and {b} look alike in grayscale (mean difference {diff:.1f})"


def _svg_gray(svg: Path) -> Image.Image:
    """An SVG drawn 64 x 64 px in grayscale, through WeasyPrint and PDFium."""
    import tempfile

    from pnp.render.scope import Scope
    from pnp.render.dispatch import render_pdf

    html = f"<style>@page {{ size: 64px 64px; margin: 0 }} img {{ width: 64px; height: 64px; display: block }}</style><img src='{svg.as_uri()}'>"
    data = render_pdf(html, Scope((svg.parent,), ()), svg.name)
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        return rasterise(Path(handle.name), 1, 72).convert("L").resize((64, 64))

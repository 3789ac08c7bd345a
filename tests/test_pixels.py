"""Rendered cards compared as pixels with reviewed reference images.

A reference is a PNG under tests/golden/, looked at by a person when it was
made. On a mismatch the actual render is written to tests/_failures/ to look
at; set PNP_UPDATE_GOLDEN=1 to accept a deliberate change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from pnp.imposition.geometry import grid
from pnp.imposition.layouts import load_layouts, load_papers
from pnp.units import mm
from tests.pdftools import rasterise

GOLDEN = Path(__file__).parent / "golden"
FAILURES = Path(__file__).parent / "_failures"
DPI = 100
TOLERANCE = 2.0
"""Mean absolute difference per channel (0-255) allowed for anti-aliasing noise."""


def _slot_image(pdf: Path, page: int, slot_index: int, paper: str) -> Image.Image:
    g = grid(load_layouts()["poker-9up"], load_papers()[paper], mm(63.5), mm(88.9))
    image = rasterise(pdf, page, DPI)
    scale = DPI / 72
    slot = (g.fronts if page % 2 == 0 or page > 15 else g.backs)[slot_index]
    box = (
        round(slot.x * scale),
        round((g.paper.height - slot.top) * scale),
        round(slot.right * scale),
        round((g.paper.height - slot.y) * scale),
    )
    return image.crop(box)


def _compare(actual: Image.Image, name: str) -> None:
    reference = GOLDEN / f"{name}.png"
    if os.environ.get("PNP_UPDATE_GOLDEN") == "1":
        actual.save(reference)
    assert reference.exists(), f"no reference image {reference}; make one with PNP_UPDATE_GOLDEN=1 and look at it"
    expected = Image.open(reference).convert("RGB")
    if expected.size != actual.size:
        FAILURES.mkdir(exist_ok=True)
        actual.save(FAILURES / f"{name}.png")
        pytest.fail(f"{name}: size {actual.size} differs from the reference {expected.size}")
    diff = ImageStat.Stat(ImageChops.difference(expected, actual)).mean
    if max(diff) > TOLERANCE:
        FAILURES.mkdir(exist_ok=True)
        actual.save(FAILURES / f"{name}.png")
        pytest.fail(f"{name}: mean difference {max(diff):.2f} > {TOLERANCE}; actual in {FAILURES / name}.png")


@pytest.mark.parametrize(
    "name, page, slot",
    [
        ("b04-trait-front-extravagant", 2, 0),
        ("b04-trait-back", 3, 0),
        ("b04-crest-sleeve-ashford", 16, 0),
    ],
)
def test_card_matches_reference(b04_build: Path, name: str, page: int, slot: int) -> None:
    _compare(_slot_image(b04_build / "persuasion-b04-home-a4.pdf", page, slot, "a4"), name)


def test_comparison_catches_a_changed_card(b04_build: Path) -> None:
    """The same check must fail for a different card (it is not blind)."""
    other = _slot_image(b04_build / "persuasion-b04-home-a4.pdf", 2, 1, "a4")
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
    import io
    import tempfile

    import weasyprint

    html = f"<style>@page {{ size: 64px 64px; margin: 0 }} img {{ width: 64px; height: 64px; display: block }}</style><img src='{svg.as_uri()}'>"
    data = weasyprint.HTML(string=html).write_pdf()
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        return rasterise(Path(handle.name), 1, 72).convert("L").resize((64, 64))

"""Partisan's rendered faces compared as pixels with reviewed reference images
(this folder's golden/; see tests/pixels.py), and its suit icons told apart
by shape alone."""

from __future__ import annotations

import tempfile
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from pnp.loading.loader import load_game
from pnp.testing import DPI, TOLERANCE, compare, crop_face, rasterise

GAME = load_game(Path(__file__).resolve().parents[1])
GOLDEN = Path(__file__).parent / "golden"
HOME = "partisan-home-a4.pdf"

# One face of each kind, by page and place on the A4 build (page 1 is the
# instructions; each sheet of 9 cards is followed by its backs).
FACES = [
    ("partisan-ace-moons", 2, 0),
    ("partisan-author", 2, 6),  # a number card: rank 2, Moons and Knots
    ("partisan-back", 3, 0),
    ("partisan-harvest-pawn", 8, 3),
    ("partisan-huntress-crown", 10, 2),
    ("partisan-excuse", 10, 8),
    ("partisan-chip-moons-leader", 12, 0),
    ("partisan-chip-moons", 12, 1),
    ("partisan-aid-front", 14, 0),
    ("partisan-aid-back", 15, 0),
]


@pytest.mark.parametrize("name, page, index", FACES, ids=[f[0] for f in FACES])
def test_face_matches_reference(partisan_build: Path, name: str, page: int, index: int) -> None:
    compare(crop_face(partisan_build / HOME, page, index, DPI), GOLDEN, name)


def _differs(a: Image.Image, b: Image.Image) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB").resize(a.size))).mean)


def test_the_comparison_sees_a_different_card(partisan_build: Path) -> None:
    """The check above is not blind: the next card on the sheet (The Desert)
    fails against The Author's reference."""
    other = crop_face(partisan_build / HOME, 2, 7, DPI)
    assert _differs(other, Image.open(GOLDEN / "partisan-author.png")) > TOLERANCE


def test_the_leader_chip_differs_from_a_plain_one(partisan_build: Path) -> None:
    """The star shows at pixel level, so the comparison is not blind to it."""
    pdf = partisan_build / HOME
    leader, plain = crop_face(pdf, 12, 0, DPI), crop_face(pdf, 12, 1, DPI)
    assert _differs(leader, plain) > TOLERANCE
    assert _differs(leader, Image.open(GOLDEN / "partisan-chip-moons.png")) > TOLERANCE


def _silhouette(svg: Path) -> Image.Image:
    """An SVG drawn 96 x 96 px through WeasyPrint and PDFium, reduced to its
    shape: every pixel that is not paper is black, whatever its colour."""
    from pnp.render.dispatch import render_pdf
    from pnp.render.scope import Scope

    html = f"<style>@page {{ size: 96px 96px; margin: 0 }} img {{ width: 96px; height: 96px; display: block }}</style><img src='{svg.as_uri()}'>"
    data = render_pdf(html, Scope((svg.parent,), ()), svg.name)
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        grey = rasterise(Path(handle.name), 1, 72).convert("L").resize((96, 96))
    return grey.point(lambda v: 0 if v < 235 else 255)


SUITS = [(entry.id, entry.art) for entry in GAME.sets["suits"]]


@pytest.mark.parametrize("a, b", list(combinations(range(len(SUITS)), 2)), ids=lambda i: SUITS[i][0])
def test_the_suits_differ_by_shape_alone(a: int, b: int) -> None:
    """Printed in greyscale or seen without some colours, the six suits are
    still six shapes: their silhouettes (colour thrown away) differ on at least
    a fifth of the pixels either one covers."""
    (name_a, art_a), (name_b, art_b) = SUITS[a], SUITS[b]
    assert art_a is not None and art_b is not None
    one, two = _silhouette(art_a), _silhouette(art_b)
    pairs = list(zip(one.tobytes(), two.tobytes()))
    covered = sum(1 for x, y in pairs if x == 0 or y == 0)
    differ = sum(1 for x, y in pairs if (x == 0) != (y == 0))
    assert covered and differ / covered > 0.2, f"{name_a} and {name_b} share {1 - differ / covered:.0%} of their shape"

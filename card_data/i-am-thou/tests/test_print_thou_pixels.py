"""The faces of I am thou, thou art I compared as pixels with reviewed
reference images (golden/; tests/pixels.py; PNP_UPDATE_GOLDEN=1 re-makes them),
one of each kind of card and piece, from the A4 build."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from pnp.testing import DPI, TOLERANCE, compare, crop_face
from thou_print_build import built

GOLDEN = Path(__file__).parent / "golden"

# One face of each kind, by page and place on the A4 home file (page 1 is the
# instructions; each sheet of cards is followed by its backs).
FACES = [
    ("thou-npc-fool", 2, 0),
    ("thou-npc-star", 10, 1),  # secret and harmful tags
    ("thou-npc-back", 3, 0),
    ("thou-suit-wands", 14, 0),
    ("thou-suit-swords", 14, 3),
    ("thou-suit-back", 15, 0),
    ("thou-twist-group-decision", 16, 0),
    ("thou-twist-back", 17, 0),
    ("thou-aid-front", 16, 3),
    ("thou-aid-back", 17, 3),
    ("thou-slip", 20, 0),
    ("thou-round-track", 23, 0),
    ("thou-token-garnet", 24, 0),
    ("thou-token-third", 24, 30),
    ("thou-token-life", 24, 45),
    ("thou-token-shield", 24, 50),
]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built(tmp_path_factory, "a4")[0] / "i-am-thou-home-a4.pdf"


@pytest.mark.parametrize("name, page, index", FACES, ids=[f[0] for f in FACES])
def test_face_matches_reference(home: Path, name: str, page: int, index: int) -> None:
    compare(crop_face(home, page, index, DPI), GOLDEN, name)


def _differs(a: Image.Image, b: Image.Image) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB").resize(a.size))).mean)


def test_the_comparison_sees_a_different_card(home: Path) -> None:
    """Not blind: the Magician, beside the Fool, fails against the Fool's
    reference, and a whole Garnet against the third's."""
    assert _differs(crop_face(home, 2, 1, DPI), Image.open(GOLDEN / "thou-npc-fool.png")) > TOLERANCE
    assert _differs(crop_face(home, 24, 0, DPI), Image.open(GOLDEN / "thou-token-third.png")) > TOLERANCE

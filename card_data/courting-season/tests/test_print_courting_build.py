"""The Courting Season build (`pnp build courting-season --strict`, A4 and
Letter), read with independent tools: pikepdf for geometry, poppler's
pdftotext for text, PDFium renders for the dice's measured faces and the
pixel references (golden/; PNP_UPDATE_GOLDEN=1 re-makes them)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy
import pytest
from PIL import Image

from pnp.loading.loader import load_game
from tests.conftest import _shipped_build, tool
from tests.pdftools import circles_drawn, clip_rects, pdfinfo_pages, prose, qpdf_check, rasterise
from tests.pixels import DPI, compare

GAME = load_game(Path(__file__).resolve().parents[1])
GOLDEN = Path(__file__).parent / "golden"
MM = 72 / 25.4
PAPERS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}
# Instructions (2 pages), then fronts and backs of 48 characters, 44 influence
# cards and 5 summaries (sharing sheets, 9 a sheet on A4, 8 on Letter), the
# dice nets, the die labels, the Prestige tokens front and back.
PAGES = {"a4": {"home": 29, "rulebook": 5}, "letter": {"home": 32, "rulebook": 5}}


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _shipped_build(tmp_path_factory, "courting-season")


@pytest.fixture(scope="module")
def manifest(build: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((build / "manifest.json").read_text())


def _placed(manifest: dict, component: str, card: str, side: str = "at") -> tuple[int, tuple[float, ...]]:  # type: ignore[type-arg]
    """(page, box) where the manifest says the A4 build placed a card's face."""
    entry = next(c for comp in manifest["components"] if comp["id"] == component for c in comp["cards"] if c["id"] == card)
    return entry[side]["page"], tuple(entry[side]["box"])


def _crop(pdf: Path, page: int, box: tuple[float, ...], dpi: float) -> Image.Image:
    x, y, w, h = box
    image = rasterise(pdf, page, dpi)
    scale = dpi / 72
    top = image.size[1] / scale - y - h
    return image.crop((round(x * scale), round(top * scale), round(x * scale) + round(w * scale), round(top * scale) + round(h * scale)))


@pytest.mark.parametrize("paper", PAPERS)
def test_every_file_is_sound_and_the_paper_size(build: Path, paper: str) -> None:
    for part, pages in PAGES[paper].items():
        pdf = build / f"courting-season-{part}-{paper}.pdf"
        assert qpdf_check(pdf).returncode == 0
        sizes = pdfinfo_pages(pdf)
        assert len(sizes) == pages, (part, paper)
        assert all(size == pytest.approx(PAPERS[paper], abs=0.01) for size in sizes)


def test_the_build_printed_every_piece_once_a_copy(manifest: dict) -> None:  # type: ignore[type-arg]
    copies = {c["id"]: c["copies"] for c in manifest["components"]}
    assert copies == {c.id: c.copies for c in GAME.components}
    assert (copies["dice"], copies["die-labels"], copies["prestige"], copies["houses"]) == (2, 12, 54, 0)


def test_a_character_card_is_poker_size(build: Path, manifest: dict) -> None:  # type: ignore[type-arg]
    """The face as placed (read back from the page's clip paths with pikepdf)
    is the trim plus the 1.5 mm of bleed the layout shows on each side."""
    page, box = _placed(manifest, "characters", "clementina-merriweather")
    rects = clip_rects(build / "courting-season-home-a4.pdf", page)
    placed = next(r for r in rects if r[0] == pytest.approx(box[0], abs=0.01) and r[1] == pytest.approx(box[1], abs=0.01))
    assert (placed[2] / MM - 3, placed[3] / MM - 3) == (pytest.approx(63.5, abs=0.05), pytest.approx(88.9, abs=0.05))


def test_prestige_tokens_are_cut_on_one_inch_circles(build: Path, manifest: dict) -> None:  # type: ignore[type-arg]
    page, _ = _placed(manifest, "prestige", "10")
    circles = circles_drawn(build / "courting-season-home-a4.pdf", page)
    assert len(circles) == 54
    assert {round(2 * r / MM, 2) for _, _, r in circles} == {25.4}


def test_the_corner_numbers_of_a_known_card_are_text(build: Path, manifest: dict) -> None:
    """Miss Clementina Merriweather: Wit 4, Kindness 2, Standing 2, Wealth 4."""
    page, (x, y, w, h) = _placed(manifest, "characters", "clementina-merriweather")
    top = PAPERS["a4"][1] - y - h
    text = subprocess.run(
        [tool("pdftotext"), "-f", str(page), "-l", str(page), "-x", str(int(x)), "-y", str(int(top)), "-W", str(int(w)), "-H", str(int(h)),
         str(build / "courting-season-home-a4.pdf"), "-"], capture_output=True, text=True, check=True,
    ).stdout
    words = text.split()
    assert "MERRIWEATHER" in text.upper() and "prefers" in words and "Larkspur Lodge" in text  # its home, from houses.yaml
    assert sorted(w for w in words if w.isdigit()) == ["2", "2", "4", "4"]


# Where each face of a net lies in its piece (mm), worked out from the cross:
# four faces in a row 19 mm down, the first 6 mm in (its tab), the fifth above
# the second, the sixth below it.
NET_FACES = [(6, 19), (25, 19), (44, 19), (63, 19), (25, 0), (25, 38)]


def _face_colour(face: str) -> tuple[int, int, int]:
    swatch = GAME.palette["preference" if face == "preference" else f"trait-{face}"]
    return swatch.rgb


def test_every_die_face_measures_19_mm_on_a_render(build: Path, manifest: dict) -> None:  # type: ignore[type-arg]
    """Each face's square of colour, measured on a 600 dpi render of each
    net, is within 0.3 mm of the declared 19 mm both ways."""
    dpi = 600
    px = dpi / 25.4
    pdf = build / "courting-season-home-a4.pdf"
    page, _ = _placed(manifest, "dice", "die")
    nets = [r for r in clip_rects(pdf, page) if round(r[2] / MM) == 82 and round(r[3] / MM) == 57]
    assert len(nets) == 2
    faces = list(GAME.component("dice").cards[0].fields["faces"])
    for net in nets:
        image = _crop(pdf, page, net, dpi)
        for (fx, fy), face in zip(NET_FACES, faces):
            window = image.crop((round((fx - 1.5) * px), round((fy - 1.5) * px), round((fx + 20.5) * px), round((fy + 20.5) * px)))
            pixels = numpy.asarray(window, dtype=int)
            near = (numpy.abs(pixels - numpy.array(_face_colour(face))) <= 12).all(axis=2)
            grey = pixels.max(axis=2) - pixels.min(axis=2) < 6  # the lines' anti-aliased edges, the grey tabs
            ys, xs = numpy.nonzero(near & ~grey)
            width, height = (xs.max() - xs.min() + 1) / px, (ys.max() - ys.min() + 1) / px
            assert abs(width - 19) <= 0.3 and abs(height - 19) <= 0.3, (face, width, height)


def test_the_rulebook_names_our_people_and_none_of_the_seed(build: Path) -> None:
    text = " ".join(prose(build / "courting-season-rulebook-a4.pdf").split())
    for name in ("Lady Honoria Pellingham", "Sir Jasper Holloway", "Elmstead Manor", "The Naval Set", "Mr Felix Pellingham"):
        assert name in text, name
    for seed in ("Austen", "Matchmaker", "Darcy", "Emma", "Bennet", "Pemberley", "Virtue", "Charm", "Fortune", "Rank"):
        assert not re.search(rf"\b{seed}\b", text), seed


FACES = [
    ("cs-lady", "characters", "clementina-merriweather", "at"),
    ("cs-gentleman", "characters", "augustus-merriweather", "at"),
    ("cs-lady-back", "characters", "clementina-merriweather", "back_at"),
    ("cs-gentleman-back", "characters", "augustus-merriweather", "back_at"),
    ("cs-host", "influence", "host-hollowmere", "at"),
    ("cs-approval", "influence", "approval-ashcombe", "at"),
    ("cs-influence-back", "influence", "host-hollowmere", "back_at"),
    ("cs-summary-front", "summary", "turn-summary", "at"),
    ("cs-summary-back", "summary", "turn-summary", "back_at"),
    ("cs-die-net", "dice", "die", "at"),
    ("cs-label-heart", "die-labels", "die-5", "at"),
    ("cs-token-10", "prestige", "10", "at"),
]


@pytest.mark.parametrize("name, component, card, side", FACES, ids=[f[0] for f in FACES])
def test_face_matches_reference(build: Path, manifest: dict, name: str, component: str, card: str, side: str) -> None:  # type: ignore[type-arg]
    page, box = _placed(manifest, component, card, side)
    compare(_crop(build / "courting-season-home-a4.pdf", page, box, DPI), GOLDEN, name)


def test_the_token_sheet_matches_reference(build: Path, manifest: dict) -> None:  # type: ignore[type-arg]
    page, _ = _placed(manifest, "prestige", "1")
    compare(rasterise(build / "courting-season-home-a4.pdf", page, 40), GOLDEN, "cs-token-sheet")


def test_the_comparison_sees_a_different_card(build: Path, manifest: dict) -> None:  # type: ignore[type-arg]
    """The references are not blind: the lady next to Miss Clementina on the
    sheet fails against Miss Clementina's reference."""
    from PIL import ImageChops, ImageStat
    from tests.pixels import TOLERANCE

    page, box = _placed(manifest, "characters", "dorothea-merriweather")
    other = _crop(build / "courting-season-home-a4.pdf", page, box, DPI)
    reference = Image.open(GOLDEN / "cs-lady.png").convert("RGB").resize(other.size)
    assert max(ImageStat.Stat(ImageChops.difference(other, reference)).mean) > TOLERANCE

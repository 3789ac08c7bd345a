"""The shipped B04 build, checked with independent tools."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pikepdf
import pytest
import yaml

from pnp.imposition.geometry import grid
from pnp.loading.presets import load_layouts, load_papers
from pnp.units import mm
from tests.conftest import ROOT, b04_build, b04_manifest, run_pnp  # noqa: F401  (fixtures shared with tests/)
from tests.pdftools import (
    pdffonts,
    pdfinfo_pages,
    pdftotext,
    prose,
    qpdf_check,
    rasterise,
)

PAPERS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}
TRAITS = yaml.safe_load((ROOT / "card_data/persuasion-b04/traits.yaml").read_text())["cards"]


def _pdf(build: Path, paper: str) -> Path:
    return build / f"persuasion-b04-home-{paper}.pdf"


@pytest.mark.parametrize("paper", PAPERS)
def test_pdf_passes_qpdf_check(b04_build: Path, paper: str) -> None:
    result = qpdf_check(_pdf(b04_build, paper))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No syntax or stream encoding errors found" in result.stdout


@pytest.mark.parametrize("paper", PAPERS)
def test_every_font_is_embedded_and_ours(b04_build: Path, paper: str) -> None:
    fonts = pdffonts(_pdf(b04_build, paper))
    assert fonts
    for font in fonts:
        assert font["emb"] == "yes", font
        assert "EBGaramond" in re.sub(r"[ -]", "", font["name"]), f"a font not from fonts/: {font}"


# Pages of each component in the home PDF, in order (A4 and Letter alike).
SHEETS = {
    "traits": 7 * 2,  # 60 cards, 9 a sheet, each front sheet followed by its backs
    "crest-sleeves": 9,  # 80 one-sided
    "ring-sleeves": 2,
    "reference": 2,
    "letterboxes": 8,  # one board a sheet, turned
    "spreadsheets": 4,  # two a sheet, turned
    "crest-trackers": 2,  # 168 tokens, 150 a sheet
    "symbol-markers": 2,  # 40 two-sided tokens
}

# Component counts from the B04 rules (seed 000): copies, and unique faces.
SEED = {
    "traits": (60, 61),
    "crest-sleeves": (80, 8),
    "ring-sleeves": (8, 16),
    "reference": (8, 2),
    "letterboxes": (8, 8),
    "spreadsheets": (8, 1),
    "crest-trackers": (168, 8),
    "symbol-markers": (40, 10),
}


@pytest.mark.parametrize("paper", PAPERS)
def test_page_sizes_and_count(b04_build: Path, paper: str) -> None:
    pages = pdfinfo_pages(_pdf(b04_build, paper))
    assert len(pages) == 1 + sum(SHEETS.values())
    for width, height in pages:
        assert (width, height) == pytest.approx(PAPERS[paper], abs=0.01)


def test_every_trait_title_is_printed_on_its_sheet(b04_build: Path) -> None:
    pdf = _pdf(b04_build, "a4")
    everything = pdftotext(pdf)
    for card in TRAITS:
        assert card["title"] in everything, card["title"]
    # Sheet n (pages 2n, backs on 2n+1) carries cards 9(n-1)+1 .. 9n, in order.
    for sheet in range(7):
        front = pdftotext(pdf, 2 + 2 * sheet, 2 + 2 * sheet)
        for card in TRAITS[9 * sheet : 9 * sheet + 9]:
            assert card["title"] in front
        back = pdftotext(pdf, 3 + 2 * sheet, 3 + 2 * sheet)
        assert "Persuasion" in back and not any(c["title"] in back for c in TRAITS)


def _placements(page: pikepdf.Page) -> list[tuple[str, float, float, float, float]]:
    """(xobject name, trim x, trim y, width, height) of each face drawn on ``page``."""
    out = []
    ops = pikepdf.parse_content_stream(page)
    matrix = None
    for operands, operator in ops:
        if str(operator) == "cm":
            matrix = [float(v) for v in operands]
        elif str(operator) == "Do":
            name = str(operands[0])
            form = page.Resources.XObject[name]
            x0, y0, x1, y1 = (float(v) for v in form.BBox)
            bleed = mm(3)
            out.append((name, matrix[4] + x0 + bleed, matrix[5] + y0 + bleed, x1 - x0 - 2 * bleed, y1 - y0 - 2 * bleed))
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_written_slots_match_the_layout_and_backs_are_mirrored(b04_build: Path, paper: str) -> None:
    expected = grid(load_layouts()["poker-9up"], load_papers()[paper], mm(63.5), mm(88.9))
    with pikepdf.open(_pdf(b04_build, paper)) as pdf:
        fronts = _placements(pdf.pages[1])
        backs = _placements(pdf.pages[2])
        assert len(fronts) == len(backs) == 9
        for (_, x, y, w, h), slot in zip(fronts, expected.fronts):
            assert (x, y, w, h) == pytest.approx((slot.x, slot.y, slot.width, slot.height), abs=0.05)
        width = float(pdf.pages[2].mediabox[2])
        for (_, fx, fy, fw, _), (_, bx, by, _, _) in zip(fronts, backs):
            assert bx == pytest.approx(width - fx - fw, abs=0.05)
            assert by == pytest.approx(fy, abs=0.05)
        # Every back of the trait deck is the one shared face.
        assert len({name for name, *_ in backs}) == 1


def test_each_unique_face_is_stored_once(b04_build: Path) -> None:
    with pikepdf.open(_pdf(b04_build, "a4")) as pdf:
        forms = set()
        for page in pdf.pages[1:]:
            for _, xobject in page.Resources.XObject.items():
                forms.add(xobject.objgen)
    # Ring sleeves' backs are the crest sleeves' faces, so they are not stored again.
    assert len(forms) == 106


def test_ring_sleeve_backs_are_the_crest_sleeve_faces(b04_manifest: dict) -> None:
    components = {c["id"]: c for c in b04_manifest["components"]}
    crest_faces = {card["id"]: card["front"] for card in components["crest-sleeves"]["cards"]}
    for card in components["ring-sleeves"]["cards"]:
        assert card["back"] == crest_faces[card["id"]]


def test_manifest(b04_build: Path, b04_manifest: dict) -> None:
    m = b04_manifest
    assert m["game"] == "persuasion-b04"
    assert {(f["paper"], f["profile"]) for f in m["files"]} == {("a4", "home"), ("letter", "home")}
    for f in m["files"]:
        path = b04_build / f["path"]
        assert path.is_file() and not Path(f["path"]).is_absolute()
        assert f["pages"] == len(pdfinfo_pages(path))
    components = {c["id"]: c for c in m["components"]}
    assert {k: (c["copies"], c["faces"]) for k, c in components.items()} == SEED
    assert components["traits"]["name"] == "Trait cards"
    assert {f["path"] for f in m["files"]} >= {"persuasion-b04-rulebook-a4.pdf", "persuasion-b04-rulebook-letter.pdf"}


def test_list_json_matches_the_card_data() -> None:
    result = run_pnp("list", "persuasion-b04", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    traits, sleeves = data["components"][:2]
    assert (traits["id"], traits["copies"], len(traits["cards"])) == ("traits", 60, 60)
    assert [c["title"] for c in traits["cards"]] == [c["title"] for c in TRAITS]
    assert sleeves["copies"] == 80 and {c["copies"] for c in sleeves["cards"]} == {10}
    assert {"id", "title", "copies"} <= set(traits["cards"][0])


def test_instructions_page_tells_how_to_print(b04_build: Path) -> None:
    text = prose(_pdf(b04_build, "letter"), 1, 1)
    assert "100 %" in text and "US Letter" in text and "flip on the long edge" in text
    assert re.search(r"2\s*[–-]\s*15 Trait cards 60 card stock two-sided", text), text
    assert re.search(r"16\s*[–-]\s*24 Sealed crest sleeves 80 card stock one-sided", text), text
    assert re.search(r"41\s*[–-]\s*42 Crest trackers 168 card stock one-sided", text), text
    assert "persuasion-b04-rulebook-letter.pdf Rulebook plain paper" in text
    assert "crest trackers 15.9 mm" in text
    assert "50 mm" in text


@pytest.mark.parametrize("paper", PAPERS)
def test_calibration_square_measures_50_mm(b04_build: Path, paper: str) -> None:
    dpi = 200
    image = rasterise(_pdf(b04_build, paper), 1, dpi).convert("L")
    width, height = image.size
    pixels = image.load()
    # The square's top and bottom edges are the only dark rows 40 to 60 mm
    # long (the table's rules run the whole text width).
    dark_rows = {}
    for y in range(height // 3, height):
        xs = [x for x in range(width) if pixels[x, y] < 128]
        if xs and 40 < (max(xs) - min(xs)) / dpi * 25.4 < 60 and len(xs) > 0.9 * (max(xs) - min(xs)):
            dark_rows[y] = (min(xs), max(xs))
    assert dark_rows, "no calibration square found"
    top, bottom = min(dark_rows), max(dark_rows)
    left, right = dark_rows[top]
    side_mm_h = (right - left + 1) / dpi * 25.4
    side_mm_v = (bottom - top + 1) / dpi * 25.4
    assert side_mm_h == pytest.approx(50, abs=0.3)
    assert side_mm_v == pytest.approx(50, abs=0.3)

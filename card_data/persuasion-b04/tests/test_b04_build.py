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
from pnp.testing import game_folder, pdffonts, pdfinfo_pages, pdftotext, prose, qpdf_check, rasterise, run_pnp

PAPERS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}
TRAITS = yaml.safe_load((game_folder(__file__) / "traits.yaml").read_text())["cards"]


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


# Pages of each component in the home PDF, in order. Poker cards sit 9 to an
# A4 sheet and, turned, 8 to a Letter sheet (three rows with bleed gaps leave
# Letter no printable margin).
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
LETTER_SHEETS = SHEETS | {"traits": 8 * 2, "crest-sleeves": 10}
PAGES = {"a4": SHEETS, "letter": LETTER_SHEETS}
PER_SHEET = {"a4": 9, "letter": 8}

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
    assert len(pages) == 1 + sum(PAGES[paper].values())
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


FACE = (mm(63.5 + 6), mm(88.9 + 6))
"""A face's box: the card and its 3 mm of bleed all round."""


def _placements(page: pikepdf.Page) -> list[tuple[str | None, float, float, float, float]]:
    """(xobject name, or None for a face drawn in place; trim x, trim y,
    width, height) of each face drawn on ``page``: its box less the 3 mm
    bleed, through the placing matrix (which may turn it a quarter turn).
    A placement is a saved state holding a cm and then a form, or the
    face's own drawing a state deeper."""
    out: list[tuple[str | None, float, float, float, float]] = []
    matrix, name, depth = None, None, 0
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "Q" and depth == 1 and matrix is not None:
            a, b, c, d, e, f = matrix
            x0, y0, x1, y1 = (float(v) for v in page.Resources.XObject[name].BBox) if name else (0.0, 0.0, *FACE)
            bleed = mm(3)
            corners = [(a * x + c * y + e, b * x + d * y + f) for x in (x0 + bleed, x1 - bleed) for y in (y0 + bleed, y1 - bleed)]
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            out.append((name, min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
            matrix, name = None, None
        elif op == "cm" and depth == 1:
            matrix = [float(v) for v in operands]
        elif op == "Do" and depth == 1:
            name = str(operands[0])
        depth += {"q": 1, "Q": -1}.get(op, 0)
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_written_slots_match_the_layout_and_backs_are_mirrored(b04_build: Path, paper: str) -> None:
    expected = grid(load_layouts()["poker-9up"], load_papers()[paper], mm(63.5), mm(88.9))
    with pikepdf.open(_pdf(b04_build, paper)) as pdf:
        fronts = _placements(pdf.pages[1])
        backs = _placements(pdf.pages[2])
        assert len(fronts) == len(backs) == PER_SHEET[paper] == len(expected.fronts)
        for (_, x, y, w, h), slot in zip(fronts, expected.fronts):
            assert (x, y, w, h) == pytest.approx((slot.x, slot.y, slot.width, slot.height), abs=0.05)
        width = float(pdf.pages[2].mediabox[2])
        for (_, fx, fy, fw, _), (_, bx, by, _, _) in zip(fronts, backs):
            assert bx == pytest.approx(width - fx - fw, abs=0.05)
            assert by == pytest.approx(fy, abs=0.05)
        # Every back of the trait deck is the one shared face: one form, drawn by each.
        assert len({name for name, *_ in backs}) == 1 and backs[0][0] is not None


def test_each_unique_face_is_stored_once(b04_build: Path) -> None:
    """A face placed more than once is one form drawn by each placement; a
    face placed once is drawn in its sheet's stream: 106 faces in all."""
    with pikepdf.open(_pdf(b04_build, "a4")) as pdf:
        forms, in_place = set(), 0
        for page in pdf.pages[1:]:
            for name, *_ in _placements(page):
                if name is None:
                    in_place += 1
                else:
                    forms.add(page.Resources.XObject[name].objgen)
    # Ring sleeves' backs are the crest sleeves' faces, so they are not stored again.
    assert len(forms) + in_place == 106


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
    # Letter sheets hold 8 poker cards (turned), so 60 traits take 8 sheets.
    assert re.search(r"2\s*[–-]\s*17 Trait cards 60 card stock two-sided", text), text
    assert re.search(r"18\s*[–-]\s*27 Sealed crest sleeves 80 card stock one-sided", text), text
    assert re.search(r"44\s*[–-]\s*45 Crest trackers 168 card stock one-sided", text), text
    assert "persuasion-b04-rulebook-letter.pdf Rulebook plain paper" in text
    assert "crest trackers 15.9 mm" in text
    assert "50 mm" in text


@pytest.mark.parametrize("paper", PAPERS)
def test_calibration_square_measures_50_mm(b04_build: Path, paper: str) -> None:
    dpi = 200
    image = rasterise(_pdf(b04_build, paper), 1, dpi).convert("L")
    width, height = image.size
    pixels = image.load()
    # The square's top and bottom edges are the only rows with an unbroken
    # dark run 40 to 60 mm long (text is broken up; the table's rules run the
    # whole text width), wherever on the page the square sits.
    dark_rows = {}
    for y in range(height):
        run_start = None
        for x in range(width + 1):
            dark = x < width and pixels[x, y] < 128
            if dark and run_start is None:
                run_start = x
            elif not dark and run_start is not None:
                if 40 < (x - run_start) / dpi * 25.4 < 60:
                    dark_rows[y] = (run_start, x - 1)
                run_start = None
    assert dark_rows, "no calibration square found"
    top, bottom = min(dark_rows), max(dark_rows)
    left, right = dark_rows[top]
    side_mm_h = (right - left + 1) / dpi * 25.4
    side_mm_v = (bottom - top + 1) / dpi * 25.4
    assert side_mm_h == pytest.approx(50, abs=0.3)
    assert side_mm_v == pytest.approx(50, abs=0.3)


@pytest.mark.parametrize("paper", PAPERS)
def test_suitability_rows_are_labelled_in_writing_so_every_tracker_marks_symbols(b04_build: Path, b04_manifest: dict, paper: str) -> None:
    """The rules give each player 3 crest trackers a suitor, to mark what
    they learn of that suitor's symbols (seed 000, setup step 5). A row is
    labelled by writing the family in, so no tracker is spent on it: every
    row of every sheet has its write-in label, and the sheet says all the
    trackers go on symbols."""
    game = yaml.safe_load((game_folder(__file__) / "game.yaml").read_text())
    sheets = next(c for c in b04_manifest["components"] if c["id"] == "spreadsheets")["copies"]
    rows = game["players"]["max"] - 1
    text = pdftotext(_pdf(b04_build, paper))
    assert text.count("Family") == sheets * rows == 8 * 7
    words = prose(_pdf(b04_build, paper))
    trackers = game["rules"]["trackers_per_opponent"]
    note = f"Write a suitor’s family at the head of a row, then place their {trackers} crest trackers on the symbols"
    assert words.count(note) == sheets
    assert "tracker in the first column" not in words

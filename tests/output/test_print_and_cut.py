"""Print-and-cut (issue 42): registration marks where Silhouette Studio and
Cricut Design Space expect them, the pieces inside the area the machine
reads, and SVG and DXF cut paths in the same coordinates as the marks,
read back from the files (pikepdf, PDFium, the SVG and DXF text) as numbers."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from pnp.imposition.cutmarks import Registration, cut_grid, registration
from pnp.imposition.geometry import Rect
from pnp.loading.presets import load_layouts, load_papers, load_sizes
from pnp.loading.loader import load_game
from pnp.commands.common import load
from pnp.nets import boundary, cube_net
from pnp.output.home.pages import page_ranges
from pnp.output.home.plan import sheets_for
from pnp.render.faces import FacePlan
from pnp.output.cutfiles import Piece, cut_shape, svg
from pnp.output.profiles import load_profiles
from pnp.pdf.dieline import Edge, path
from pnp.units import mm, to_mm
from tests.conftest import ROOT, run_pnp
from tests.pdftools import circles_drawn, clip_rects, marks_drawn, operations, pdftotext, rasterise

TOLERANCE = 0.2
"""Millimetres: how far marks and cut paths may disagree."""


def test_silhouette_type1_marks_sit_at_the_studio_inset_on_letter() -> None:
    paper = load_papers()["letter"]
    marks = registration(load_profiles()["cut-silhouette"].cut, paper)  # type: ignore[arg-type]
    w, h = to_mm(paper.width), to_mm(paper.height)
    square, *arms = [(to_mm(m.x1), to_mm(m.y1), to_mm(m.x2), to_mm(m.y2), to_mm(m.weight)) for m in marks.marks]
    assert square == pytest.approx((10, h - 12.5, 15, h - 12.5, 5))  # a 5 mm square, its top-left corner 10 mm in
    corners = {(round(x, 3), round(y, 3)) for x1, y1, x2, y2, _ in arms for x, y in ((x1, y1), (x2, y2))}
    assert {(round(w - 10, 3), round(h - 10, 3)), (10, 10)} <= corners  # the L corners' centre lines, 10 mm in
    assert sorted(round(abs(x2 - x1) + abs(y2 - y1), 2) for x1, y1, x2, y2, _ in arms) == [20, 20, 20.25, 20.25]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_cards_on_a_silhouette_sheet_keep_clear_of_the_marks(paper: str) -> None:
    sheet = load_papers()[paper]
    marks = registration(load_profiles()["cut-silhouette"].cut, sheet)  # type: ignore[arg-type]
    width, height = load_sizes()["poker"]
    grid = cut_grid(load_layouts()["poker-9up"], sheet, marks, width, height)
    # On A4 eight turned cards fit between the marks, but the outer ones would
    # lie in the zones the sensor scans; the grid shortens the area instead.
    assert (grid.columns, grid.rows, grid.rotated, grid.marks) == (2, 3, True, marks.marks)
    shown = grid.gap / 2
    a = marks.area
    for r in grid.fronts + grid.backs:
        bled = Rect(r.x - shown, r.y - shown, r.width + 2 * shown, r.height + 2 * shown)
        assert a.x - 1e-6 <= bled.x and bled.right <= a.right + 1e-6 and a.y - 1e-6 <= bled.y and bled.top <= a.top + 1e-6
        assert not any(bled.overlaps(zone) for zone in marks.keep_clear)


def test_a_rounded_card_path_keeps_its_trim_and_corner_radius() -> None:
    numbers = [float(v) for v in re.findall(r"-?\d+\.\d+", path("rectangle", (0, 0, 100, 50), 10))]
    xs, ys = numbers[0::2], numbers[1::2]
    assert (min(xs), max(xs), min(ys), max(ys)) == (0, 100, 0, 50)
    assert path("rectangle", (1, 2, 11, 22)) == "1.000 2.000 10.000 20.000 re"  # the factory's die line is unchanged


def test_each_component_is_cut_to_its_own_shape(mini_copy: Path) -> None:
    game = mini_copy / "game.yaml"
    text = game.read_text().replace("size: poker\n    cards", "size: poker\n    corner_radius: 2mm\n    cards", 1)
    game.write_text(text.replace("    each: crests\n", "    each: crests\n    die_line: circle\n", 1))
    loaded = load_game(mini_copy)
    cut = load_profiles()["cut-silhouette"].cut
    assert cut is not None
    cards, sleeves = loaded.components
    assert cut_shape(loaded, cards, cut) == ("rectangle", pytest.approx(mm(2)))
    assert cut_shape(loaded, sleeves, cut) == ("circle", 0.0)
    assert cut_shape(loaded, replace(cards, corner_radius=None), cut) == ("rectangle", pytest.approx(mm(3.175)))


def registration_drawn(pdf: Path, page: int, marks: Registration) -> bool:
    """Every line of the registration ``marks`` is stroked on ``page`` (to 0.1 pt)."""
    drawn = {tuple(round(v, 1) for v in line[:4]) for line in marks_drawn(pdf, page)}
    return all((round(m.x1, 1), round(m.y1, 1), round(m.x2, 1), round(m.y2, 1)) in drawn for m in marks.marks)


def _svg_boxes(svg: str, height: float) -> list[tuple[float, float, float, float]]:
    """Each SVG path's end points' box (x0, y0, x1, y1), in mm, y up from the paper's foot."""
    boxes = []
    for d in re.findall(r'<path d="([^"]+)"', svg):
        tokens = d.replace("Z", "").split()
        points, i = [], 0
        while i < len(tokens):
            step = 8 if tokens[i] == "A" else 3
            points.append((float(tokens[i + step - 2]), height - float(tokens[i + step - 1])))
            i += step
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def _dxf_entities(text: str) -> list[dict[int, str]]:
    lines = text.splitlines()
    pairs = list(zip(lines[0::2], lines[1::2]))
    entities: list[dict[int, str]] = []
    for code, value in pairs:
        if code.strip() == "0":
            entities.append({0: value})
        elif entities:
            entities[-1][int(code)] = value
    return entities


@pytest.fixture(scope="module")
def silhouette(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cut")
    done = run_pnp("build", "tests/fixtures/mini", "--profile", "cut-silhouette", "--paper", "letter", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out / "mini"


def test_marks_and_cut_paths_share_coordinates(silhouette: Path) -> None:
    pdf = silhouette / "mini-cut-silhouette-letter.pdf"
    paper = load_papers()["letter"]
    height = to_mm(paper.height)
    for page in (2, 4):  # the cards' and the sleeves' front sheets
        drawn = marks_drawn(pdf, page)
        assert len(drawn) == 5  # the square and two L corners, two lines each; nothing else stroked
        ends = [(to_mm(v), to_mm(w)) for x1, y1, x2, y2, _ in drawn for v, w in ((x1, y1), (x2, y2))]
        top_right = max(ends, key=lambda p: p[0] + p[1])
        bottom_left = min(ends, key=lambda p: p[0] + p[1])
        # The L corners' lines run 10 mm in, the horizontal arm on past the corner by half its 0.5 mm width.
        assert top_right == pytest.approx((to_mm(paper.width) - 9.75, height - 10), abs=0.01)
        assert bottom_left == pytest.approx((9.75, 10), abs=0.01)
        svg = (silhouette / "mini-cut-silhouette-letter-cut" / f"page-{page:02d}.svg").read_text()
        cuts = _svg_boxes(svg, height)
        faces = [(to_mm(x), to_mm(y), to_mm(x + w), to_mm(y + h)) for x, y, w, h in clip_rects(pdf, page)]
        assert len(cuts) == len(faces) == 4
        for cut, face in zip(sorted(cuts), sorted(faces)):
            trim = (face[0] + 1.5, face[1] + 1.5, face[2] - 1.5, face[3] - 1.5)  # 1.5 mm of bleed shows round each
            # Each path lies where its face lies, measured from the marks the machine reads.
            for corner in (top_right, bottom_left):
                assert [c - corner[i % 2] for i, c in enumerate(cut)] == pytest.approx(
                    [t - corner[i % 2] for i, t in enumerate(trim)], abs=TOLERANCE
                )
        dxf_text = (silhouette / "mini-cut-silhouette-letter-cut" / f"page-{page:02d}.dxf").read_text()
        assert "$EXTMAX\n10\n215.9\n20\n279.4\n" in dxf_text  # the drawing's extents are the sheet
        dxf = _dxf_entities(dxf_text)
        lines = [(float(e[10]), float(e[20]), float(e[11]), float(e[21])) for e in dxf if e[0] == "LINE"]
        arcs = [e for e in dxf if e[0] == "ARC"]
        assert len(lines) == len(arcs) == 16 and {float(e[40]) for e in arcs} == {3.175}
        for x0, y0, x1, y1 in cuts:  # each card's right edge, between its rounded corners, in the DXF too
            assert any(
                a == pytest.approx(x1, abs=TOLERANCE) and c == pytest.approx(x1, abs=TOLERANCE) and min(b, d) == pytest.approx(y0 + 3.175, abs=TOLERANCE)
                for a, b, c, d in lines
            )
    assert marks_drawn(pdf, 3) == []  # a back sheet carries no marks


def test_the_art_stays_inside_the_machine_area_and_the_cuts_outside_the_pdf(silhouette: Path) -> None:
    pdf = silhouette / "mini-cut-silhouette-letter.pdf"
    marks = registration(load_profiles()["cut-silhouette"].cut, load_papers()["letter"])  # type: ignore[arg-type]
    a = marks.area
    for page in (2, 3, 4):
        for x, y, w, h in clip_rects(pdf, page):
            assert a.x - 1e-3 <= x and x + w <= a.right + 1e-3 and a.y - 1e-3 <= y and y + h <= a.top + 1e-3
            for zone in marks.keep_clear:
                assert not (x < zone.right and zone.x < x + w and y < zone.top and zone.y < y + h)
        assert circles_drawn(pdf, page) == []
        assert not [op for op, _ in operations(pdf, page, ("c",))]  # no curve: no rounded cut path printed


def test_the_printed_marks_are_where_the_numbers_say(silhouette: Path) -> None:
    image = rasterise(silhouette / "mini-cut-silhouette-letter.pdf", 2, 300)
    px = 300 / 25.4
    assert max(image.getpixel((round(12.5 * px), round(12.5 * px)))) < 60  # inside the square
    assert min(image.getpixel((round(8.5 * px), round(12.5 * px)))) > 200  # paper beside it
    w = image.size[0] / px
    assert max(image.getpixel((round((w - 10) * px), round(20 * px)))) < 60  # the top-right L's upright
    assert min(image.getpixel((round((w - 10 - 1.5) * px), round(20 * px)))) > 200


def test_the_instructions_send_players_to_the_cut_files_not_to_crop_marks(silhouette: Path) -> None:
    text = " ".join(pdftotext(silhouette / "mini-cut-silhouette-letter.pdf", 1, 1).split())
    assert "mini-cut-silhouette-letter-cut" in text and "Type 1" in text and "inset of 10 mm" in text
    assert "short marks in the margins" not in text and "marked at both ends" not in text


def test_cricut_frame_surrounds_the_largest_image_centred_on_a4() -> None:
    paper = load_papers()["a4"]
    marks = registration(load_profiles()["cut-cricut"].cut, paper)  # type: ignore[arg-type]
    assert (to_mm(marks.area.width), to_mm(marks.area.height)) == pytest.approx((171.45, 234.95))
    assert to_mm(marks.area.x) == pytest.approx((210 - 171.45) / 2)
    xs = sorted({round(to_mm(v), 3) for m in marks.marks for v in (m.x1, m.x2) if m.x1 == m.x2})
    assert xs == pytest.approx([to_mm(marks.area.x) - 6.35, to_mm(marks.area.right) + 6.35])
    assert marks.keep_clear == ()


def test_a_cricut_build_frames_its_pieces(tmp_path: Path) -> None:
    done = run_pnp("build", "tests/fixtures/mini", "--profile", "cut-cricut", "--paper", "a4", "--out", str(tmp_path), "--only", "cards")
    assert done.returncode == 0, done.stderr
    pdf = tmp_path / "mini" / "mini-cut-cricut-a4.pdf"
    frame = marks_drawn(pdf, 2)
    xs = sorted({round(to_mm(x1), 2) for x1, _, x2, _, _ in frame if x1 == x2})
    ys = sorted({round(to_mm(y1), 2) for _, y1, _, y2, _ in frame if y1 == y2})
    assert len(frame) == 4 and xs == pytest.approx([12.925, 197.075], abs=0.02) and ys == pytest.approx([24.675, 272.325], abs=0.02)
    svg = (tmp_path / "mini" / "mini-cut-cricut-a4-cut" / "page-02.svg").read_text()
    for x0, y0, x1, y1 in _svg_boxes(svg, 297):  # every cut inside the frame, 1/4 in and more from it
        assert xs[0] + 6.35 - TOLERANCE <= x0 and x1 <= xs[1] - 6.35 + TOLERANCE
        assert ys[0] + 6.35 - TOLERANCE <= y0 and y1 <= ys[1] - 6.35 + TOLERANCE


def test_a_cut_profile_refuses_gutterfold(tmp_path: Path) -> None:
    done = run_pnp("build", "tests/fixtures/mini", "--profile", "cut-cricut", "--gutterfold", "--paper", "a4", "--out", str(tmp_path))
    assert done.returncode == 2 and "print it duplex" in done.stderr and "Traceback" not in done.stderr


def test_a_card_too_big_for_the_area_is_printed_to_cut_by_hand(mini_copy: Path, tmp_path: Path) -> None:
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("size: poker\n    cards:", "size: {width: 180mm, height: 240mm}\n    cards:", 1))
    done = run_pnp("build", str(mini_copy), "--profile", "cut-cricut", "--paper", "a4", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "components.cards.layout" in done.stderr and "cutting machine's area" in done.stderr and "cut by hand" in done.stderr
    assert "components.sleeves" not in done.stderr
    pdf = tmp_path / "mini" / "mini-cut-cricut-a4.pdf"
    cut = tmp_path / "mini" / "mini-cut-cricut-a4-cut"
    marks = registration(load_profiles()["cut-cricut"].cut, load_papers()["a4"])  # type: ignore[arg-type]
    fronts = range(2, 2 + 2 * 4 + 2, 2)  # front sheets: one big card each, then the sleeves
    framed = [page for page in fronts if registration_drawn(pdf, page, marks)]
    assert framed == [10]  # the sleeves' sheet; the big cards get crop marks instead, to cut by hand
    assert all(marks_drawn(pdf, page) for page in fronts)
    assert sorted(p.name for p in cut.iterdir()) == ["page-10.dxf", "page-10.svg"]
    text = " ".join(pdftotext(pdf, 1, 1).split())
    assert "Cards (pages 2" in text and "too big for the 171 x 235 mm the machine cuts" in text and "cut these pages by hand" in text


@pytest.mark.parametrize("rotation", [0, 90, -90])
def test_a_die_net_is_cut_round_its_boundary_as_the_sheet_turns_it(rotation: int) -> None:
    game = load_game(ROOT / "card_data" / "courting-season")
    dice = next(c for c in game.components if c.net is not None)
    cut = load_profiles()["cut-silhouette"].cut
    assert cut is not None
    found = cut_shape(game, dice, cut)
    assert found is not None and not isinstance(found[0], str)
    outline = boundary(cube_net(), dice.net.face, dice.net.tab)  # type: ignore[union-attr]
    assert found[0] == outline
    w, h = dice.size.width, dice.size.height
    x0, y0 = 100.0, 200.0
    box = (x0, y0, x0 + (h if rotation else w), y0 + (w if rotation else h))
    # The piece's own (x right, y down from its top-left) point, on the sheet (y up), turned a quarter counter-clockwise or clockwise.
    expected = {
        0: [(x0 + px, box[3] - py) for px, py in outline],
        90: [(x0 + py, y0 + px) for px, py in outline],
        -90: [(x0 + h - py, y0 + w - px) for px, py in outline],
    }[rotation]
    parts = Piece(found[0], box, found[1], rotation).parts
    assert all(isinstance(p, Edge) for p in parts) and len(parts) == len(outline)
    assert [v for p in parts for v in (p.x0, p.y0)] == pytest.approx([v for q in expected for v in q])  # type: ignore[union-attr]
    assert [v for p in parts for v in (p.x1, p.y1)] == pytest.approx([v for q in expected[1:] + expected[:1] for v in q])  # type: ignore[union-attr]
    paths = re.findall(r'<path d="([^"]+)"', svg(load_papers()["a4"], [Piece(found[0], box, found[1], rotation)]).decode())
    assert len(paths) == 1 and paths[0].count(" L ") == len(outline)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_labels_stay_where_the_label_sheet_is_cut(paper: str) -> None:
    """A label sheet comes die-cut: its labels print where the product has
    them, without the machine's marks, with nothing to cut by hand or by machine."""
    game = load("persuasion-d01", False)
    seals = game.component("seals")
    plan = FacePlan((), {"seals": tuple((f"seal-{i}", None) for i in range(56))}, {})
    sheet = load_papers()[paper]
    cut = load_profiles()["cut-silhouette"].cut
    home = sheets_for(game, [seals], plan, sheet)["seals"]
    machine = sheets_for(game, [seals], plan, sheet, cut=cut)["seals"]
    assert [[p.slot for p in s.placements] for s in machine] == [[p.slot for p in s.placements] for s in home]
    assert not any(m.registration for s in machine for m in s.marks)
    parts = page_ranges({"seals": machine}, [seals], 2, game.layouts)
    assert [p["by_hand"] for p in parts] == [False]

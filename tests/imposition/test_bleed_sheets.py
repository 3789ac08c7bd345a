"""Home sheets with bleed between the cards: marks at least 5 mm inside every
sheet edge, the bleed shown past every trim, ticks across the gaps, the
butted alternative, --back-offset and the duplex registration test page."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from pnp.output.home.registration import BAND, LINE, STEPS
from pnp.imposition.geometry import Grid, LayoutError, Line, Rect, grid, gutterfold_grid, impose
from pnp.loading.presets import load_layouts, load_papers
from pnp.units import mm, to_mm
from tests.conftest import b04_build, run_pnp  # noqa: F401  (the shared B04 build fixture)
from tests.pdftools import clip_rects, pdftotext, rasterise

POKER = (mm(63.5), mm(88.9))
SIZES = [POKER, (mm(114), mm(172)), (mm(232), mm(128)), (mm(19.05), mm(19.05)), (mm(25.4), mm(25.4))]
"""Every size the shipped games put on a layout with marks or guides."""


def _grids(gutterfold: bool) -> list[tuple[str, str, Grid]]:
    out = []
    for name, layout in load_layouts().items():
        if gutterfold and layout.labels is not None:
            continue  # label sheets are never folded (a build prints them as they are)
        for paper in load_papers().values():
            for size in SIZES:
                try:
                    made = (gutterfold_grid if gutterfold else grid)(layout, paper, *size)
                except LayoutError:
                    continue
                out.append((name, paper.id, made))
    return out


def _box(m: Line) -> Rect:
    """What a mark inks: butt caps, so its stroke widens it sideways only."""
    if m.x1 == m.x2:
        return Rect(m.x1 - m.weight / 2, min(m.y1, m.y2), m.weight, abs(m.y2 - m.y1))
    return Rect(min(m.x1, m.x2), m.y1 - m.weight / 2, abs(m.x2 - m.x1), m.weight)


@pytest.mark.parametrize("gutterfold", [False, True])
def test_every_mark_is_5mm_inside_every_sheet_edge(gutterfold: bool) -> None:
    grids = _grids(gutterfold)
    assert {n for n, _, _ in grids} >= {"poker-9up", "poker-9up-butted", "grid", "grid-butted", "board", "tokens"}
    for name, paper, g in grids:
        for m in g.marks:
            box = _box(m)
            edge = min(box.x, box.y, g.paper.width - box.right, g.paper.height - box.top)
            assert to_mm(edge) >= 5 - 0.01, (name, paper, gutterfold, m)
        for c in g.guides:
            edge = min(c.cx - c.r, c.cy - c.r, g.paper.width - c.cx - c.r, g.paper.height - c.cy - c.r)
            assert to_mm(edge) >= 5 - 0.01, (name, paper, gutterfold, c)


@pytest.mark.parametrize("gutterfold", [False, True])
def test_the_bleed_every_face_shows_is_5mm_inside_every_sheet_edge(gutterfold: bool) -> None:
    for name, paper, g in _grids(gutterfold):
        if g.gap == 0:
            continue  # butted: a face shows no bleed
        for sheet in impose("deck", [("f", "b")] * g.per_sheet, g, bleed=mm(3)):
            for p in sheet.placements:
                c = p.clip
                edge = min(c.x, c.y, g.paper.width - c.right, g.paper.height - c.top)
                assert to_mm(edge) >= 5 - 0.01, (name, paper, gutterfold, c)


@pytest.mark.parametrize("gutterfold", [False, True])
def test_marks_never_cross_a_card_or_its_shown_bleed_except_the_cased_ticks(gutterfold: bool) -> None:
    for name, paper, g in _grids(gutterfold):
        shown = g.gap / 2
        for m in g.marks:
            if m.dashed:
                continue
            line = Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1))
            widened = Rect(line.x - 0.01, line.y - 0.01, line.width + 0.02, line.height + 0.02)
            for r in g.fronts + g.backs:
                assert not widened.overlaps(r, tolerance=0.02), (name, paper, m)  # never over a trim
                if not m.cased:
                    bleed = Rect(r.x - shown, r.y - shown, r.width + 2 * shown, r.height + 2 * shown)
                    assert not widened.overlaps(bleed, tolerance=0.02), (name, paper, m)


@pytest.mark.parametrize(
    "paper, columns, rows, turned, side_mm, end_mm",
    [("a4", 3, 3, False, 6.75, 12.15), ("letter", 2, 4, True, 17.55, 8.2)],
)
def test_poker_cards_sit_3mm_apart_nine_on_a4_eight_turned_on_letter(
    paper: str, columns: int, rows: int, turned: bool, side_mm: float, end_mm: float
) -> None:
    g = grid(load_layouts()["poker-9up"], load_papers()[paper], *POKER)
    assert (g.columns, g.rows, g.rotated) == (columns, rows, turned)
    assert to_mm(g.gap) == pytest.approx(3)
    assert to_mm(min(r.x for r in g.fronts)) == pytest.approx(side_mm, abs=1e-6)
    assert to_mm(min(r.y for r in g.fronts)) == pytest.approx(end_mm, abs=1e-6)
    xs = sorted({round(r.x, 4) for r in g.fronts})
    assert [round(to_mm(b - a), 4) for a, b in zip(xs, xs[1:])] == [round(to_mm(g.fronts[0].width) + 3, 4)] * (columns - 1)
    sheets = impose("deck", [("f", "b")] * g.per_sheet, g, bleed=mm(3))
    for placement in sheets[0].placements + sheets[1].placements:
        s, c = placement.slot, placement.clip
        assert [round(to_mm(v), 6) for v in (s.x - c.x, s.y - c.y, c.right - s.right, c.top - s.top)] == [1.5] * 4


def test_page_one_says_how_far_apart_each_kind_of_piece_sits(b04_build: Path) -> None:
    """Cards 3 mm apart, boards 6 mm (the board layout): said per piece, never "3 or 6 mm"."""
    assert (load_layouts()["poker-9up"].gap, load_layouts()["board"].gap) == (mm(3), mm(6))
    text = " ".join(pdftotext(b04_build / "persuasion-b04-home-a4.pdf", 1, 1).split())
    assert "The pieces sit apart (trait cards, sealed crest sleeves, ring sleeves and player aids 3 mm; letterbox boards and suitability spreadsheets 6 mm)" in text, text
    assert " or 6" not in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_cut_is_ticked_across_every_gap(paper: str) -> None:
    g = grid(load_layouts()["poker-9up"], load_papers()[paper], *POKER)
    left, right = min(r.x for r in g.fronts), max(r.right for r in g.fronts)
    bottom, top = min(r.y for r in g.fronts), max(r.top for r in g.fronts)
    # Cased marks within the block of cards (the rest are ticks in a margin too narrow for a plain mark).
    ticks = [
        m for m in g.marks
        if m.cased and left - 1e-3 <= min(m.x1, m.x2) and max(m.x1, m.x2) <= right + 1e-3
        and bottom - 1e-3 <= min(m.y1, m.y2) and max(m.y1, m.y2) <= top + 1e-3
    ]
    xs = {round(v, 3) for r in g.fronts for v in (r.x, r.right)}
    ys = {round(v, 3) for r in g.fronts for v in (r.y, r.top)}
    assert len(ticks) == len(xs) * (g.rows - 1) + len(ys) * (g.columns - 1)
    for t in ticks:
        at, edges = (t.x1, xs) if t.x1 == t.x2 else (t.y1, ys)
        assert min(abs(at - e) for e in edges) < 1e-3
        assert to_mm(abs(t.x2 - t.x1) + abs(t.y2 - t.y1)) == pytest.approx(3, abs=1e-4)
    # Every cut line is marked at least twice (margin marks and ticks together).
    for x in xs:
        assert sum(1 for m in g.marks if m.x1 == m.x2 and abs(m.x1 - x) < 1e-3) >= 2
    for y in ys:
        assert sum(1 for m in g.marks if m.y1 == m.y2 and abs(m.y1 - y) < 1e-3) >= 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_butted_layout_keeps_cards_edge_to_edge(paper: str) -> None:
    layouts = load_layouts()
    assert layouts["poker-9up"].butted == "poker-9up-butted" and layouts["grid"].butted == "grid-butted"
    g = grid(layouts["poker-9up-butted"], load_papers()[paper], *POKER)
    assert (g.columns, g.rows, g.gap) == (3, 3, 0.0)
    assert g.fronts[1].x == pytest.approx(g.fronts[0].right)
    assert not any(m.cased for m in g.marks)


def test_back_offset_moves_every_back_and_no_front() -> None:
    g = grid(load_layouts()["poker-9up"], load_papers()["a4"], *POKER)
    copies = [(f"f{i}", f"b{i}") for i in range(11)]
    plain = impose("deck", copies, g, mm(3))
    moved = impose("deck", copies, g, mm(3), (mm(0.8), mm(-0.5)))
    for a, b in zip(plain, moved):
        for p, q in zip(a.placements, b.placements):
            dx, dy = (0.8, -0.5) if a.side == "back" else (0.0, 0.0)
            assert to_mm(q.slot.x - p.slot.x) == pytest.approx(dx) and to_mm(q.slot.y - p.slot.y) == pytest.approx(dy)
            assert to_mm(q.clip.x - p.clip.x) == pytest.approx(dx) and to_mm(q.clip.y - p.clip.y) == pytest.approx(dy)


@pytest.fixture(scope="module")
def traits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    plain, moved = tmp_path_factory.mktemp("plain"), tmp_path_factory.mktemp("moved")
    for out, extra in ((plain, []), (moved, ["--back-offset", "0.8mm,-0.5mm"])):
        result = run_pnp("build", "persuasion-b04", "--only", "traits", "--out", str(out), *extra)
        assert result.returncode == 0, result.stderr
    return plain / "persuasion-b04", moved / "persuasion-b04"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_dark_back_shows_its_colour_past_every_trim(traits: tuple[Path, Path], paper: str) -> None:
    """Page 3 is the first sheet of trait backs (night blue): 1.45 mm past
    each side of every card's trim (the whole pixel short of the 1.5 mm a
    face shows), the outer edges included, the render is still that dark
    colour, and the paper between the sheet edge and the bleed stays white."""
    pdf = traits[0] / f"persuasion-b04-home-{paper}.pdf"
    dpi = 300
    image = rasterise(pdf, 3, dpi)
    scale = dpi / 72
    height = image.size[1] / scale
    shown = load_layouts()["poker-9up"].gap / 2
    assert to_mm(shown) == pytest.approx(1.5)
    for x, y, w, h in clip_rects(pdf, 3):
        trim = Rect(x + shown, y + shown, w - 2 * shown, h - 2 * shown)
        assert (to_mm(trim.width), to_mm(trim.height)) in (pytest.approx((63.5, 88.9)), pytest.approx((88.9, 63.5)))
        out = mm(1.45)
        for px, py in (
            (trim.x - out, trim.y + trim.height / 3), (trim.right + out, trim.y + trim.height / 3),
            (trim.x + trim.width / 3, trim.y - out), (trim.x + trim.width / 3, trim.top + out),
        ):
            r, g, b = image.getpixel((int(px * scale), int((height - py) * scale)))
            assert max(r, g, b) < 90, (paper, trim, px, py, (r, g, b))
    assert image.getpixel((int(mm(3) * scale), int(mm(3) * scale))) == (255, 255, 255)


def test_back_offset_moves_every_back_in_the_pdf(traits: tuple[Path, Path]) -> None:
    for paper in ("a4", "letter"):
        plain, moved = traits[0] / f"persuasion-b04-home-{paper}.pdf", traits[1] / f"persuasion-b04-home-{paper}.pdf"
        with pikepdf.open(plain) as document:
            pages = len(document.pages)
        for page in range(2, pages + 1):
            dx, dy = (0.8, -0.5) if page % 2 == 1 else (0.0, 0.0)  # page 1 instructions, then front, back ...
            a, b = clip_rects(plain, page), clip_rects(moved, page)
            assert len(a) == len(b) > 0
            for p, q in zip(a, b):
                assert to_mm(q[0] - p[0]) == pytest.approx(dx, abs=1e-3) and to_mm(q[1] - p[1]) == pytest.approx(dy, abs=1e-3)


def test_a_bad_back_offset_is_refused(tmp_path: Path) -> None:
    result = run_pnp("build", "persuasion-b04", "--back-offset", "0.8mm", "--out", str(tmp_path))
    assert result.returncode == 2 and "--back-offset" in result.stderr and "Traceback" not in result.stderr


def _dark_columns(image, row: int, x0: int, x1: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Centres of the dark runs along one pixel row."""
    runs, start = [], None
    for x in range(x0, x1):
        dark = max(image.getpixel((x, row))) < 128
        if dark and start is None:
            start = x
        if not dark and start is not None:
            runs.append((start + x - 1) / 2)
            start = None
    return runs


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_registration_test_page_has_its_lines_where_they_belong(b04_build: Path, paper: str) -> None:
    pdf = b04_build / f"registration-test-{paper}.pdf"  # written by a whole duplex build, not by --only
    with pikepdf.open(pdf) as document:
        assert len(document.pages) == 2
    dpi = 600
    px = dpi / 25.4
    width = to_mm(load_papers()[paper].width)
    front, back = rasterise(pdf, 1, dpi), rasterise(pdf, 2, dpi)
    # The front's top reference line, at the middle of the sheet.
    found = _dark_columns(front, int((BAND + LINE / 2) * px), int((width / 2 - 5) * px), int((width / 2 + 5) * px))
    assert len(found) == 1 and found[0] / px == pytest.approx(width / 2, abs=0.06)
    # The back's ladder behind it: 13 lines 0.5 mm apart, centred on the same place.
    found = _dark_columns(back, int((BAND + LINE + 2) * px), int((width / 2 - 5) * px), int((width / 2 + 5) * px))
    assert [round(x / px - width / 2, 1) for x in found] == [pytest.approx(s, abs=0.06) for s in STEPS]
    assert "--back-offset" in pdftotext(pdf, 1, 1).replace("\u2013", "--")

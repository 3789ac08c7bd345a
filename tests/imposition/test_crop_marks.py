"""Crop marks a paper trimmer can align to: every cut line marked at both of
its ends in the margins, inside the home printable area, and only the lines
that bound a placed piece (the empty slots of a last sheet get none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.output.profiles import profile
from pnp.imposition.geometry import Line, Rect, grid, gutterfold_grid, impose, impose_gutterfold
from pnp.imposition.marks import SHORTEST_MARK
from pnp.loading.presets import load_layouts, load_papers
from pnp.units import mm, to_mm
from tests.conftest import d01_build  # noqa: F401  (the shared D01 build fixture)
from tests.imposition.test_bleed_sheets import POKER, _box, _grids
from tests.pdftools import clip_rects, marks_drawn, operations, pdfinfo_pages, prose

EPS = 1e-3


def _printable() -> float:
    margin = profile("home").printable_margin
    assert margin is not None and to_mm(margin) == pytest.approx(5)
    return margin


def _lines(slots: tuple[Rect, ...], vertical: bool) -> list[float]:
    return sorted({round(v, 3) for r in slots for v in ((r.x, r.right) if vertical else (r.y, r.top))})


def _ends(marks: tuple[Line, ...] | list[Line], at: float, vertical: bool, low: float, high: float) -> tuple[bool, bool]:
    """Whether a mark on the line ``at`` lies beyond ``low`` and one beyond ``high`` (the block's outer trims)."""
    on = [m for m in marks if (m.x1 == m.x2 if vertical else m.y1 == m.y2) and abs((m.x1 if vertical else m.y1) - at) < EPS]
    spans = [(min(m.y1, m.y2), max(m.y1, m.y2)) if vertical else (min(m.x1, m.x2), max(m.x1, m.x2)) for m in on]
    return any(hi <= low + EPS for _, hi in spans), any(lo >= high - EPS for lo, _ in spans)


def test_every_cut_line_has_a_mark_at_both_ends_inside_the_printable_area() -> None:
    """Every layout with crop marks, on both papers, for every size the
    games use: each card edge line, vertical and horizontal, has a mark in
    the margin at each end, unless the margin is narrower than the printable
    edge plus SHORTEST_MARK, which only a butted sheet's can be."""
    printable = _printable()
    checked = 0
    for name, paper, g in _grids(gutterfold=False):
        if load_layouts()[name].crop_marks is None:
            continue
        left, right = min(r.x for r in g.fronts), max(r.right for r in g.fronts)
        bottom, top = min(r.y for r in g.fronts), max(r.top for r in g.fronts)
        rooms = {
            True: (bottom - printable, g.paper.height - printable - top),
            False: (left - printable, g.paper.width - printable - right),
        }
        for vertical, (low, high) in ((True, (bottom, top)), (False, (left, right))):
            for at in _lines(g.fronts, vertical):
                for found, room in zip(_ends(g.marks, at, vertical, low, high), rooms[vertical]):
                    if room < SHORTEST_MARK - EPS:
                        assert g.gap == 0 and not found, (name, paper, at)  # a butted sheet's narrow margin
                    else:
                        assert found, (name, paper, vertical, to_mm(at))
                        checked += 1
        for m in g.marks:
            box = _box(m)
            assert min(box.x, box.y, g.paper.width - box.right, g.paper.height - box.top) >= printable - EPS, (name, paper, m)
    assert checked > 1000


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_sheets_mark_every_cut_in_the_margins_as_numbers(paper: str) -> None:
    """A4's sides (trims 6.75 mm from the edge) and Letter's ends (8.2 mm)
    have no room past the bleed inside the printable 5 mm: a white-cased tick
    runs from the trim to the printable edge there. Elsewhere a 4 mm mark
    starts 1 mm past the 1.5 mm of bleed."""
    g = grid(load_layouts()["poker-9up"], load_papers()[paper], *POKER)
    width, height = to_mm(g.paper.width), to_mm(g.paper.height)
    side, end = (6.75, 12.15) if paper == "a4" else (17.55, 8.2)
    expected = set()
    for x in _lines(g.fronts, vertical=True):
        if paper == "a4":  # marks 2.5 mm to 6.5 mm past the trim
            spans = [(end - 6.5, end - 2.5, False), (height - end + 2.5, height - end + 6.5, False)]
        else:  # ticks from the trim to 5 mm from the edge
            spans = [(5, end, True), (height - end, height - 5, True)]
        expected |= {(round(to_mm(x), 3), lo, hi, "vertical", cased) for lo, hi, cased in spans}
    for y in _lines(g.fronts, vertical=False):
        if paper == "a4":
            spans = [(5, side, True), (width - side, width - 5, True)]
        else:
            spans = [(side - 6.5, side - 2.5, False), (width - side + 2.5, width - side + 6.5, False)]
        expected |= {(round(to_mm(y), 3), lo, hi, "horizontal", cased) for lo, hi, cased in spans}
    outer = [m for m in g.marks if not (m.cased and _inside(m, _block(g.fronts)))]
    got = set()
    for m in outer:
        vertical = m.x1 == m.x2
        at, lo, hi = (m.x1, min(m.y1, m.y2), max(m.y1, m.y2)) if vertical else (m.y1, min(m.x1, m.x2), max(m.x1, m.x2))
        got.add((round(to_mm(at), 3), round(to_mm(lo), 3), round(to_mm(hi), 3), "vertical" if vertical else "horizontal", m.cased))
    assert got == {(at, round(lo, 3), round(hi, 3), kind, cased) for at, lo, hi, kind, cased in expected}


def _block(slots: tuple[Rect, ...] | list[Rect]) -> Rect:
    left, bottom = min(r.x for r in slots), min(r.y for r in slots)
    return Rect(left, bottom, max(r.right for r in slots) - left, max(r.top for r in slots) - bottom)


def _inside(m: Line, block: Rect) -> bool:
    """Within the block of a full sheet's items: a tick across a gap between two of them."""
    return all(block.x - EPS <= v <= block.right + EPS for v in (m.x1, m.x2)) and all(
        block.y - EPS <= v <= block.top + EPS for v in (m.y1, m.y2)
    )


def _bounds(m: Line, placed: list[Rect], block: Rect) -> bool:
    """The mark lies on an edge line of a placed item, in the margin beyond
    the full sheet's ``block`` or, across a gap, touching that item."""
    vertical = m.x1 == m.x2
    for r in placed:
        if not any(abs((m.x1 if vertical else m.y1) - e) < EPS for e in ((r.x, r.right) if vertical else (r.y, r.top))):
            continue
        ends = (m.y1, m.y2) if vertical else (m.x1, m.x2)
        sides = (r.y, r.top) if vertical else (r.x, r.right)
        if not _inside(m, block) or any(abs(a - b) < EPS for a in ends for b in sides):
            return True
    return False


def test_the_empty_slots_of_a_last_sheet_get_no_marks() -> None:
    g = grid(load_layouts()["poker-9up"], load_papers()["a4"], *POKER)
    sheets = impose("deck", [(f"f{i}", "b") for i in range(11)], g, mm(3))
    assert [len(s.placements) for s in sheets] == [9, 9, 2, 2]
    assert sheets[0].marks == g.marks
    last = sheets[2]
    placed = [p.slot for p in last.placements]
    assert all(_bounds(m, placed, _block(g.fronts)) for m in last.marks)
    # Two cards side by side at the top: 4 vertical lines and 2 horizontal
    # ones, marked at both ends (12); ticks across the gap below them (4) and
    # across the column gaps beside them (2 + 2).
    assert len(last.marks) == 4 * 2 + 2 * 2 + 4 + 2 + 2
    assert not sheets[3].marks
    fold = gutterfold_grid(load_layouts()["poker-9up"], load_papers()["a4"], *POKER)
    folded = impose_gutterfold("deck", [("f", "b")] * (fold.per_sheet + 1), fold)
    assert folded[0].marks == fold.marks
    assert 1 <= sum(m.dashed for m in folded[1].marks) and len(folded[1].marks) < len(fold.marks)
    placed = [p.slot for p in folded[1].placements]
    assert all(_bounds(m, placed, _block(fold.fronts)) or _bounds(m, placed, _block(fold.backs)) for m in folded[1].marks if not m.dashed)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_d01_sheets_mark_every_cut_of_their_cards_and_no_other(d01_build: Path, paper: str) -> None:
    """Read back from the PDF: on every card sheet with marks, each edge line
    of each placed card has a mark at both ends beyond the cards, every mark
    lies inside the printable area, on an edge line of a placed card, over no
    card and (unless cased) over no card's bleed."""
    pdf = d01_build / f"persuasion-d01-home-{paper}.pdf"
    printable = _printable()
    full = grid(load_layouts()["poker-9up"], load_papers()[paper], *POKER)
    block = _block(full.fronts)
    shown = full.gap / 2
    checked = []
    for page, (width, height) in enumerate(pdfinfo_pages(pdf), start=1):
        drawn = marks_drawn(pdf, page)
        if page == 1 or not drawn:
            continue
        clips = [Rect(*c) for c in clip_rects(pdf, page)]
        trims = [Rect(c.x + shown, c.y + shown, c.width - 2 * shown, c.height - 2 * shown) for c in clips]
        assert {(round(to_mm(t.width), 1), round(to_mm(t.height), 1)) for t in trims} <= {(63.5, 88.9), (88.9, 63.5)}
        marks = [Line(x1, y1, x2, y2, 0.5, cased=cased) for x1, y1, x2, y2, cased in drawn]
        low_x, high_x = min(t.x for t in trims), max(t.right for t in trims)
        low_y, high_y = min(t.y for t in trims), max(t.top for t in trims)
        for vertical, (low, high) in ((True, (low_y, high_y)), (False, (low_x, high_x))):
            for at in _lines(tuple(trims), vertical):
                assert _ends(marks, at, vertical, low, high) == (True, True), (paper, page, vertical, to_mm(at))
        for m in marks:
            box = _box(m)
            assert min(box.x, box.y, width - box.right, height - box.top) >= printable - EPS, (paper, page, m)
            assert _bounds(m, trims, block), (paper, page, m)
            assert not any(box.overlaps(t, tolerance=0.05) for t in trims), (paper, page, m)
            assert m.cased or not any(box.overlaps(c, tolerance=0.05) for c in clips), (paper, page, m)
        checked.append((page, len(trims)))
    assert sum(n for _, n in checked) == 57 + 9 + 1 + 8 + 8  # traits, desires, matrimony, actions, letterboxes
    assert any(n < full.per_sheet for _, n in checked)  # a component's last sheet, not full
    assert "Each cut is marked at both ends by short lines in the margins" in prose(pdf, 1, 1)


def test_a_sheet_sets_the_style_of_its_marks_once_per_kind(d01_build: Path) -> None:
    """A sheet's dozens of marks are of a kind or two (a white casing, a
    black line): its content sets the grey, dash and width where they
    change, not once a line, and draws every mark still."""
    pdf = d01_build / "persuasion-d01-home-a4.pdf"
    widths = operations(pdf, 2, ("w",))
    marks = marks_drawn(pdf, 2)
    assert len(marks) >= 24
    assert len(widths) == len({tuple(numbers) for _, numbers in widths}) <= 2

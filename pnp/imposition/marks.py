"""Crop marks and gap ticks: where a sheet's cut lines are marked, in PDF
points from its bottom-left corner, each mark with the slots whose edges it
marks (so a half-filled sheet carries only the marks of its pieces).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnp.imposition.shapes import Line, Rect
from pnp.model import Paper, SheetLayout
from pnp.units import mm

SHORTEST_MARK = mm(1.5)
"""A crop mark squeezed shorter than this by the margin is left out."""

Served = tuple[int, ...]
"""The slots (by index) whose edges a mark marks."""


def crop_marks(layout: SheetLayout, slots: Sequence[Rect], paper: Paper) -> list[tuple[Line, Served]]:
    """Marks in the margins, on every card edge line at both of its ends,
    each with the slots whose edge it marks, never nearer the paper edge than
    ``min_margin`` (where most printers cannot print): see :func:`_reach`."""
    spec = layout.crop_marks
    if spec is None:
        return []
    left = min(r.x for r in slots)
    right = max(r.right for r in slots)
    bottom = min(r.y for r in slots)
    top = max(r.top for r in slots)
    near, far_x, far_y = layout.min_margin, paper.width - layout.min_margin, paper.height - layout.min_margin
    below, above = _reach(layout, bottom, near), _reach(layout, top, far_y)
    before, after = _reach(layout, left, near), _reach(layout, right, far_x)
    marks = []
    for x in _lines(slots, vertical=True):
        serves = tuple(i for i, r in enumerate(slots) if _on(x, r.x, r.right))
        marks += [(Line(x, a, x, b, spec.weight, cased=cased), serves) for a, b, cased in (below, above) if a != b]
    for y in _lines(slots, vertical=False):
        serves = tuple(i for i, r in enumerate(slots) if _on(y, r.y, r.top))
        marks += [(Line(a, y, b, y, spec.weight, cased=cased), serves) for a, b, cased in (before, after) if a != b]
    return marks


def _reach(layout: SheetLayout, trim: float, edge: float) -> tuple[float, float, bool]:
    """Where the marks between the cards' outer trim line ``trim`` and the
    printable edge ``edge`` run (from, to, cased), so a paper trimmer has a
    mark at both ends of every cut.

    Where the margin has room, a mark starts ``offset`` past the bleed a face
    shows and runs ``length`` (or to the printable edge, if no shorter than
    SHORTEST_MARK). Where it has not (A4's sides beside three poker cards
    3 mm apart: 5.25 mm of paper past the bleed, all but 0.25 mm of it where
    printers print nothing), the mark is a tick from the trim out to the
    printable edge, over the bleed the outer card shows and cased in white as
    the ticks across the gaps are. A margin too narrow even for that (a
    butted sheet's 6.35 mm) gets no mark: from == to."""
    spec = layout.crop_marks
    assert spec is not None
    room, out = abs(edge - trim), math.copysign(1.0, edge - trim)
    start = layout.gap / 2 + spec.offset  # past the bleed a face may show
    if room - start >= SHORTEST_MARK - 1e-6:
        return trim + out * start, trim + out * (start + min(spec.length, room - start)), False
    reach = min(room, start + spec.length)
    if reach >= SHORTEST_MARK - 1e-6:
        return trim, trim + out * reach, layout.gap > 0
    return trim, trim, False


def _lines(slots: Sequence[Rect], vertical: bool) -> list[float]:
    """Every cut line: the slots' left and right (or bottom and top) edges."""
    return sorted({round(v, 4) for r in slots for v in ((r.x, r.right) if vertical else (r.y, r.top))})


def _on(line: float, *edges: float) -> bool:
    return any(abs(line - e) < 1e-3 for e in edges)


def gap_ticks(layout: SheetLayout, slots: Sequence[Rect]) -> list[tuple[Line, Served]]:
    """Cut ticks across the gaps between rows and between columns, on every
    card edge, cased in white so they show over a dark bleed, each with the
    slots beside it whose edge it marks.

    A ruler laid through two ticks gives the cut, and a strip cut from the
    sheet still carries the ticks of its next cuts."""
    spec = layout.crop_marks
    if spec is None or not spec.in_gaps or layout.gap <= 0:
        return []
    ticks = []
    for y_lo, y_hi in _gaps([(r.y, r.top) for r in slots]):
        for x in _lines(slots, vertical=True):
            serves = tuple(i for i, r in enumerate(slots) if _on(x, r.x, r.right) and (_on(r.top, y_lo) or _on(r.y, y_hi)))
            ticks.append((Line(x, y_lo, x, y_hi, spec.weight, cased=True), serves))
    for x_lo, x_hi in _gaps([(r.x, r.right) for r in slots]):
        for y in _lines(slots, vertical=False):
            serves = tuple(i for i, r in enumerate(slots) if _on(y, r.y, r.top) and (_on(r.right, x_lo) or _on(r.x, x_hi)))
            ticks.append((Line(x_lo, y, x_hi, y, spec.weight, cased=True), serves))
    return ticks


def _gaps(spans: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The empty stretches between neighbouring rows (or columns) of spans."""
    ordered = sorted({(round(a, 4), round(b, 4)) for a, b in spans})
    return [(a[1], b[0]) for a, b in zip(ordered, ordered[1:]) if b[0] > a[1] + 1e-6]

"""Print-and-cut: the registration marks a cutting machine's optical sensor
reads, the part of the sheet it can cut, and the grid of pieces inside it.

Geometry in PDF points, origin at the sheet's bottom-left corner, as in
:mod:`pnp.imposition.geometry`. The marks are plain black :class:`Line`\\ s
(a filled square is one line as thick as it is long), so they are drawn,
and read back by tests, like crop marks. Where each machine expects them
(docs/card-data.md, Print-and-cut, gives the sources):

- Silhouette Studio "Type 1" (Cameo, Portrait, Curio): a filled square at
  the top-left and L-shaped corners at the top-right and bottom-left, their
  outer corners ``inset`` from the paper's edges; the sensor scans a zone
  around each, so no art comes within ``length + clear`` of a mark's corner.
- Cricut Design Space print-then-cut: a black rectangle framing an image
  of at most ``area`` (6.75 x 9.25 in on Letter or A4), here centred on the
  paper, its line ``inset`` outside the image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pnp.imposition.geometry import Grid, LayoutError, Line, Rect, Sheet, grid
from pnp.model import Paper, SheetLayout
from pnp.schema.scalars import Choice, Length
from pnp.schema.spec import ListOf, key
from pnp.units import to_mm

Machine = Literal["silhouette", "cricut"]


@dataclass(frozen=True)
class CutMarks:
    """A print-and-cut profile's marks, as data (``cut:`` in a profile)."""

    machine: Machine = key(Choice(("silhouette", "cricut")), "Whose marks: silhouette (Studio Type 1) or cricut (Design Space frame).")
    inset: float = key(Length(3, 40), "silhouette: the marks' outer corners from the paper edges; cricut: the frame's line outside the image.")
    weight: float = key(Length(0.1, 3), "The width of the marks' lines.")
    clear: float = key(Length(0, 20), "Bare paper kept between any mark and the art.")
    length: float = key(Length(0, 60), "silhouette: the arm of each L-shaped corner mark, and the zone kept clear around each mark.", 0.0)
    square: float = key(Length(0, 20), "silhouette: the side of the filled square at the top-left.", 0.0)
    area: Sequence[float] | None = key(ListOf(Length(10, 1000), 2, 2), "cricut: the largest image it cuts, [width, height].", None)
    corner: float = key(Length(0, 20), "The corner radius cards are cut with when their component gives none.", 0.0)


@dataclass(frozen=True)
class Registration:
    """What a cut sheet carries: its marks, where art may go, and the zones
    within that where it may not (the sensor's view around each mark)."""

    marks: tuple[Line, ...]
    area: Rect
    keep_clear: tuple[Rect, ...]
    reach: float = 0.0
    """How far the keep-clear zones reach into the area from its edges."""


def registration(cut: CutMarks, paper: Paper) -> Registration:
    """The marks of a ``cut`` profile on ``paper``, and the art's room."""
    w, h, t = paper.width, paper.height, cut.weight
    if cut.machine == "cricut":
        aw, ah = cut.area or (w, h)
        x0, y0 = (w - aw) / 2, (h - ah) / 2
        area = Rect(x0, y0, aw, ah)
        left, bottom, right, top = x0 - cut.inset, y0 - cut.inset, x0 + aw + cut.inset, y0 + ah + cut.inset
        frame = (
            Line(left - t / 2, bottom, right + t / 2, bottom, t, registration=True), Line(right, bottom, right, top, t, registration=True),
            Line(right + t / 2, top, left - t / 2, top, t, registration=True), Line(left, top, left, bottom, t, registration=True),
        )
        return Registration(frame, area, ())
    i, arm, s = cut.inset, cut.length, cut.square
    marks = (
        Line(i, h - i - s / 2, i + s, h - i - s / 2, s, registration=True),  # the filled square, top-left
        Line(w - i - arm, h - i, w - i + t / 2, h - i, t, registration=True),  # top-right L
        Line(w - i, h - i, w - i, h - i - arm, t, registration=True),
        Line(i + arm, i, i - t / 2, i, t, registration=True),  # bottom-left L
        Line(i, i, i, i + arm, t, registration=True),
    )
    edge = i + t / 2 + cut.clear
    zone = max(arm, s) + cut.clear
    area = Rect(edge, edge, w - 2 * edge, h - 2 * edge)
    keep_clear = (Rect(i, h - i - zone, zone, zone), Rect(w - i - zone, h - i - zone, zone, zone), Rect(i, i, zone, zone))
    return Registration(marks, area, keep_clear, i + zone - edge)


def by_machine(sheets: Sequence[Sheet]) -> bool:
    """The ``sheets`` carry registration marks: the machine cuts their pieces
    (a component too big for its area is laid out for cutting by hand)."""
    return any(m.registration for s in sheets for m in s.marks)


def cut_grid(layout: SheetLayout, paper: Paper, marks: Registration, width: float, height: float) -> Grid:
    """``layout``'s grid of ``width`` x ``height`` items (with its gap and
    turning) fitted inside the marks' area, clear of the zones around the
    marks: the roomiest of the whole area and the area shortened at the
    ends, at the sides, or both. No crop marks or cutting circles are printed
    (the machine cuts); the sheet carries the registration marks. Raises
    :class:`~pnp.imposition.geometry.LayoutError` when nothing fits."""
    free = replace(layout, columns=None, rows=None, min_margin=0.0, crop_marks=None, guides=None, labels=None)
    a, zone = marks.area, marks.reach
    tries = [a] if zone <= 0 else [
        a, Rect(a.x, a.y + zone, a.width, a.height - 2 * zone), Rect(a.x + zone, a.y, a.width - 2 * zone, a.height),
        Rect(a.x + zone, a.y + zone, a.width - 2 * zone, a.height - 2 * zone),
    ]
    best: Grid | None = None
    for room in tries:
        candidate = _grid_in(free, paper, room, marks, width, height)
        if candidate is not None and (best is None or candidate.per_sheet > best.per_sheet):
            best = candidate
    if best is None:
        raise LayoutError(too_big(marks, paper, width, height))
    return best


def too_big(marks: Registration, paper: Paper, width: float, height: float) -> str:
    """Why items of ``width`` x ``height`` get no grid from :func:`cut_grid`."""
    a = marks.area
    return (
        f"items of {to_mm(width):.1f} x {to_mm(height):.1f} mm do not fit the cutting machine's area of "
        f"{to_mm(a.width):.1f} x {to_mm(a.height):.1f} mm inside its registration marks on {paper.name}"
    )


def _grid_in(layout: SheetLayout, paper: Paper, room: Rect, marks: Registration, width: float, height: float) -> Grid | None:
    """The grid centred in ``room`` (its bleed inside it too), moved onto
    ``paper``, or None when none fits or an item's bleed meets a keep-clear zone."""
    shown = layout.gap / 2
    inner = Paper(paper.id, paper.name, room.width, room.height)
    try:
        g = grid(replace(layout, min_margin=0.0), inner, width, height)
    except LayoutError:
        return None
    fronts = tuple(Rect(r.x + room.x, r.y + room.y, r.width, r.height) for r in g.fronts)
    bled = [Rect(r.x - shown, r.y - shown, r.width + 2 * shown, r.height + 2 * shown) for r in fronts]
    if any(b.overlaps(z) for b in bled for z in marks.keep_clear):
        return None
    backs = tuple(Rect(paper.width - r.right, r.y, r.width, r.height) for r in fronts)
    return Grid(paper, g.columns, g.rows, fronts, backs, marks.marks, layout.gap, g.rotated)

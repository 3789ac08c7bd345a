"""Sheet geometry in PDF points, origin at the sheet's bottom-left corner.

Everything here is arithmetic on frozen values, so tests can assert slot
positions, mirrored backs and crop marks as numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pnp.model import Paper, SheetLayout
from pnp.units import to_mm


class LayoutError(ValueError):
    """The cards do not fit the paper with the layout's margins."""


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def overlaps(self, other: Rect, tolerance: float = 1e-6) -> bool:
        """True when the interiors of the two rectangles meet."""
        return (
            self.x < other.right - tolerance
            and other.x < self.right - tolerance
            and self.y < other.top - tolerance
            and other.y < self.top - tolerance
        )


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    weight: float
    dashed: bool = False


@dataclass(frozen=True)
class Circle:
    """A cutting guide: a thin circle on a round item's trim."""

    cx: float
    cy: float
    r: float
    weight: float


@dataclass(frozen=True)
class Grid:
    """Where the cards of one size go on one paper, fronts and backs."""

    paper: Paper
    columns: int
    rows: int
    fronts: tuple[Rect, ...]
    """Slots in reading order: top row first, left to right."""
    backs: tuple[Rect, ...]
    """``backs[i]`` lies behind ``fronts[i]`` once the sheet is flipped."""
    marks: tuple[Line, ...]
    gap: float = 0.0
    rotated: bool = False
    """Items are turned a quarter turn (slots are their size turned)."""
    guides: tuple[Circle, ...] = ()

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows


def _fit(available: float, size: float, gap: float) -> int:
    return max(0, math.floor((available + gap + 1e-6) / (size + gap)))


def _count(layout: SheetLayout, paper: Paper, width: float, height: float) -> tuple[int, int]:
    columns = layout.columns or _fit(paper.width - 2 * layout.min_margin, width, layout.gap)
    rows = layout.rows or _fit(paper.height - 2 * layout.min_margin, height, layout.gap)
    return columns, rows


def grid(layout: SheetLayout, paper: Paper, width: float, height: float) -> Grid:
    """Lay out items of ``width`` x ``height`` points, centred on ``paper``.

    With ``rotate: auto`` the items are turned a quarter turn when more of
    them fit that way (a landscape board on a portrait sheet).
    """
    if layout.labels is not None:
        return _label_grid(layout, paper, width, height)
    columns, rows = _count(layout, paper, width, height)
    rotated = False
    if layout.rotate == "auto":
        turned = _count(layout, paper, height, width)
        if turned[0] * turned[1] > columns * rows:
            columns, rows, rotated = turned[0], turned[1], True
            width, height = height, width
    usable_w = paper.width - 2 * layout.min_margin
    usable_h = paper.height - 2 * layout.min_margin
    block_w = columns * width + (columns - 1) * layout.gap
    block_h = rows * height + (rows - 1) * layout.gap
    if columns < 1 or rows < 1 or block_w > usable_w + 1e-6 or block_h > usable_h + 1e-6:
        raise LayoutError(
            f"layout {layout.id!r} cannot fit {columns or 0} x {rows or 0} items of "
            f"{to_mm(width):.1f} x {to_mm(height):.1f} mm on {paper.name} with "
            f"{to_mm(layout.min_margin):.1f} mm margins"
        )
    left = (paper.width - block_w) / 2
    bottom = (paper.height - block_h) / 2
    fronts = []
    for row in range(rows):
        for col in range(columns):
            x = left + col * (width + layout.gap)
            y = bottom + (rows - 1 - row) * (height + layout.gap)
            fronts.append(Rect(x, y, width, height))
    # Long-edge flip of a portrait sheet turns it about its vertical axis.
    backs = tuple(Rect(paper.width - r.right, r.y, r.width, r.height) for r in fronts)
    guides = _guides(layout, fronts)
    return Grid(
        paper, columns, rows, tuple(fronts), backs, _crop_marks(layout, fronts, paper), layout.gap, rotated, guides
    )


def _guides(layout: SheetLayout, slots: Sequence[Rect]) -> tuple[Circle, ...]:
    """Cutting circles on round items' trims, when the layout asks for them."""
    if layout.guides != "circle":
        return ()
    return tuple(Circle(r.x + r.width / 2, r.y + r.height / 2, min(r.width, r.height) / 2, 0.35) for r in slots)


def _label_grid(layout: SheetLayout, paper: Paper, width: float, height: float) -> Grid:
    """Items centred in the cells of a label product's fixed grid."""
    labels = layout.labels
    assert labels is not None
    if paper.id != labels.paper:
        raise LayoutError(f"layout {layout.id!r} is {labels.product}, made for {labels.paper}, not {paper.name}")
    if width > labels.width + 1e-6 or height > labels.height + 1e-6:
        raise LayoutError(
            f"items of {to_mm(width):.1f} x {to_mm(height):.1f} mm do not fit the "
            f"{to_mm(labels.width):.1f} x {to_mm(labels.height):.1f} mm labels of {labels.product}"
        )
    columns, rows = layout.columns or 1, layout.rows or 1
    fronts = []
    for row in range(rows):
        for col in range(columns):
            cell_x = labels.left + col * labels.pitch_x
            cell_top = paper.height - labels.top - row * labels.pitch_y
            x = cell_x + (labels.width - width) / 2
            y = cell_top - labels.height + (labels.height - height) / 2
            fronts.append(Rect(x, y, width, height))
    backs = tuple(Rect(paper.width - r.right, r.y, r.width, r.height) for r in fronts)
    guides = _guides(layout, fronts)
    return Grid(paper, columns, rows, tuple(fronts), backs, (), layout.gap, False, guides)


def _crop_marks(layout: SheetLayout, slots: Sequence[Rect], paper: Paper) -> tuple[Line, ...]:
    """Marks in the margins, in line with every card edge, never over a card."""
    spec = layout.crop_marks
    if spec is None:
        return ()
    left = min(r.x for r in slots)
    right = max(r.right for r in slots)
    bottom = min(r.y for r in slots)
    top = max(r.top for r in slots)
    xs = sorted({round(v, 4) for r in slots for v in (r.x, r.right)})
    ys = sorted({round(v, 4) for r in slots for v in (r.y, r.top)})
    marks = []
    for x in xs:
        length = min(spec.length, bottom - spec.offset)
        marks.append(Line(x, bottom - spec.offset, x, bottom - spec.offset - length, spec.weight))
        length = min(spec.length, paper.height - top - spec.offset)
        marks.append(Line(x, top + spec.offset, x, top + spec.offset + length, spec.weight))
    for y in ys:
        length = min(spec.length, left - spec.offset)
        marks.append(Line(left - spec.offset, y, left - spec.offset - length, y, spec.weight))
        length = min(spec.length, paper.width - right - spec.offset)
        marks.append(Line(right + spec.offset, y, right + spec.offset + length, y, spec.weight))
    return tuple(m for m in marks if (m.x1, m.y1) != (m.x2, m.y2))


@dataclass(frozen=True)
class Placement:
    """One copy of a face in a slot; ``slot`` is the trim box on the sheet."""

    face: str
    slot: Rect
    clip: Rect
    rotation: int = 0
    """Quarter turns, counter-clockwise in degrees: 0, 90 or -90."""
    """What of the face shows: the trim plus as much bleed as the gap leaves room for."""


@dataclass(frozen=True)
class Sheet:
    component: str
    side: str
    """"front" or "back"."""
    number: int
    """1-based, within the component."""
    paper: Paper
    placements: tuple[Placement, ...]
    marks: tuple[Line, ...]
    guides: tuple[Circle, ...] = ()


def impose(
    component: str, copies: Sequence[tuple[str, str | None]], layout: Grid, bleed: float = 0.0
) -> tuple[Sheet, ...]:
    """Fill sheets with ``copies`` (front face, back face or None), in order.

    Each front sheet is followed by its back sheet when the component has
    backs; a back lands in the mirrored slot of its front.
    """
    sheets: list[Sheet] = []
    per = layout.per_sheet
    shown = min(bleed, layout.gap / 2)

    def place(face: str, slot: Rect, rotation: int) -> Placement:
        clip = Rect(slot.x - shown, slot.y - shown, slot.width + 2 * shown, slot.height + 2 * shown)
        return Placement(face, slot, clip, rotation if layout.rotated else 0)

    for number, start in enumerate(range(0, len(copies), per), start=1):
        chunk = copies[start : start + per]
        sheets.append(
            Sheet(
                component,
                "front",
                number,
                layout.paper,
                tuple(place(front, layout.fronts[i], 90) for i, (front, _) in enumerate(chunk)),
                layout.marks,
                layout.guides[: len(chunk)],
            )
        )
        if any(back is not None for _, back in chunk):
            sheets.append(
                Sheet(
                    component,
                    "back",
                    number,
                    layout.paper,
                    tuple(place(back, layout.backs[i], -90) for i, (_, back) in enumerate(chunk) if back is not None),
                    (),
                )
            )
    return tuple(sheets)


def gutterfold_grid(layout: SheetLayout, paper: Paper, width: float, height: float) -> Grid:
    """Fronts on the left half of a landscape sheet, backs on the right half
    mirrored about the fold line, so folding the sheet puts each back behind
    its front: double-sided cards for printers without duplex."""
    landscape = Paper(paper.id, paper.name, paper.height, paper.width)
    half = Paper(paper.id, paper.name, landscape.width / 2, landscape.height)
    # As many as fit each half, whatever the layout's fixed grid for a full sheet.
    left = grid(replace(layout, columns=None, rows=None, rotate="never"), half, width, height)
    fronts = left.fronts
    backs = tuple(Rect(landscape.width - r.right, r.y, r.width, r.height) for r in fronts)
    fold = Line(landscape.width / 2, 0.0, landscape.width / 2, landscape.height, 0.5, dashed=True)
    mirrored = tuple(
        Line(landscape.width - m.x1, m.y1, landscape.width - m.x2, m.y2, m.weight)
        for m in left.marks
        if max(m.x1, m.x2) < half.width - 1e-6  # marks in the outer margin only; the fold side stays clear
    )
    outer = tuple(m for m in left.marks if max(m.x1, m.x2) < half.width - 1e-6)
    back_guides = tuple(Circle(landscape.width - c.cx, c.cy, c.r, c.weight) for c in left.guides)
    return Grid(
        landscape, left.columns, left.rows, fronts, backs, outer + mirrored + (fold,), layout.gap, left.rotated,
        left.guides + back_guides,  # the fronts' cutting circles, then the backs' across the fold
    )


def impose_gutterfold(
    component: str, copies: Sequence[tuple[str, str | None]], layout: Grid, bleed: float = 0.0
) -> tuple[Sheet, ...]:
    """Each sheet carries its fronts and, across the fold, their backs."""
    sheets = []
    shown = min(bleed, layout.gap / 2)
    per = layout.per_sheet
    for number, start in enumerate(range(0, len(copies), per), start=1):
        chunk = copies[start : start + per]
        placements = []
        guides: list[Circle] = []
        for i, (front, back) in enumerate(chunk):
            if layout.guides:
                guides += [layout.guides[i]] + ([layout.guides[per + i]] if back is not None else [])
            for face, slot, turn in ((front, layout.fronts[i], 90), (back, layout.backs[i], -90)):
                if face is None:
                    continue
                clip = Rect(slot.x - shown, slot.y - shown, slot.width + 2 * shown, slot.height + 2 * shown)
                placements.append(Placement(face, slot, clip, turn if layout.rotated else 0))
        sheets.append(Sheet(component, "gutterfold", number, layout.paper, tuple(placements), layout.marks, tuple(guides)))
    return tuple(sheets)

"""Sheet geometry in PDF points, origin at the sheet's bottom-left corner.

Everything here is arithmetic on frozen values, so tests can assert slot
positions, mirrored backs and crop marks as numbers: the grid of slots on a
paper and the sheets filled from it. The shapes it is drawn with live in
:mod:`pnp.imposition.shapes` (named here too), the crop marks it carries in
:mod:`pnp.imposition.marks`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pnp.imposition.marks import Served, crop_marks, gap_ticks
from pnp.imposition.shapes import Circle as Circle, Line as Line, Rect as Rect
from pnp.model import Paper, SheetLayout
from pnp.units import mm, to_mm

Side = Literal["front", "back", "gutterfold"]
"""Which side of its pieces a sheet prints; a gutterfold sheet prints both, to fold."""


class LayoutError(ValueError):
    """The cards do not fit the paper with the layout's margins."""


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
    serves: tuple[Served, ...] = ()
    """``serves[i]``: the slots whose edges ``marks[i]`` marks; () for a mark
    every sheet carries (the fold line). Empty for a grid without marks."""

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    def marks_for(self, filled: int) -> tuple[Line, ...]:
        """The marks of a sheet whose first ``filled`` slots hold items: only
        the cut lines that bound a placed item, so the empty slots of a last
        sheet carry none."""
        if filled >= self.per_sheet or not self.serves:
            return self.marks
        return tuple(m for m, slots in zip(self.marks, self.serves) if not slots or min(slots) < filled)


def _fit(available: float, size: float, gap: float) -> int:
    return max(0, math.floor((available + gap + 1e-6) / (size + gap)))


def _edge(layout: SheetLayout) -> float:
    """The least paper between a trim line and the sheet's edge: the layout's
    margin plus the bleed a face may show (half the gap), so the bleed too is
    printed where printers can print, and shows on the outer edges as fully
    as between cards."""
    return layout.min_margin + layout.gap / 2


def _count(layout: SheetLayout, paper: Paper, width: float, height: float) -> tuple[int, int]:
    columns = layout.columns or _fit(paper.width - 2 * _edge(layout), width, layout.gap)
    rows = layout.rows or _fit(paper.height - 2 * _edge(layout), height, layout.gap)
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
    usable_w = paper.width - 2 * _edge(layout)
    usable_h = paper.height - 2 * _edge(layout)
    block_w = columns * width + (columns - 1) * layout.gap
    block_h = rows * height + (rows - 1) * layout.gap
    if columns < 1 or rows < 1 or block_w > usable_w + 1e-6 or block_h > usable_h + 1e-6:
        raise LayoutError(
            f"layout {layout.id!r} cannot fit {columns or 0} x {rows or 0} items of "
            f"{to_mm(width):.1f} x {to_mm(height):.1f} mm on {paper.name} with "
            f"{to_mm(layout.min_margin):.1f} mm margins"
            + (f" beyond {to_mm(layout.gap / 2):.1f} mm of bleed" if layout.gap else "")
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
    marks = crop_marks(layout, fronts, paper) + gap_ticks(layout, fronts)
    return Grid(
        paper, columns, rows, tuple(fronts), backs, tuple(m for m, _ in marks), layout.gap, rotated, guides,
        tuple(slots for _, slots in marks),
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
    side: Side
    number: int
    """1-based, within the component."""
    paper: Paper
    placements: tuple[Placement, ...]
    marks: tuple[Line, ...]
    guides: tuple[Circle, ...] = ()
    gap: float = 0.0
    """The space between neighbouring items (0: butted, one cut between two)."""


def impose(
    component: str, copies: Sequence[tuple[str, str | None]], layout: Grid, bleed: float = 0.0,
    back_offset: tuple[float, float] = (0.0, 0.0),
) -> tuple[Sheet, ...]:
    """Fill sheets with ``copies`` (front face, back face or None), in order.

    Each front sheet is followed by its back sheet when the component has
    backs; a back lands in the mirrored slot of its front, moved by
    ``back_offset`` (x right, y up, in points, as the back page is seen from
    its own printed side) to make up for a duplex printer that puts backs off.
    """
    return impose_shared([(component, copies, bleed)], layout, back_offset)[0]


def impose_shared(
    parts: Sequence[tuple[str, Sequence[tuple[str, str | None]], float]], layout: Grid,
    back_offset: tuple[float, float] = (0.0, 0.0),
) -> list[tuple[Sheet, ...]]:
    """Several components' copies (component, copies, bleed) on one run of
    sheets, as :func:`impose` fills them, each component starting in the slot
    after the one before it ends: for each part, the sheets that hold its
    copies, a sheet two parts share listed under both. A sheet is named after
    the first component on it."""
    stream = [(n, front, back, min(bleed, layout.gap / 2)) for n, (_, copies, bleed) in enumerate(parts) for front, back in copies]
    held: list[list[Sheet]] = [[] for _ in parts]
    per = layout.per_sheet
    for number, start in enumerate(range(0, len(stream), per), start=1):
        chunk = stream[start : start + per]
        name = parts[chunk[0][0]][0]
        made = [
            Sheet(
                name, "front", number, layout.paper,
                tuple(_place(layout, front, layout.fronts[i], 90, shown) for i, (_, front, _, shown) in enumerate(chunk)),
                layout.marks_for(len(chunk)), layout.guides[: len(chunk)], layout.gap,
            )
        ]
        if any(back is not None for _, _, back, _ in chunk):
            backs = tuple(
                _place(layout, back, layout.backs[i], -90, shown, *back_offset)
                for i, (_, _, back, shown) in enumerate(chunk) if back is not None
            )
            made.append(Sheet(name, "back", number, layout.paper, backs, (), (), layout.gap))
        for n in dict.fromkeys(n for n, _, _, _ in chunk):
            held[n] += made
    return [tuple(h) for h in held]


def _place(layout: Grid, face: str, slot: Rect, rotation: int, shown: float, dx: float = 0.0, dy: float = 0.0) -> Placement:
    """A face in ``slot`` (moved by dx, dy), showing ``shown`` of its bleed."""
    slot = Rect(slot.x + dx, slot.y + dy, slot.width, slot.height)
    clip = Rect(slot.x - shown, slot.y - shown, slot.width + 2 * shown, slot.height + 2 * shown)
    return Placement(face, slot, clip, rotation if layout.rotated else 0)


def gutterfold_grid(layout: SheetLayout, paper: Paper, width: float, height: float) -> Grid:
    """Fronts on the left half of a landscape sheet, backs on the right half
    mirrored about the fold line, so folding the sheet puts each back behind
    its front: double-sided cards for printers without duplex."""
    landscape = Paper(paper.id, paper.name, paper.height, paper.width)
    half = Paper(paper.id, paper.name, landscape.width / 2, landscape.height)
    # As many as fit each half, whatever the layout's fixed grid for a full sheet.
    left = grid(replace(layout, columns=None, rows=None), half, width, height)
    fronts = left.fronts
    backs = tuple(Rect(landscape.width - r.right, r.y, r.width, r.height) for r in fronts)
    # The fold line stops min_margin short of the paper edges, like every mark.
    clear = max(layout.min_margin, mm(5))
    fold = Line(landscape.width / 2, clear, landscape.width / 2, landscape.height - clear, 0.5, dashed=True)
    # Marks in the outer margin only; the fold side stays clear.
    kept = [(m, slots) for m, slots in zip(left.marks, left.serves) if max(m.x1, m.x2) < half.width - 1e-6]
    mirrored = tuple(
        Line(landscape.width - m.x1, m.y1, landscape.width - m.x2, m.y2, m.weight, cased=m.cased) for m, _ in kept
    )
    outer = tuple(m for m, _ in kept)
    back_guides = tuple(Circle(landscape.width - c.cx, c.cy, c.r, c.weight) for c in left.guides)
    serves = tuple(slots for _, slots in kept)
    return Grid(
        landscape, left.columns, left.rows, fronts, backs, outer + mirrored + (fold,), layout.gap, left.rotated,
        left.guides + back_guides,  # the fronts' cutting circles, then the backs' across the fold
        serves + serves + ((),),
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
                placements.append(_place(layout, face, slot, turn, shown))
        sheets.append(
            Sheet(
                component, "gutterfold", number, layout.paper, tuple(placements), layout.marks_for(len(chunk)), tuple(guides),
                layout.gap,
            )
        )
    return tuple(sheets)

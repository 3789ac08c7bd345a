"""Sheet geometry in PDF points, origin at the sheet's bottom-left corner.

Everything here is arithmetic on frozen values, so tests can assert slot
positions, mirrored backs and crop marks as numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pnp.model import Paper, SheetLayout
from pnp.units import mm, to_mm

Side = Literal["front", "back", "gutterfold"]
"""Which side of its pieces a sheet prints; a gutterfold sheet prints both, to fold."""

SHORTEST_MARK = mm(1.5)
"""A crop mark squeezed shorter than this by the margin is left out."""

Served = tuple[int, ...]
"""The slots (by index) whose edges a mark marks."""


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
    cased: bool = False
    """Drawn over a light casing, so it shows on a dark bleed."""
    registration: bool = False
    """A cutting machine's registration mark (pnp.imposition.cutmarks), not a cut line."""


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
    marks = _crop_marks(layout, fronts, paper) + _gap_ticks(layout, fronts)
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


def _crop_marks(layout: SheetLayout, slots: Sequence[Rect], paper: Paper) -> list[tuple[Line, Served]]:
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


def _gap_ticks(layout: SheetLayout, slots: Sequence[Rect]) -> list[tuple[Line, Served]]:
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

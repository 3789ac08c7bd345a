"""Fold-and-glue nets of a six-sided die: which square of the net is which
face, where it folds, and which edges get glue tabs.

A net is a list of grid cells (column, row), one per face in the order the
die's faces are listed. Folding it in 3D (:func:`fold`) says which pairs of
outer edges meet on the cube; each such pair gets one glue tab, put where it
stays inside the net's box when it can. Lengths are points; nothing here
draws or reads files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Side = Literal["top", "right", "bottom", "left"]
SIDES: tuple[Side, ...] = ("top", "right", "bottom", "left")
_STEP: dict[Side, tuple[int, int]] = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}

CROSS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (2, 1), (3, 1), (1, 0), (1, 2))
"""The cross net: faces 1 to 4 in a row round the middle, 5 above the second,
6 below it. Opposite on the folded die: 1 and 3, 2 and 4, 5 and 6."""

Vec = tuple[int, int, int]


@dataclass(frozen=True)
class Edge:
    """One side of one face of the net (faces counted from 0)."""

    face: int
    side: Side


@dataclass(frozen=True)
class Net:
    """A folded net: its faces' cells, the edges it folds along, the edges the
    glue tabs go on, and for each tab the edge it is glued under."""

    cells: tuple[tuple[int, int], ...]
    folds: tuple[tuple[Edge, Edge], ...]
    tabs: tuple[tuple[Edge, Edge], ...]
    """(the edge carrying the tab, the edge it closes against)."""
    centres: tuple[tuple[float, float, float], ...]
    """Each face's centre on the folded unit cube."""

    def cut_edges(self) -> tuple[Edge, ...]:
        """The outer edges with no tab: cut straight along."""
        inner = {e for pair in self.folds for e in pair} | {tab for tab, _ in self.tabs}
        return tuple(Edge(f, s) for f in range(len(self.cells)) for s in SIDES if Edge(f, s) not in inner)


def _neighbour(cell: tuple[int, int], side: Side) -> tuple[int, int]:
    step = _STEP[side]
    return (cell[0] + step[0], cell[1] + step[1])


def _add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _neg(a: Vec) -> Vec:
    return (-a[0], -a[1], -a[2])


@dataclass(frozen=True)
class _Placed:
    """A face on the cube: the 3D point of its square's top-left corner, the
    directions its columns (u) and rows (v) run, and its inward normal."""

    origin: Vec
    u: Vec
    v: Vec
    normal: Vec

    def corners(self) -> dict[Side, frozenset[Vec]]:
        o, u, v = self.origin, self.u, self.v
        tl, tr, bl, br = o, _add(o, u), _add(o, v), _add(_add(o, u), v)
        return {"top": frozenset({tl, tr}), "right": frozenset({tr, br}), "bottom": frozenset({bl, br}), "left": frozenset({tl, bl})}

    def turned(self, side: Side) -> _Placed:
        """The face across ``side``, folded a quarter turn into the cube."""
        o, u, v, n = self.origin, self.u, self.v, self.normal
        if side == "right":
            return _Placed(_add(o, u), n, v, _neg(u))
        if side == "left":
            return _Placed(_add(o, n), _neg(n), v, u)
        if side == "bottom":
            return _Placed(_add(o, v), u, n, _neg(v))
        return _Placed(_add(o, n), u, _neg(n), v)


def fold(cells: tuple[tuple[int, int], ...]) -> list[_Placed]:
    """Fold the net round its first face: each face's place on the cube
    (twice the unit cube, so every corner is a whole-number point)."""
    placed: dict[int, _Placed] = {0: _Placed((0, 0, 0), (2, 0, 0), (0, 2, 0), (0, 0, 2))}
    where = {cell: i for i, cell in enumerate(cells)}
    todo = [0]
    while todo:
        face = todo.pop()
        for side in SIDES:
            other = where.get(_neighbour(cells[face], side))
            if other is not None and other not in placed:
                placed[other] = placed[face].turned(side)
                todo.append(other)
    if len(placed) != len(cells):
        raise ValueError("the net's squares are not all joined edge to edge")
    return [placed[i] for i in range(len(cells))]


def cube_net(cells: tuple[tuple[int, int], ...] = CROSS) -> Net:
    """The net of ``cells`` folded: its folds, and a tab on one edge of every
    pair of outer edges that meet on the cube."""
    if len(cells) != 6 or len(set(cells)) != 6:
        raise ValueError("a cube net has six different squares")
    placed = fold(cells)
    centres = [tuple((o + (u + v) / 2) / 2 for o, u, v in zip(p.origin, p.u, p.v)) for p in placed]
    if len(set(centres)) != 6:
        raise ValueError("the net's squares overlap when folded: not a cube net")
    where = {cell: i for i, cell in enumerate(cells)}
    folds: list[tuple[Edge, Edge]] = []
    outer: dict[frozenset[Vec], list[Edge]] = {}
    for face, cell in enumerate(cells):
        for side, segment in placed[face].corners().items():
            other = where.get(_neighbour(cell, side))
            if other is None:
                outer.setdefault(segment, []).append(Edge(face, side))
            elif face < other:
                folds.append((Edge(face, side), Edge(other, _opposite(side))))
    tabs = [_tab_for(pair, cells) for pair in outer.values()]
    return Net(tuple(cells), tuple(folds), tuple(tabs), tuple(centres))  # type: ignore[arg-type]


def _opposite(side: Side) -> Side:
    return SIDES[(SIDES.index(side) + 2) % 4]


def _tab_for(pair: list[Edge], cells: tuple[tuple[int, int], ...]) -> tuple[Edge, Edge]:
    """Of two edges that meet on the cube, the one to carry the tab: one whose
    tab lies in an empty square inside the net's box when there is one."""
    if len(pair) != 2:
        raise ValueError("the net's outer edges do not pair up: not a cube net")
    columns = {c for c, _ in cells}
    rows = {r for _, r in cells}
    for edge, other in (pair, pair[::-1]):
        spot = _neighbour(cells[edge.face], edge.side)
        if spot[0] in columns and spot[1] in rows and spot not in cells:
            return (edge, other)
    return (pair[0], pair[1])


@dataclass(frozen=True)
class NetBox:
    """Where the net lies in its piece: each face's top-left corner and the piece's size (points)."""

    width: float
    height: float
    faces: tuple[tuple[float, float], ...]


def layout(net: Net, face: float, tab: float) -> NetBox:
    """The piece a net of ``face``-sized squares with ``tab``-deep tabs needs:
    its box reaches round every square and every tab."""
    lows_x, lows_y, highs_x, highs_y = [], [], [], []
    for edge, _ in net.tabs:
        col, row = net.cells[edge.face]
        dx, dy = _STEP[edge.side]
        lows_x.append(col * face + (min(dx, 0) * tab if dx else 0))
        highs_x.append((col + 1) * face + (max(dx, 0) * tab if dx else 0))
        lows_y.append(row * face + (min(dy, 0) * tab if dy else 0))
        highs_y.append((row + 1) * face + (max(dy, 0) * tab if dy else 0))
    for col, row in net.cells:
        lows_x.append(col * face)
        highs_x.append((col + 1) * face)
        lows_y.append(row * face)
        highs_y.append((row + 1) * face)
    left, top = min(lows_x), min(lows_y)
    return NetBox(max(highs_x) - left, max(highs_y) - top, tuple((c * face - left, r * face - top) for c, r in net.cells))


Line = tuple[float, float, float, float]


@dataclass(frozen=True)
class NetDrawing:
    """What a net's piece draws, in points from its top-left corner: the faces'
    squares, the fold lines (dashed), the cut lines (solid) and the tabs'
    outlines (cut; a tab's base is a fold)."""

    box: NetBox
    face: float
    folds: tuple[Line, ...]
    cuts: tuple[Line, ...]
    tabs: tuple[tuple[tuple[float, float], ...], ...]


def _segment(box: NetBox, face: float, edge: Edge) -> Line:
    x, y = box.faces[edge.face]
    return {
        "top": (x, y, x + face, y),
        "right": (x + face, y, x + face, y + face),
        "bottom": (x, y + face, x + face, y + face),
        "left": (x, y, x, y + face),
    }[edge.side]


def drawing(net: Net, face: float, tab: float) -> NetDrawing:
    """The lines of ``net`` with ``face``-sized squares and ``tab``-deep tabs,
    whose slanted ends (45 degrees, at most a quarter of the edge) let them
    fold in past their neighbours."""
    box = layout(net, face, tab)
    folds = [_segment(box, face, a) for a, _ in net.folds] + [_segment(box, face, t) for t, _ in net.tabs]
    cuts = [_segment(box, face, e) for e in net.cut_edges()]
    inset = min(tab, face / 4)
    outlines = []
    for edge, _ in net.tabs:
        x1, y1, x2, y2 = _segment(box, face, edge)
        dx, dy = _STEP[edge.side]
        along = (1 if x2 > x1 else 0, 1 if y2 > y1 else 0)
        outlines.append((
            (x1, y1),
            (x1 + dx * tab + along[0] * inset, y1 + dy * tab + along[1] * inset),
            (x2 + dx * tab - along[0] * inset, y2 + dy * tab - along[1] * inset),
            (x2, y2),
        ))
    return NetDrawing(box, face, tuple(folds), tuple(cuts), tuple(outlines))


def boundary(net: Net, face: float, tab: float) -> tuple[tuple[float, float], ...]:
    """The outer boundary of ``net``'s piece (:func:`drawing`) as one closed
    polygon, in points from its top-left corner (y down): its cut edges and
    its tabs' slanted outlines joined end to end, each corner once."""
    d = drawing(net, face, tab)
    left = [((x1, y1), (x2, y2)) for x1, y1, x2, y2 in d.cuts] + [seg for outline in d.tabs for seg in zip(outline, outline[1:])]
    first = left.pop()
    points = [first[0], first[1]]
    while left:
        at = points[-1]
        joined = next((i for i, (a, b) in enumerate(left) if _same(a, at) or _same(b, at)), None)
        if joined is None:
            raise ValueError("the net's outline does not close")
        a, b = left.pop(joined)
        points.append(b if _same(a, at) else a)
    if not _same(points[-1], points[0]):
        raise ValueError("the net's outline does not close")
    return tuple(points[:-1])


def _same(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6


def view(face_size: float, tab: float, faces: list[object] | tuple[object, ...]) -> dict[str, object]:
    """What pnp's net template (``pnp/die-net.html``) draws, in points: each
    face's square with the face as the card lists it, the tabs, the fold
    lines and the cut lines."""
    d = drawing(cube_net(), face_size, tab)
    return {
        "width": round(d.box.width, 3),
        "height": round(d.box.height, 3),
        "face": round(face_size, 3),
        "faces": [{"x": round(x, 3), "y": round(y, 3), "face": f, "number": n} for n, ((x, y), f) in enumerate(zip(d.box.faces, faces), start=1)],
        "folds": [tuple(round(v, 3) for v in line) for line in d.folds],
        "cuts": [tuple(round(v, 3) for v in line) for line in d.cuts],
        "tabs": [" ".join(f"{x:.3f},{y:.3f}" for x, y in outline) for outline in d.tabs],
    }

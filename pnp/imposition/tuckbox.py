"""Tuck boxes sized from the deck they hold: the inner size, and the net (die
line, fold lines and printable panels) in millimetres.

Inner size: the card (or sleeve) width and height, and the stack's depth
(cards times the stock thickness, plus the sleeves' thickness), each plus the
tolerance. The panels between the fold lines are exactly the inner size; the
board's own thickness is taken up by the tolerance (at home, 0.2 to 0.35 mm
card stock against a 1 mm default).

The net, left to right: front, side, back, side, glue flap (glued inside the
front). The back carries a lid (depth deep) and a tuck flap at the top and at
the bottom; the sides carry dust flaps. A net too wide for the paper is split
at the fold between the first side and the back into two pieces: front and
side with a joining glue flap (glued inside the back), and back, side and the
glue flap. Coordinates have the origin at the piece's bottom-left, y upward.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Kind = Literal["front", "side", "back", "glue"]

GLUE = 10.0
"""Width of a glue flap, mm."""
TAPER = 2.0
"""How much a glue or dust flap narrows at its free edge on each side, mm."""
CORNER = 3.0
"""The chamfer at the tuck flap's free corners, mm."""


@dataclass(frozen=True)
class Deck:
    """What a box holds, in millimetres."""

    card_width: float
    card_height: float
    cards: int
    stock: float
    """Thickness of one card."""
    sleeve: tuple[float, float, float] | None = None
    """Sleeve width, height and the thickness it adds to a card; None: unsleeved."""
    tolerance: float = 1.0


@dataclass(frozen=True)
class Inner:
    width: float
    height: float
    depth: float


def inner_size(deck: Deck) -> Inner:
    """The box's inside: the card (or sleeve) and the stack, each plus the tolerance."""
    width, height, extra = (deck.card_width, deck.card_height, 0.0) if deck.sleeve is None else deck.sleeve
    return Inner(width + deck.tolerance, height + deck.tolerance, deck.cards * (deck.stock + extra) + deck.tolerance)


@dataclass(frozen=True)
class Panel:
    name: str
    """``front``, ``back``, ``side``, ``top`` (a lid) or ``bottom`` (a lid)."""
    x: float
    y: float
    width: float
    height: float


Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class Piece:
    """One printed piece of the net."""

    width: float
    height: float
    cut: tuple[Point, ...]
    """The die line: one closed outline."""
    folds: tuple[Segment, ...]
    panels: tuple[Panel, ...]


def tuck_flap(inner: Inner) -> float:
    """The tuck flap's depth: the box's depth, kept between 10 and 20 mm."""
    return min(max(inner.depth, 10.0), 20.0)


def dust_flap(inner: Inner) -> float:
    """A dust flap's height: the depth, at most half the width."""
    return min(inner.depth, inner.width / 2)


def net(inner: Inner, split: bool = False) -> tuple[Piece, ...]:
    """The box's net as one piece, or split into two."""
    columns: list[list[Kind]] = [["front", "side", "back", "side", "glue"]]
    if split:
        columns = [["front", "side", "glue"], ["back", "side", "glue"]]
    return tuple(_piece(inner, kinds) for kinds in columns)


def _width(inner: Inner, kind: Kind) -> float:
    return {"front": inner.width, "back": inner.width, "side": inner.depth, "glue": GLUE}[kind]


def _piece(inner: Inner, kinds: Sequence[Kind]) -> Piece:
    h, d, tuck, dust = inner.height, inner.depth, tuck_flap(inner), dust_flap(inner)
    below = max(d + tuck if "back" in kinds else 0.0, dust if "side" in kinds else 0.0)
    edges = [0.0]
    for kind in kinds:
        edges.append(edges[-1] + _width(inner, kind))
    bottom: list[Point] = [(0.0, 0.0)]
    panels: list[Panel] = []
    folds: list[Segment] = [((x, 0.0), (x, h)) for x in edges[1:-1]]
    for kind, x0, x1 in zip(kinds, edges, edges[1:]):
        bottom += _profile(kind, x0, x1, inner)
        if kind in ("front", "back", "side"):
            panels.append(Panel(kind, x0, 0.0, x1 - x0, h))
        if kind == "side":
            folds += [((x0, 0.0), (x1, 0.0)), ((x0, h), (x1, h))]
        if kind == "back":
            folds += [((x0, y), (x1, y)) for y in (0.0, -d, h, h + d)]
            panels += [Panel("bottom", x0, -d, x1 - x0, d), Panel("top", x0, h, x1 - x0, d)]
    top = [(x, h - y) for x, y in reversed(bottom)]  # the same profile, mirrored about the strip's middle
    outline = bottom + top
    shift = below
    return Piece(
        edges[-1], h + 2 * below,
        tuple((x, y + shift) for x, y in _dedupe(outline)),
        tuple(((a[0], a[1] + shift), (b[0], b[1] + shift)) for a, b in folds),
        tuple(Panel(p.name, p.x, p.y + shift, p.width, p.height) for p in panels),
    )


def _profile(kind: Kind, x0: float, x1: float, inner: Inner) -> list[Point]:
    """The die line along a column's bottom edge, left to right, ending at (x1, 0)."""
    if kind == "side":
        dust = dust_flap(inner)
        return [(x0 + TAPER, -dust), (x1 - TAPER, -dust), (x1, 0.0)]
    if kind == "back":
        d, tuck = inner.depth, tuck_flap(inner)
        return [(x0, -d), (x0 + CORNER, -d - tuck), (x1 - CORNER, -d - tuck), (x1, -d), (x1, 0.0)]
    if kind == "glue":
        return [(x1, TAPER + 1.0)]
    return [(x1, 0.0)]


def _dedupe(points: list[Point]) -> list[Point]:
    out: list[Point] = []
    for point in points:
        if not out or (abs(out[-1][0] - point[0]) > 1e-9 or abs(out[-1][1] - point[1]) > 1e-9):
            out.append(point)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out

"""Die lines for a factory: the cut path of each die-cut piece (a token, a
board) in a named spot colour, on an optional-content layer of its own.

Factories (Panda, LongPack ...) take the die line as a Separation colour
their prepress recognises (``CutContour`` by default; a profile's
``die_line`` names another) drawn over the art, never in it: here it is a
separate marked-content layer (``/OC``, one optional content group named
"Die line"), stroked with overprint on so it knocks nothing out of the art
below. Its alternate colour is 100 % magenta, for how viewers show it.

The path is the piece's trim: a rectangle, or for a round piece the circle
inscribed in it (four Bézier arcs); a tuck box's is its net's outline, with its
fold lines beside it in a second spot colour, ``Crease`` (a die has cutting
and creasing rules). :func:`outline` gives the same path as straight edges and
quarter arcs, for the print-and-cut files (:mod:`pnp.output.cutfiles`), where
cards' corners are rounded too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import pikepdf
from pikepdf import Name

from pnp.model import Component, Game

Shape = Literal["rectangle", "circle"]

LAYER = "Die line"
WIDTH = 0.25
"""The die line's width in points (a hairline prepress reads as a path, not as art)."""
CREASE = "Crease"
"""The spot colour of fold (crease) lines on a box's die, beside the cut; shown as 100 % yellow."""
CREASE_DASH = (6, 3)
"""The creases' dash and gap, points: told apart from the cut at a glance."""
_KAPPA = 0.5522847498
"""A quarter circle's control-point distance over its radius."""


def layer(pdf: pikepdf.Pdf) -> pikepdf.Object:
    """The document's die-line optional content group, made once."""
    properties = pdf.Root.get(Name.OCProperties)
    if properties is not None:
        for group in properties.OCGs:
            if str(group.get(Name.Name, "")) == LAYER:
                return group
    group = pdf.make_indirect(pikepdf.Dictionary(Type=Name.OCG, Name=pikepdf.String(LAYER)))
    pdf.Root.OCProperties = pikepdf.Dictionary(
        OCGs=pikepdf.Array([group]),
        D=pikepdf.Dictionary(Name=pikepdf.String("Layers"), Order=pikepdf.Array([group]), ON=pikepdf.Array([group])),
    )
    return group


def spot(pdf: pikepdf.Pdf, name: str, shown: tuple[float, float, float, float] = (0, 1, 0, 0)) -> pikepdf.Object:
    """``[/Separation /name /DeviceCMYK f]``, shown as the CMYK ``shown`` (100 % magenta)."""
    tint = pikepdf.Dictionary(
        FunctionType=2, Domain=pikepdf.Array([0, 1]), N=1,
        C0=pikepdf.Array([0, 0, 0, 0]), C1=pikepdf.Array(list(shown)),
    )
    return pdf.make_indirect(pikepdf.Array([Name.Separation, Name("/" + name), Name.DeviceCMYK, pdf.make_indirect(tint)]))


@dataclass(frozen=True)
class Edge:
    """A straight stretch of a cut path, from (x0, y0) to (x1, y1)."""

    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Arc:
    """A quarter of an ellipse about (cx, cy), counter-clockwise from the
    direction ``quarter`` (0: +x, 1: +y, 2: -x, 3: -y) to the next."""

    cx: float
    cy: float
    rx: float
    ry: float
    quarter: int

    def point(self, turn: int) -> tuple[float, float]:
        cos, sin = _QUARTERS[turn % 4]
        return self.cx + self.rx * cos, self.cy + self.ry * sin

    @property
    def start(self) -> tuple[float, float]:
        return self.point(self.quarter)

    @property
    def end(self) -> tuple[float, float]:
        return self.point(self.quarter + 1)


_QUARTERS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def outline(shape: Shape, box: tuple[float, float, float, float], radius: float = 0.0) -> tuple[Edge | Arc, ...]:
    """The cut path of ``box`` (x0, y0, x1, y1 in points), counter-clockwise
    from its right side: a rectangle (its corners rounded to ``radius``), or
    the ellipse inscribed in it (a circle in a square box)."""
    x0, y0, x1, y1 = box
    if shape == "circle":
        cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        return tuple(Arc(cx, cy, rx, ry, q) for q in range(4))
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    corners = (Arc(x1 - r, y1 - r, r, r, 0), Arc(x0 + r, y1 - r, r, r, 1), Arc(x0 + r, y0 + r, r, r, 2), Arc(x1 - r, y0 + r, r, r, 3))
    out: list[Edge | Arc] = []
    for before, corner in zip(corners[-1:] + corners[:-1], corners):
        out.append(Edge(*before.end, *corner.start))
        if r > 0:
            out.append(corner)
    return tuple(out)


def path(shape: Shape, box: tuple[float, float, float, float], radius: float = 0.0) -> str:
    """The cut path of ``box`` (see :func:`outline`) as PDF path operators;
    a square-cornered rectangle is one ``re``."""
    x0, y0, x1, y1 = box
    if shape == "rectangle" and radius <= 0:
        return f"{x0:.3f} {y0:.3f} {x1 - x0:.3f} {y1 - y0:.3f} re"
    parts = outline(shape, box, radius)
    first = parts[0].start if isinstance(parts[0], Arc) else (parts[0].x0, parts[0].y0)
    ops = [f"{first[0]:.3f} {first[1]:.3f} m"]
    for part in parts:
        if isinstance(part, Edge):
            ops.append(f"{part.x1:.3f} {part.y1:.3f} l")
            continue
        (sx, sy), (ex, ey) = part.start, part.end
        (tx, ty), (ux, uy) = _QUARTERS[(part.quarter + 1) % 4], _QUARTERS[(part.quarter + 2) % 4]
        controls = (sx + tx * part.rx * _KAPPA, sy + ty * part.ry * _KAPPA, ex - ux * part.rx * _KAPPA, ey - uy * part.ry * _KAPPA, ex, ey)
        ops.append(" ".join(f"{v:.3f}" for v in controls) + " c")
    return " ".join(ops) + " h"


def die_shape(game: Game, component: Component) -> Shape | None:
    """The shape a factory die-cuts ``component`` to: its ``die_line``, else a
    circle when its layout draws cutting circles (round tokens), else None (cards)."""
    if component.die_line is not None:
        return "circle" if component.die_line == "circle" else "rectangle"
    layout = game.layouts.get(component.layout)
    return "circle" if layout is not None and layout.guides == "circle" else None


def add_die_lines(pdf: pikepdf.Pdf, shape: Shape, colour: str) -> None:
    """Stroke each page's trim box as a die line in the spot ``colour``, on the die-line layer."""
    paths = []
    for page in pdf.pages:
        trim = page.obj.get(Name.TrimBox, page.mediabox)
        paths.append((page, path(shape, (float(trim[0]), float(trim[1]), float(trim[2]), float(trim[3]))), ""))
    add_die_paths(pdf, paths, colour)


def add_die_paths(pdf: pikepdf.Pdf, paths: Sequence[tuple[pikepdf.Page, str, str]], colour: str) -> None:
    """For each ``(page, cut, creases)`` (path operators, points), stroke the cut
    in the spot ``colour`` and the creases dashed in the spot :data:`CREASE`,
    on the die-line layer, overprinted."""
    group, separation = layer(pdf), spot(pdf, colour)
    state = pdf.make_indirect(pikepdf.Dictionary(Type=Name.ExtGState, OP=True, op=True, OPM=1))
    crease = spot(pdf, CREASE, (0, 0, 1, 0)) if any(creases for _, _, creases in paths) else None
    for page, cut, creases in paths:
        if Name.Resources not in page.obj:
            page.obj.Resources = pikepdf.Dictionary()
        resources = page.obj.Resources
        entries = [(Name.Properties, Name.PnpDie, group), (Name.ColorSpace, Name.PnpCut, separation), (Name.ExtGState, Name.PnpOP, state)]
        stream = f"/OC /PnpDie BDC q /PnpOP gs /PnpCut CS 1 SCN {WIDTH} w {cut} S"
        if creases and crease is not None:
            entries.append((Name.ColorSpace, Name.PnpCrease, crease))
            stream += f" /PnpCrease CS 1 SCN [{CREASE_DASH[0]:g} {CREASE_DASH[1]:g}] 0 d {creases} S"
        for kind, key, value in entries:
            if kind not in resources:
                resources[kind] = pikepdf.Dictionary()
            resources[kind][key] = value
        page.contents_add(pikepdf.Stream(pdf, (stream + " Q EMC\n").encode()))

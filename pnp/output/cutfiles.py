"""Print-and-cut files: each front sheet's cut paths as SVG and as DXF, in
the sheet's own coordinates, so they line up with the registration marks
printed on it (:mod:`pnp.imposition.cutmarks`).

The paths are the factory die lines' (:func:`pnp.pdf.dieline.outline`): each
piece's trim, round for round pieces, and for cards a rectangle with the
card's rounded corners; a die's net is cut along its outer boundary, tabs
included (:func:`pnp.nets.boundary`), in straight lines. They are never
drawn in the PDF.

- SVG: the paper's size in mm (``viewBox`` in mm, y down from the top-left,
  as SVG has it), one red hairline path per piece in a group ``cut``.
- DXF: AutoCAD R12 ASCII, millimetres, y up from the paper's bottom-left
  corner (as PDF has it), on layer ``CUT``: LINE and ARC for rounded
  rectangles, CIRCLE for circles, a closed POLYLINE for an oval. Written by
  hand: R12's few entities are a page of text, and ezdxf, the one
  well-kept DXF library, is not among the project's dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.imposition.cutmarks import CutMarks, by_machine
from pnp.imposition.geometry import Sheet
from pnp.model import Component, Game, Paper
from pnp.nets import boundary, cube_net
from pnp.pdf.dieline import Arc, Edge, Shape, die_shape, outline
from pnp.units import to_mm

OVAL_STEPS = 72
"""Straight pieces an oval (an ellipse, not a circle) is drawn with in DXF:
at 5 degrees each, within 0.02 mm of a 20 mm radius."""


Polygon = tuple[tuple[float, float], ...]
"""A piece's outline as corners, in points from its top-left corner, y down
(as the piece is drawn, before the sheet turns it): a die's net."""

Cut = tuple[Shape | Polygon, float]
"""How a piece is cut: its shape and corner radius, or its outline."""


@dataclass(frozen=True)
class Piece:
    """One piece's cut: its shape, trim box (x0, y0, x1, y1 in points on the
    sheet), corner radius and quarter turn on the sheet (as
    :class:`~pnp.imposition.geometry.Placement` has it)."""

    shape: Shape | Polygon
    box: tuple[float, float, float, float]
    radius: float = 0.0
    rotation: int = 0

    @property
    def parts(self) -> tuple[Edge | Arc, ...]:
        if isinstance(self.shape, str):
            return outline(self.shape, self.box, self.radius)
        corners = [self._on_sheet(p) for p in self.shape]
        return tuple(Edge(*a, *b) for a, b in zip(corners, corners[1:] + corners[:1]))

    def _on_sheet(self, point: tuple[float, float]) -> tuple[float, float]:
        """A point of the piece's outline on the sheet: turned about the
        piece's centre onto its slot's, as the PDF places the face."""
        x0, y0, x1, y1 = self.box
        width, height = (x1 - x0, y1 - y0) if self.rotation == 0 else (y1 - y0, x1 - x0)
        u, v = point[0] - width / 2, height / 2 - point[1]
        a, b, c, d = _TURNS[self.rotation]
        return (x0 + x1) / 2 + a * u + c * v, (y0 + y1) / 2 + b * u + d * v


_TURNS = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), -90: (0, -1, 1, 0)}
"""The a b c d of each quarter turn, counter-clockwise, as pnp.pdf.place turns faces."""


def cut_shape(game: Game, component: Component, cut: CutMarks) -> Cut | None:
    """How ``component``'s pieces are cut: a die's net along its outer
    boundary (:func:`pnp.nets.boundary`); else the factory's die shape
    (:func:`pnp.pdf.dieline.die_shape`) with the component's
    ``corner_radius``; cards (no die shape) a rectangle with the component's
    corners, else the profile's."""
    if component.net is not None:
        return boundary(cube_net(), component.net.face, component.net.tab), 0.0
    shape = die_shape(game, component)
    if shape == "circle":
        return "circle", 0.0
    if shape == "rectangle":
        return "rectangle", component.corner_radius or 0.0
    return "rectangle", cut.corner if component.corner_radius is None else component.corner_radius


def pieces(sheet: Sheet, cut_of: Callable[[str], Cut | None]) -> list[Piece]:
    """The cut of each piece placed on ``sheet``: ``cut_of(face key)`` gives
    its shape and corner radius, or None for a piece that is not cut."""
    out = []
    for placement in sheet.placements:
        found = cut_of(placement.face)
        if found is not None:
            s = placement.slot
            out.append(Piece(found[0], (s.x, s.y, s.right, s.top), found[1], placement.rotation))
    return out


def _mm(value: float) -> str:
    text = f"{to_mm(value):.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def svg(paper: Paper, cuts: Sequence[Piece]) -> bytes:
    """An SVG of ``paper``'s size holding the ``cuts``."""
    height = paper.height

    def at(x: float, y: float) -> str:
        return f"{_mm(x)} {_mm(height - y)}"

    paths = []
    for piece in cuts:
        parts = piece.parts
        start = parts[0].start if isinstance(parts[0], Arc) else (parts[0].x0, parts[0].y0)
        d = [f"M {at(*start)}"]
        for part in parts:
            if isinstance(part, Edge):
                d.append(f"L {at(part.x1, part.y1)}")
            else:  # counter-clockwise on paper: sweep 0 with SVG's y down
                d.append(f"A {_mm(part.rx)} {_mm(part.ry)} 0 0 0 {at(*part.end)}")
        paths.append(f'    <path d="{" ".join(d)} Z"/>')
    w, h = _mm(paper.width), _mm(paper.height)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">\n'
        '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">\n' + "\n".join(paths) + "\n  </g>\n</svg>\n"
    ).encode()


def dxf(paper: Paper, cuts: Sequence[Piece]) -> bytes:
    """An R12 ASCII DXF of the ``cuts``, in mm, y up from the paper's
    bottom-left; its limits and extents are the paper, so a program that
    places a drawing by its extents puts the cuts where the sheet has them."""
    body: list[tuple[int, str]] = []
    for piece in cuts:
        parts = piece.parts
        if all(isinstance(p, Arc) for p in parts) and isinstance(parts[0], Arc):
            first = parts[0]
            if abs(first.rx - first.ry) < 1e-6:
                body += [(0, "CIRCLE"), (8, "CUT"), (10, _mm(first.cx)), (20, _mm(first.cy)), (40, _mm(first.rx))]
            else:
                body += _oval(first)
            continue
        for part in parts:
            if isinstance(part, Edge):
                body += [(0, "LINE"), (8, "CUT"), (10, _mm(part.x0)), (20, _mm(part.y0)), (11, _mm(part.x1)), (21, _mm(part.y1))]
            else:
                body += [
                    (0, "ARC"), (8, "CUT"), (10, _mm(part.cx)), (20, _mm(part.cy)), (40, _mm(part.rx)),
                    (50, str(90 * part.quarter)), (51, str(90 * (part.quarter + 1))),
                ]
    corners = [(10, "0"), (20, "0"), (10, _mm(paper.width)), (20, _mm(paper.height))]
    pairs = [
        (0, "SECTION"), (2, "HEADER"), (9, "$ACADVER"), (1, "AC1009"), (9, "$INSUNITS"), (70, "4"),
        (9, "$LIMMIN"), *corners[:2], (9, "$LIMMAX"), *corners[2:], (9, "$EXTMIN"), *corners[:2], (9, "$EXTMAX"), *corners[2:],
        (0, "ENDSEC"),
        (0, "SECTION"), (2, "ENTITIES"), *body, (0, "ENDSEC"), (0, "EOF"),
    ]
    return "".join(f"{code}\n{value}\n" for code, value in pairs).encode("ascii")


def _oval(arc: Arc) -> list[tuple[int, str]]:
    """A closed R12 POLYLINE round the ellipse ``arc`` is a quarter of."""
    out = [(0, "POLYLINE"), (8, "CUT"), (66, "1"), (70, "1")]
    for step in range(OVAL_STEPS):
        angle = 2 * math.pi * step / OVAL_STEPS
        x, y = arc.cx + arc.rx * math.cos(angle), arc.cy + arc.ry * math.sin(angle)
        out += [(0, "VERTEX"), (8, "CUT"), (10, _mm(x)), (20, _mm(y))]
    return out + [(0, "SEQEND")]


def cut_folder(pdf: str) -> str:
    """The folder of a print-and-cut PDF's cut files, beside it: ``<pdf stem>-cut``."""
    return pdf.removesuffix(".pdf") + "-cut"


def sheet_files(
    pdf: Path, first_page: int, sheets: Sequence[Sheet], cut_of: Callable[[str], Cut | None]
) -> list[tuple[Path, bytes]]:
    """The cut files of a print-and-cut PDF whose sheets (in order) start at
    page ``first_page``: for each front sheet with pieces to cut,
    ``page-NN.svg`` and ``.dxf`` in :func:`cut_folder`, NN its page in the PDF
    (none for a sheet without registration marks, laid out to cut by hand)."""
    out = []
    for page, sheet in enumerate(sheets, start=first_page):
        cuts = pieces(sheet, cut_of) if sheet.side == "front" and by_machine((sheet,)) else []
        if cuts:
            stem = pdf.parent / cut_folder(pdf.name) / f"page-{page:02d}"
            out += [(stem.with_suffix(".svg"), svg(sheet.paper, cuts)), (stem.with_suffix(".dxf"), dxf(sheet.paper, cuts))]
    return out

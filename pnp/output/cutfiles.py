"""Print-and-cut files: each front sheet's cut paths as SVG and as DXF, in
the sheet's own coordinates, so they line up with the registration marks
printed on it (:mod:`pnp.imposition.cutmarks`).

The paths are the factory die lines' (:func:`pnp.pdf.dieline.outline`): each
piece's trim, round for round pieces, and for cards a rectangle with the
card's rounded corners. They are never drawn in the PDF.

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
from pnp.pdf.dieline import Arc, Edge, Shape, die_shape, outline
from pnp.units import to_mm

OVAL_STEPS = 72
"""Straight pieces an oval (an ellipse, not a circle) is drawn with in DXF:
at 5 degrees each, within 0.02 mm of a 20 mm radius."""


@dataclass(frozen=True)
class Piece:
    """One piece's cut: its shape, trim box (x0, y0, x1, y1 in points) and corner radius."""

    shape: Shape
    box: tuple[float, float, float, float]
    radius: float = 0.0

    @property
    def parts(self) -> tuple[Edge | Arc, ...]:
        return outline(self.shape, self.box, self.radius)


def cut_shape(game: Game, component: Component, cut: CutMarks) -> tuple[Shape, float] | None:
    """How ``component``'s pieces are cut: the factory's die shape
    (:func:`pnp.pdf.dieline.die_shape`) with the component's
    ``corner_radius``; cards (no die shape) a rectangle with the component's
    corners, else the profile's. None for dice nets, whose folded outline
    is not a rectangle."""
    if component.net is not None:
        return None
    shape = die_shape(game, component)
    if shape == "circle":
        return "circle", 0.0
    if shape == "rectangle":
        return "rectangle", component.corner_radius or 0.0
    return "rectangle", cut.corner if component.corner_radius is None else component.corner_radius


def pieces(sheet: Sheet, cut_of: Callable[[str], tuple[Shape, float] | None]) -> list[Piece]:
    """The cut of each piece placed on ``sheet``: ``cut_of(face key)`` gives
    its shape and corner radius, or None for a piece that is not cut."""
    out = []
    for placement in sheet.placements:
        found = cut_of(placement.face)
        if found is not None:
            s = placement.slot
            out.append(Piece(found[0], (s.x, s.y, s.right, s.top), found[1]))
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
    pdf: Path, first_page: int, sheets: Sequence[Sheet], cut_of: Callable[[str], tuple[Shape, float] | None]
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

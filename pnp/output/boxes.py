"""Tuck boxes printed at home: ``<game>-boxes-<paper>.pdf``, one page per
piece of each box's net, the panels filled from the box's templates and the
die line (solid) and fold lines (dashed) drawn over them.

A net is centred on the paper; one that does not fit inside the home
printer's margin is split into two pieces (:func:`pnp.imposition.tuckbox.net`),
one a sheet. The panels are laid out by WeasyPrint like a document; the lines
are drawn afterwards, straight from the geometry, so they are exactly where
the geometry says.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pikepdf

from pnp.imposition.tuckbox import Deck, Inner, Piece, inner_size, net
from pnp.errors import Diagnostic, InputError
from pnp.model import Game, Paper, TuckBox
from pnp.units import mm, to_mm

CUT_WIDTH = 0.6
FOLD_WIDTH = 0.4
FOLD_DASH = (mm(2), mm(1.5))
LINE_GREY = 0.15
"""The die line's and fold lines' grey (0 black)."""


@dataclass(frozen=True)
class Placed:
    """A piece on a sheet: its offset from the paper's bottom-left corner, mm."""

    piece: Piece
    x: float
    y: float


def deck_of(game: Game, box: TuckBox) -> Deck:
    """What ``box`` holds, in millimetres."""
    held = [game.component(name) for name in box.holds]
    sleeves = None if box.sleeves is None else (to_mm(box.sleeves[0]), to_mm(box.sleeves[1]), to_mm(box.sleeves[2]))
    return Deck(
        to_mm(held[0].size.width), to_mm(held[0].size.height), sum(c.copies for c in held),
        to_mm(box.stock), sleeves, to_mm(box.tolerance),
    )


def margin() -> float:
    """mm along each paper edge a home printer leaves blank: the home profile's ``printable_margin``."""
    from pnp.output.profiles import profile

    return to_mm(profile("home").printable_margin or 0.0)


def placed(inner: Inner, paper: Paper) -> tuple[Placed, ...] | None:
    """The net centred on ``paper``: whole when it fits inside the margin, else
    in two pieces; None when even the pieces do not fit."""
    room = (to_mm(paper.width) - 2 * margin(), to_mm(paper.height) - 2 * margin())
    for split in (False, True):
        pieces = net(inner, split)
        if all(p.width <= room[0] + 1e-6 and p.height <= room[1] + 1e-6 for p in pieces):
            return tuple(Placed(p, (to_mm(paper.width) - p.width) / 2, (to_mm(paper.height) - p.height) / 2) for p in pieces)
    return None


def _too_big(game: Game, index: int, inner: Inner, paper: Paper) -> InputError:
    piece = net(inner, True)[1]
    return InputError([Diagnostic(
        game.where.get(f"boxes[{index}]", game.source), f"boxes[{index}]",
        f"the box's net, even split in two, needs {piece.width:.1f} x {piece.height:.1f} mm, more than {paper.name} holds "
        f"inside its {margin():g} mm margin (inside {inner.width:.1f} x {inner.height:.1f} x {inner.depth:.1f} mm); "
        "expected fewer or thinner cards, or a larger paper",
    )])


def box_sections(game: Game, box: TuckBox, paper: Paper, pieces: Sequence[Placed], inner: Inner) -> list[str]:
    """One page per piece: each panel's template in a box of the panel's size, at its place."""
    from pnp.render.faces import document_context
    from pnp.render.templating import environment, render

    env = environment(game.root)
    context = {
        **document_context(game),
        "box": {"id": box.id, "name": box.name, "width": inner.width, "height": inner.height, "depth": inner.depth,
                "cards": deck_of(game, box).cards, "holds": [game.component(name).name for name in box.holds]},
    }
    height = to_mm(paper.height)
    pages = []
    for where in pieces:
        panels = []
        for panel in where.piece.panels:
            template = box.panels.get("top" if panel.name == "bottom" else panel.name)
            if template is None:
                continue
            body = render(env, template, {**context, "panel": panel.name}, f"box {box.id} {panel.name}")
            top = height - (where.y + panel.y + panel.height)
            panels.append(
                f"<div class='pnp-box-panel pnp-box-{panel.name}' style='position: absolute; overflow: hidden; "
                f"left: {where.x + panel.x:.3f}mm; top: {top:.3f}mm; width: {panel.width:.3f}mm; height: {panel.height:.3f}mm'>{body}</div>"
            )
        pages.append(f"<section class='pnp-box-sheet' style='position: relative; height: {height:.3f}mm'>{''.join(panels)}</section>")
    return pages


def draw_lines(pdf: pikepdf.Pdf, pieces: Sequence[Placed]) -> None:
    """The die line and the fold lines of each piece over its page."""
    for page, where in zip(pdf.pages, pieces):
        page.contents_add(pikepdf.Stream(pdf, lines(where)))


def lines(where: Placed) -> bytes:
    """The content stream of one piece's lines, in points: the die line as one
    closed path, then the folds, dashed."""
    cut, folds = paths(where)
    dash = f"[{FOLD_DASH[0]:.3f} {FOLD_DASH[1]:.3f}] 0 d"
    return (f"q {LINE_GREY} G {CUT_WIDTH} w [] 0 d {cut} S Q "
            f"q {LINE_GREY} G {FOLD_WIDTH} w {dash} {folds} S Q").encode()


def paths(where: Placed) -> tuple[str, str]:
    """A piece's die line as one closed path and its folds as segments: path operators in points."""
    def point(x: float, y: float) -> str:
        return f"{mm(where.x + x):.3f} {mm(where.y + y):.3f}"

    cut = where.piece.cut
    outline = f"{point(*cut[0])} m " + " ".join(f"{point(*p)} l" for p in cut[1:]) + " h"
    return outline, " ".join(f"{point(*a)} m {point(*b)} l" for a, b in where.piece.folds)


def boxes_pdf(game: Game, paper: Paper) -> pikepdf.Pdf | None:
    """Every box of ``game`` on ``paper``, one file; None when it has none."""
    if not game.boxes:
        return None
    sections: list[str] = []
    pieces: list[Placed] = []
    for index, box in enumerate(game.boxes):
        inner = inner_size(deck_of(game, box))
        placed_here = placed(inner, paper)
        if placed_here is None:
            raise _too_big(game, index, inner, paper)
        sections += box_sections(game, box, paper, placed_here, inner)
        pieces += placed_here
    pdf = _laid_out(game, game.boxes, paper, sections)
    draw_lines(pdf, pieces)
    pdf.docinfo = pdf.make_indirect(pikepdf.Dictionary(Title=f"{game.title}: boxes ({paper.name})", Creator="pnp"))
    return pdf


@dataclass(frozen=True)
class FactoryBox:
    """One box for a factory: its whole net on one page, ``bleed`` round it."""

    box: TuckBox
    inner: Inner
    pdf: pikepdf.Pdf
    """The panels' art only; TrimBox the net's bounds, BleedBox the page."""
    cut: str
    """The die line: path operators in points (:func:`paths`)."""
    creases: str
    """The fold lines, likewise."""
    trim: tuple[float, float]
    """The net's width and height, points."""


def factory_box(game: Game, box: TuckBox, bleed: float) -> FactoryBox:
    """``box`` for a factory: the net in one piece (a factory's sheet is large), on
    a page ``bleed`` points larger each way; no lines drawn (the caller draws the
    die in its spot colour, :func:`pnp.pdf.dieline.add_die_paths`)."""
    inner = inner_size(deck_of(game, box))
    (piece,) = net(inner)
    edge = to_mm(bleed)
    paper = Paper("factory", box.name, mm(piece.width + 2 * edge), mm(piece.height + 2 * edge))
    where = Placed(piece, edge, edge)
    pdf = _laid_out(game, (box,), paper, box_sections(game, box, paper, (where,), inner))
    page = pdf.pages[0].obj
    page.TrimBox = pikepdf.Array([bleed, bleed, paper.width - bleed, paper.height - bleed])
    page.BleedBox = pikepdf.Array([0, 0, paper.width, paper.height])
    cut, creases = paths(where)
    return FactoryBox(box, inner, pdf, cut, creases, (mm(piece.width), mm(piece.height)))


def _laid_out(game: Game, boxes: Sequence[TuckBox], paper: Paper, sections: Sequence[str]) -> pikepdf.Pdf:
    """The boxes' panel pages on ``paper``, laid out by WeasyPrint."""
    from pnp.render.frame import frame
    from pnp.render.scope import scope_for
    from pnp.render.weasy import render_inspected
    from pnp.units import css

    styles = list(dict.fromkeys(style for box in boxes for style in box.styles))
    page_css = (f"@page {{ size: {css(paper.width)} {css(paper.height)}; margin: 0; }} "
                ".pnp-box-sheet + .pnp-box-sheet { break-before: page; }")
    data, _ = render_inspected(frame(game, styles, page_css, "".join(sections)), scope_for(game), "boxes", None)
    return pikepdf.open(io.BytesIO(data))


def boxes_file(game: Game, paper: str) -> str:
    return f"{game.folder_name}-boxes-{paper}.pdf"

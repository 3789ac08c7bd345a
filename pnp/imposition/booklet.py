"""A document (a rulebook) as a saddle-stitched booklet and as reader's spreads.

Booklet: the pages are padded with blank pages at the end to a multiple of
four (a sheet folded once carries four pages) and imposed two to a side on
the paper turned landscape, in printer's spreads: the first sheet's outside
holds the last page and page 1, its inside pages 2 and the one before last,
and so on inward, so the printed stack folded in half reads in order. Each
page is scaled to fit half the sheet (an A4 page to A5, 0.707; a Letter page
to half Letter, 0.647) and centred in it. The file asks for double-sided
printing flipped on the short edge (``/ViewerPreferences /Duplex``), which
is what turns the back of a landscape sheet the right way up. Fold marks
stand at the fold on every side, just inside the edges; two staple marks
stand on the fold of the outside of the first sheet (the booklet's spine),
at a quarter and three quarters of its height.

Reader's spreads: page 1 alone, then pages 2 and 3 side by side, 4 and 5,
and so on (the last page alone when it has no partner), each at full size:
the booklet as it reads open, for screens.

Page numbers here are 1-based; ``None`` is a blank (padding) page.
"""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf
from pikepdf import Name

from pnp.imposition.geometry import Rect
from pnp.model import Paper
from pnp.units import mm

Side = tuple[int | None, int | None]
"""The pages of one side of a sheet or one spread, left then right."""

MARK_INSET = mm(5)
"""How far the fold marks stay from the sheet's edge (home printers leave a margin unprinted)."""
MARK_LENGTH = mm(4)
STAPLE_LENGTH = mm(3)
MARK_GREY = 0.55
MARK_WIDTH = 0.5
"""Line width of the marks, in points."""


def padded(pages: int) -> int:
    """Pages of the booklet: ``pages`` rounded up to a multiple of four (at least four)."""
    return max(4, -(-pages // 4) * 4)


def printer_spreads(pages: int) -> list[Side]:
    """The sides of the booklet's sheets in print order (each sheet's outside,
    then its inside), padded pages as None."""
    total = padded(pages)

    def page(number: int) -> int | None:
        return number if number <= pages else None

    sides: list[Side] = []
    for sheet in range(total // 4):
        sides.append((page(total - 2 * sheet), page(1 + 2 * sheet)))
        sides.append((page(2 + 2 * sheet), page(total - 1 - 2 * sheet)))
    return sides


def reader_spreads(pages: int) -> list[Side]:
    """Page 1 alone (on the right, as a booklet opens), then facing pairs, then
    the last page alone (on the left) when it has no partner."""
    spreads: list[Side] = [(None, 1)] if pages else []
    for left in range(2, pages + 1, 2):
        spreads.append((left, left + 1 if left + 1 <= pages else None))
    return spreads


@dataclass(frozen=True)
class SheetPlan:
    """Where a document page sits on a booklet sheet, in points."""

    width: float
    height: float
    scale: float
    left: Rect
    right: Rect


def sheet_plan(page_width: float, page_height: float, paper_width: float, paper_height: float) -> SheetPlan:
    """The paper turned landscape, and a page scaled to fit each half, centred in it."""
    width, height = max(paper_width, paper_height), min(paper_width, paper_height)
    half = width / 2
    scale = min(half / page_width, height / page_height)
    w, h = page_width * scale, page_height * scale
    y = (height - h) / 2
    return SheetPlan(width, height, scale, Rect((half - w) / 2, y, w, h), Rect(half + (half - w) / 2, y, w, h))


def booklet(document: pikepdf.Pdf, paper_width: float, paper_height: float) -> pikepdf.Pdf:
    """``document`` imposed as a saddle-stitched booklet on the paper."""
    first = document.pages[0].mediabox
    plan = sheet_plan(float(first[2]) - float(first[0]), float(first[3]) - float(first[1]), paper_width, paper_height)
    out = pikepdf.new()
    for index, (left, right) in enumerate(printer_spreads(len(document.pages))):
        page = out.add_blank_page(page_size=(plan.width, plan.height))
        for number, slot in ((left, plan.left), (right, plan.right)):
            if number is not None:
                page.add_overlay(document.pages[number - 1], _rectangle(slot))
        page.contents_add(pikepdf.Stream(out, _marks(plan, staples=index == 0)))
    out.Root.ViewerPreferences = pikepdf.Dictionary(Duplex=Name.DuplexFlipShortEdge)
    return out


def spreads(document: pikepdf.Pdf) -> pikepdf.Pdf:
    """``document`` as reader's spreads, each page at full size."""
    out = pikepdf.new()
    for left, right in reader_spreads(len(document.pages)):
        shown = [n for n in (left, right) if n is not None]
        boxes = [document.pages[n - 1].mediabox for n in shown]
        sizes = [(float(b[2]) - float(b[0]), float(b[3]) - float(b[1])) for b in boxes]
        page = out.add_blank_page(page_size=(sum(w for w, _ in sizes), max(h for _, h in sizes)))
        x = 0.0
        for number, (w, h) in zip(shown, sizes):
            page.add_overlay(document.pages[number - 1], pikepdf.Rectangle(x, 0, x + w, h))
            x += w
    return out


def booklets(document: pikepdf.Pdf, paper: Paper, file: str) -> list[tuple[str, pikepdf.Pdf]]:
    """The booklet and the reader's spreads of ``document`` (written as ``file``,
    ``<game>-<id>-<paper>.pdf``), named ``<game>-<id>-booklet-<paper>.pdf`` and
    ``<game>-<id>-spreads-<paper>.pdf``, titled after it."""
    title = str(document.docinfo.get(Name.Title, file.removesuffix(f"-{paper.id}.pdf")))
    made = [("booklet", "booklet", booklet(document, paper.width, paper.height)), ("spreads", "reader's spreads", spreads(document))]
    for _, label, pdf in made:
        pdf.docinfo = pdf.make_indirect(pikepdf.Dictionary(Title=f"{title} ({label})", Creator="pnp"))
    return [(imposed_file(file, paper.id, kind), pdf) for kind, _, pdf in made]


def imposed_file(file: str, paper: str, kind: str) -> str:
    """The name of ``file``'s (``<game>-<id>-<paper>.pdf``) ``kind`` (booklet, spreads): ``<game>-<id>-<kind>-<paper>.pdf``."""
    return f"{file.removesuffix(f'-{paper}.pdf')}-{kind}-{paper}.pdf"


def _rectangle(rect: Rect) -> pikepdf.Rectangle:
    return pikepdf.Rectangle(rect.x, rect.y, rect.right, rect.top)


def _marks(plan: SheetPlan, staples: bool) -> bytes:
    """Fold marks at the fold, near the top and bottom edges; with ``staples``,
    two staple marks across the fold at a quarter and three quarters of its height."""
    fold = plan.width / 2
    lines = [
        (fold, MARK_INSET, fold, MARK_INSET + MARK_LENGTH),
        (fold, plan.height - MARK_INSET - MARK_LENGTH, fold, plan.height - MARK_INSET),
    ]
    if staples:
        lines += [(fold, plan.height * q - STAPLE_LENGTH / 2, fold, plan.height * q + STAPLE_LENGTH / 2) for q in (0.25, 0.75)]
        lines += [(fold - STAPLE_LENGTH / 2, plan.height * q, fold + STAPLE_LENGTH / 2, plan.height * q) for q in (0.25, 0.75)]
    path = " ".join(f"{x0:.3f} {y0:.3f} m {x1:.3f} {y1:.3f} l" for x0, y0, x1, y1 in lines)
    return f"q {MARK_GREY} G {MARK_WIDTH} w {path} S Q".encode()

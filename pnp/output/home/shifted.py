"""A home file's sheets again, with the backs moved by fixed offsets, for a
player who holds only the PDF (``pnp build --shifted-backs``).

The registration test gives two readings, X and Y, in half millimetres. The
shifted file holds the file's sheets once for each pair of readings from
-1.5 to +1.5 mm (half the 3 mm gap of pnp's spaced layouts), in the same
order as the file itself, with every back moved by that pair: its first page
is a table of which pages to print for which readings. Each copy of a sheet
is a page of a few hundred bytes drawing the faces the file already holds,
so the file stays small however many pages it has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from html import escape

from pnp.imposition.geometry import Rect, Sheet
from pnp.model import Game, Paper
from pnp.render.document import own_pages_html
from pnp.units import css, mm

SHIFTS = (-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5)
"""The readings given pages of their own, on each axis, in mm."""

Cell = tuple[float, float]


def shifted_file(name: str) -> str:
    """The shifted file written beside the home file ``name``."""
    return name.removesuffix(".pdf") + "-shifted-backs.pdf"


def cells(base: tuple[float, float]) -> list[Cell]:
    """The (X, Y) readings with pages of their own, in the order the file
    holds them: row by row from Y = +1.5, X from -1.5. The home file itself
    serves 0, 0 unless it was built with a back offset of its own."""
    return [(x, y) for y in reversed(SHIFTS) for x in SHIFTS if (x, y) != (0.0, 0.0) or base != (0.0, 0.0)]


def moved(sheets: Sequence[Sheet], by: tuple[float, float]) -> list[Sheet]:
    """``sheets`` with every back sheet's faces moved ``by`` (points, x right and y up as the back is seen)."""
    dx, dy = by

    def shift(r: Rect) -> Rect:
        return Rect(r.x + dx, r.y + dy, r.width, r.height)

    return [
        replace(s, placements=tuple(replace(p, slot=shift(p.slot), clip=shift(p.clip)) for p in s.placements))
        if s.side == "back" else s
        for s in sheets
    ]


def shifted_sheets(sheets: Sequence[Sheet], base: tuple[float, float]) -> list[Sheet]:
    """Every cell's copy of ``sheets`` (imposed with the back offset ``base``,
    in points), one after the other: the backs of the copy for reading (X, Y)
    lie X mm right and Y mm up of where no offset puts them."""
    return [s for x, y in cells(base) for s in moved(sheets, (mm(x) - base[0], mm(y) - base[1]))]


def page_ranges(base: tuple[float, float], sheets: int, front_pages: int) -> dict[Cell, tuple[int, int]]:
    """Each cell's first and last page in the shifted file, after its ``front_pages``."""
    return {cell: (front_pages + 1 + i * sheets, front_pages + (i + 1) * sheets) for i, cell in enumerate(cells(base))}


def reading(value: float) -> str:
    """A reading as the registration test prints it: 0, +0.5, \u22121."""
    text = f"{value:+.1f}".removesuffix(".0")
    return "0" if value == 0 else text.replace("-", "\u2212")


def _pages(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low}\u2013{high}"


CSS = """
<style>
.shifted { font-size: 10pt; line-height: 1.3; }
.shifted h1 { font-size: 16pt; font-weight: normal; margin: 0 0 3mm 0; }
.shifted p { margin: 0 0 2.5mm 0; }
.shifted table { border-collapse: collapse; margin: 4mm 0; }
.shifted th, .shifted td { border: 0.25pt solid #666; padding: 1.2mm 2mm; text-align: center; font-variant-numeric: lining-nums tabular-nums; }
.shifted th { font-weight: normal; font-style: italic; }
.shifted strong { font-weight: normal; text-decoration: underline; }
</style>
"""


def index_html(
    game: Game, paper: Paper, home: str, home_pages: tuple[int, int], base: tuple[float, float], front_pages: int = 1
) -> str:
    """The shifted file's first page(s): which pages to print for which reading
    of the registration test, in place of pages ``home_pages`` of ``home``."""
    sheets = home_pages[1] - home_pages[0] + 1
    where = page_ranges(base, sheets, front_pages)
    head = "".join(f"<th>X {escape(reading(x))}</th>" for x in SHIFTS)
    rows = "".join(
        f"<tr><th>Y {escape(reading(y))}</th>"
        + "".join(f"<td>{_pages(*where[(x, y)]) if (x, y) in where else 'the file as it is'}</td>" for x in SHIFTS)
        + "</tr>"
        for y in reversed(SHIFTS)
    )
    span = escape(_pages(*home_pages))
    name = escape(home)
    body = f"""
<section class="shifted">
<h1>{escape(game.title)}: the card pages with the backs moved ({escape(paper.name)})</h1>
<p><strong>Do not print this whole file.</strong> It holds pages {span} of {name} again, once for each
reading of registration-test-{escape(paper.id)}.pdf, with the backs moved to make up for that reading.
The fronts are the same.</p>
<p>On the registration test, X is the reading at the top and bottom and Y the reading at the sides;
round each to the nearest half millimetre. Find X in the top row and Y in the left column: where they
meet are the pages to print, two-sided (flip on the long edge), on the stock that page 1 of {name} asks
for, in place of its pages {span}. They come in the same order: the first of them is page {home_pages[0]}
of {name}, the next page {home_pages[0] + 1}, and so on.</p>
<table><tr><th></th>{head}</tr>{rows}</table>
<p>A reading beyond 1.5&nbsp;mm either way has no pages here: use the printer's own setting for
moving the back side, as the registration test explains, or print with the nearest reading.</p>
</section>
"""
    page = f"<style>@page {{ size: {css(paper.width)} {css(paper.height)}; margin: 18mm; }}</style>"
    return own_pages_html(game, page + CSS + body, [])

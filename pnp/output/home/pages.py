"""The pages a home build prints besides the sheets: each file's printing
instructions (what to print on which stock, how to cut) and the game's documents."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TypedDict

import pikepdf

from pnp.output.home.needs import document_needs, needs, steps
from pnp.imposition.cutmarks import by_machine
from pnp.imposition.geometry import Sheet
from pnp.model import Component, Document, Game, Module, Paper, SheetLayout
from pnp.paths import OWN
from pnp.render.document import own_pages_html, pages_html
from pnp.render.faces import base_context, document_context
from pnp.render.templating import environment, render
from pnp.units import css, to_mm

CALIBRATION_MM = 50
INSTRUCTIONS = "pnp/instructions.html"
INSTRUCTIONS_CSS = OWN / "templates" / "pnp" / "instructions.css"


def in_print_order(sheets: Mapping[str, tuple[Sheet, ...]]) -> list[Sheet]:
    """Every sheet once, in the order the components print (a sheet two
    components share is listed under both)."""
    return list({id(s): s for held in sheets.values() for s in held}.values())


class PartRow(TypedDict):
    """A component's row of the printing instructions (``parts`` in their template)."""

    id: str
    name: str
    pages: str
    """Its pages, ``3`` or ``3\u20135``."""
    first: int
    last: int
    copies: int
    sheets: int
    """The sheets it prints on that no component before it printed on."""
    stock: str
    material: str
    sides: str
    round: bool
    folded: bool
    gap_mm: float
    gap: str
    marks: bool
    width_mm: float
    width_in: float
    by_hand: bool
    """A cut profile: the machine cannot cut it (too big for its area), so it is printed to cut by hand."""


def page_ranges(
    sheets: Mapping[str, tuple[Sheet, ...]], components: Sequence[Component], first: int, layouts: Mapping[str, SheetLayout]
) -> list[PartRow]:
    """Page 1's row of each component, in the order they print (``sheets``'
    order), numbered from ``first``: a component on a sheet it shares with
    the one before it gives that page too, and only its other sheets count
    as its own in What you need."""
    page_of = {id(s): page for page, s in enumerate(in_print_order(sheets), start=first)}
    named = {c.id: c for c in components}
    counted: set[int] = set()
    parts: list[PartRow] = []
    for cid, held in sheets.items():
        component = named[cid]
        if not held:
            continue
        low, high = page_of[id(held[0])], page_of[id(held[-1])]
        two_sided = any(s.side == "back" for s in held)
        folded = any(s.side == "gutterfold" for s in held)
        round_items = any(s.guides for s in held)
        parts.append(
            {
                "id": component.id,
                "name": component.name,
                "pages": f"{low}" if low == high else f"{low}\u2013{high}",
                "first": low,
                "last": high,
                "copies": component.copies,
                "sheets": sum(s.side != "back" and id(s) not in counted for s in held),
                "stock": _stock(component, layouts, held[0].paper.id),
                "material": component.stock,
                "sides": "one-sided, then fold" if folded else "two-sided, long edge" if two_sided else "one-sided",
                "round": round_items,
                "folded": folded,
                "gap_mm": round(to_mm(held[0].gap), 1),
                "gap": f"{to_mm(held[0].gap):.1f}".removesuffix(".0"),
                "marks": any(not m.dashed and not m.registration for s in held for m in s.marks),
                "by_hand": not by_machine(held) and not _labels(component, layouts, held[0].paper.id),
                "width_mm": round(to_mm(component.size.width), 1),
                "width_in": round(component.size.width / 72, 3),
            }
        )
        counted.update(id(s) for s in held)
    return parts



def _stock(component: Component, layouts: Mapping[str, SheetLayout], paper: str) -> str:
    """What to print a component on; a label product is named."""
    layout = layouts.get(component.layout_for(paper))
    if layout is not None and layout.labels is not None:
        return f"{component.stock}: {layout.labels.product}"
    return component.stock


def _labels(component: Component, layouts: Mapping[str, SheetLayout], paper: str) -> bool:
    """The component prints on a label sheet, which comes cut."""
    layout = layouts.get(component.layout_for(paper))
    return layout is not None and layout.labels is not None



def instructions_html(
    game: Game,
    paper: Paper,
    parts: list[PartRow],
    front_pages: int,
    module: Module | None = None,
    others: list[dict[str, str]] | None = None,
    gutterfold: bool = False,
    shifted: str | None = None,
    cut: Mapping[str, str] | None = None,
) -> str:
    """The printing-instructions page(s) of one file on one paper; ``shifted``
    names the file holding its sheets again with the backs moved, if any;
    ``cut``, a print-and-cut build's machine, marks and cut-file folder."""
    sheets = f"{front_pages + 1}\u2013{max((p['last'] for p in parts), default=front_pages + 1)}"
    context = {
        "gutterfold": gutterfold,
        **base_context(game),
        "paper": {"id": paper.id, "name": paper.name},
        "parts": parts,
        "module": {"name": module.name, "description": module.description or ""} if module else None,
        "documents": others or [],
        "needs": needs(game, parts, module),
        "steps": steps(game, parts, module),
        "front_pages": "1" if front_pages == 1 else f"1\u2013{front_pages}",
        "square_mm": CALIBRATION_MM,
        "shifted": {"file": shifted, "pages": sheets} if shifted else None,
        "cut": cut,
    }
    body = render(environment(game.root, shared=game.shared), INSTRUCTIONS, context, "the printing instructions")
    return own_pages_html(game, _page_css(paper, "15mm") + body, [INSTRUCTIONS_CSS])



def _page_css(paper: Paper, margin: str) -> str:
    return f"<style>@page {{ size: {css(paper.width)} {css(paper.height)}; margin: {margin}; }}</style>"



def document_html(game: Game, document: Document, paper: Paper) -> str:
    """A rulebook or other document, laid out on ``paper``."""
    context = {**document_context(game), "paper": {"id": paper.id, "name": paper.name}, "needs": document_needs(game, paper.id)}
    body = render(environment(game.root, shared=game.shared), document.template, context, f"document {document.id}")
    return pages_html(game, _page_css(paper, "18mm") + body, list(document.styles))



def count_pages(data: bytes) -> int:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)

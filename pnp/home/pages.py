"""The pages a home build prints besides the sheets: each file's printing
instructions (what to print on which stock, how to cut) and the game's documents."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import pikepdf

from pnp.home.needs import document_needs, needs, steps
from pnp.imposition.geometry import Sheet
from pnp.model import Component, Document, Game, Module, Paper, SheetLayout
from pnp.paths import OWN
from pnp.render.document import pages_html
from pnp.render.faces import base_context, document_context
from pnp.render.templating import environment, render
from pnp.units import css, to_mm

CALIBRATION_MM = 50
INSTRUCTIONS = "pnp/instructions.html"
INSTRUCTIONS_CSS = OWN / "templates" / "pnp" / "instructions.css"


def page_ranges(
    sheets: dict[str, tuple[Sheet, ...]], components: Sequence[Component], first: int, layouts: Mapping[str, SheetLayout]
) -> list[dict[str, Any]]:
    parts = []
    page = first
    for component in components:
        count = len(sheets[component.id])
        if count == 0:
            continue
        pages = f"{page}" if count == 1 else f"{page}\u2013{page + count - 1}"
        two_sided = any(s.side == "back" for s in sheets[component.id])
        folded = any(s.side == "gutterfold" for s in sheets[component.id])
        round_items = any(s.guides for s in sheets[component.id])
        parts.append(
            {
                "id": component.id,
                "name": component.name,
                "pages": pages,
                "first": page,
                "last": page + count - 1,
                "copies": component.copies,
                "sheets": sum(s.side != "back" for s in sheets[component.id]),
                "stock": _stock(component, layouts, sheets[component.id][0].paper.id),
                "material": component.stock,
                "sides": "one-sided, then fold" if folded else "two-sided, long edge" if two_sided else "one-sided",
                "round": round_items,
                "folded": folded,
                "gap_mm": round(to_mm(sheets[component.id][0].gap), 1),
                "gap": f"{to_mm(sheets[component.id][0].gap):.1f}".removesuffix(".0"),
                "marks": any(not m.dashed for s in sheets[component.id] for m in s.marks),
                "width_mm": round(to_mm(component.size.width), 1),
                "width_in": round(component.size.width / 72, 3),
            }
        )
        page += count
    return parts



def _stock(component: Component, layouts: Mapping[str, SheetLayout], paper: str) -> str:
    """What to print a component on; a label product is named."""
    layout = layouts.get(component.layout_for(paper))
    if layout is not None and layout.labels is not None:
        return f"{component.stock}: {layout.labels.product}"
    return component.stock



def instructions_html(
    game: Game,
    paper: Paper,
    parts: list[dict[str, Any]],
    front_pages: int,
    module: Module | None = None,
    others: list[dict[str, str]] | None = None,
    gutterfold: bool = False,
) -> str:
    """The printing-instructions page(s) of one file on one paper."""
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
    }
    body = render(environment(game.root), INSTRUCTIONS, context, "the printing instructions")
    return pages_html(game, _page_css(paper, "15mm") + body, [INSTRUCTIONS_CSS])



def _page_css(paper: Paper, margin: str) -> str:
    return f"<style>@page {{ size: {css(paper.width)} {css(paper.height)}; margin: {margin}; }}</style>"



def document_html(game: Game, document: Document, paper: Paper) -> str:
    """A rulebook or other document, laid out on ``paper``."""
    context = {**document_context(game), "paper": {"id": paper.id, "name": paper.name}, "needs": document_needs(game, paper.id)}
    body = render(environment(game.root), document.template, context, f"document {document.id}")
    return pages_html(game, _page_css(paper, "18mm") + body, list(document.styles))



def count_pages(data: bytes) -> int:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)

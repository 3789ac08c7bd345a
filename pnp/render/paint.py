"""The order in which WeasyPrint paints a laid-out page: what is drawn on top.

:func:`paint_order` numbers every piece of text, every replaced element
(``<img>``, raster or SVG, and inline ``<svg>``) and every background of a page
in the order WeasyPrint's ``draw_stacking_context`` draws them (CSS 2.1
appendix E: stacking contexts by z-index, block backgrounds before inline
content, positioned elements after the flow in tree order), so a later number
is painted over an earlier one. It walks WeasyPrint's own stacking contexts
(``weasyprint.stacking``) the way ``weasyprint.draw`` does, so it is tied to the
pinned WeasyPrint version like :mod:`pnp.render.inspect`.

Keys are ``id()`` of the drawn object: the text box, the replaced box, or the
box's ``background`` (shared by the copies the stacking contexts make of their
boxes). Building the stacking contexts is what drawing the page does anyway;
its only side effect on the laid-out boxes (``remove_decoration_sides``) is
read by layout alone, which is over.

So the page's drawing is handed the stacking contexts :func:`paint_order`
built rather than building them again (about 1 % of a face's instructions):
:func:`install` wraps ``StackingContext.from_page`` (a monkeypatch: drawing
calls it by its class) to give a page box its contexts from
:func:`paint_order` once, and build them as before for any other page, or
a second time. Neither the walk here nor drawing changes them, so the page
draws as before (tests/render/test_paint.py compares the bytes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Protocol

from pnp.render.boxtree import Box

Blocks = Mapping[Box, "Blocks"]
"""Block-level boxes and table cells, each with those it holds, in drawing order."""


class Stacking(Protocol):
    """What pnp reads of a WeasyPrint ``StackingContext``."""

    box: Box
    negative_z_contexts: Sequence[Stacking]
    block_level_boxes: Sequence[Box]
    float_contexts: Sequence[Stacking]
    zero_z_contexts: Sequence[Stacking]
    positive_z_contexts: Sequence[Stacking]
    blocks_and_cells: Blocks


def paint_order(page_box: Box) -> dict[int, int]:
    """``id()`` of each text box, replaced box and background on the page ->
    its place in the drawing (0 first). What is not drawn is not listed."""
    from weasyprint.stacking import StackingContext

    order: dict[int, int] = {}
    contexts = StackingContext.from_page(page_box)
    _Walk(order).context(contexts)
    page_box._pnp_stacking = contexts  # type: ignore[attr-defined]  # for the page's drawing, once (see install)
    return order


def install(weasyprint: ModuleType) -> None:
    """Route WeasyPrint's ``StackingContext.from_page`` through :func:`_built_once` (once per process)."""
    stacking = weasyprint.stacking.StackingContext
    if not getattr(stacking.from_page, "pnp_wrapped", False):
        stacking.from_page = staticmethod(_built_once(stacking.from_page))


def _built_once(original: Callable[[Box], Stacking]) -> Callable[[Box], Stacking]:
    def from_page(page: Box) -> Stacking:
        built: Stacking | None = page.__dict__.pop("_pnp_stacking", None)
        return original(page) if built is None else built

    from_page.pnp_wrapped = True  # type: ignore[attr-defined]
    return from_page


class _Walk:
    def __init__(self, order: dict[int, int]) -> None:
        from weasyprint.formatting_structure import boxes
        from weasyprint.stacking import StackingContext

        self.order = order
        self.boxes = boxes
        self.stacking: type[Stacking] = StackingContext
        self.own_background = (
            boxes.BlockBox, boxes.MarginBox, boxes.InlineBlockBox, boxes.TableCellBox,
            boxes.FlexContainerBox, boxes.GridContainerBox, boxes.ReplacedBox,
        )

    def mark(self, drawn: object) -> None:
        if drawn is not None:
            self.order.setdefault(id(drawn), len(self.order))

    def context(self, context: Stacking) -> None:
        """As ``draw_stacking_context``: its steps 2 to 9."""
        box = context.box
        if box.transformation_matrix is not None and not box.transformation_matrix.determinant:
            return  # drawn as nothing
        if isinstance(box, self.own_background):
            self.mark(box.background)
        for child in context.negative_z_contexts:
            self.context(child)
        for block in context.block_level_boxes:
            self.mark(block.background)
        for child in context.float_contexts:
            self.context(child)
        if isinstance(box, self.boxes.InlineBox):
            self.inline(box)
        self.blocks({box: context.blocks_and_cells})
        for child in (*context.zero_z_contexts, *context.positive_z_contexts):
            self.context(child)

    def inline(self, box: Box) -> None:
        """As ``draw_inline_level``: ``box``, or a stacking context standing
        in its place among its line's children."""
        if isinstance(box, self.stacking):
            self.context(box)
            return
        self.mark(box.background)
        if isinstance(box, (self.boxes.InlineBox, self.boxes.LineBox)):
            for child in box.children:
                if isinstance(child, self.boxes.TextBox):
                    self.mark(child)
                else:
                    self.inline(child)
        else:
            self.mark(box)  # a replaced box, or a list marker's text

    def blocks(self, blocks_and_cells: Blocks) -> None:
        """As ``draw_block_level``."""
        for block, inside in blocks_and_cells.items():
            if isinstance(block, self.boxes.ReplacedBox):
                self.mark(block)
            elif block.children and isinstance(block.children[-1], self.boxes.LineBox):
                for child in block.children:
                    self.inline(child)
            self.blocks(inside)

"""After layout, before writing: find text that overflows its box, leaves the
safe zone, lies over another element's text or meets art, or is set in a font
or character the game did not declare.

WeasyPrint's ``HTML.render()`` returns a Document whose pages can be looked at
before ``write_pdf()``. :func:`inspect_layout` walks each page's laid-out box
tree and reports, per page, text that does not fit the box meant to hold it and
text that reaches outside the card's safe zone, the text of two elements
drawn over each other, and text under art or running onto it
(:mod:`pnp.render.overlap`, in the order :mod:`pnp.render.paint` finds). Only
text is held to boxes and the safe zone: full-bleed art and backgrounds are
meant to reach the page edge.

Units: callers speak points (as everywhere in pnp) from the page's top-left
corner; WeasyPrint's boxes are in CSS px (1px = 0.75pt) from the same corner,
and the conversion happens here. Messages give millimetres.

A finding is a :class:`pnp.render.findings.LayoutFinding` (named here too,
with :func:`pnp.render.findings.safe_box`, for the checks' callers).

This reads WeasyPrint internals (``Page._page_box`` and the box classes and
attributes named in :func:`_box_types` and :func:`_visit`), so it is tied to the
WeasyPrint version pinned by the project; WeasyPrint itself is imported only
when a document is inspected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal, NamedTuple

from pnp.render.boxtree import Box, Document, Element
from pnp.render.findings import LayoutFinding as LayoutFinding, safe_box as safe_box
from pnp.render.frame import STAMP_BAND
from pnp.render.fontcheck import FontRules, text_problems
from pnp.render.overlap import Art, Text, art_over_text, overlapping
from pnp.render.paint import paint_order
from pnp.render.planes import Affine, Edges, aabb, compose, intersect, relative, worst_side
from pnp.units import to_mm

PX_PER_PT = 4 / 3
"""CSS px per point: WeasyPrint lays out in px, pnp measures in points."""
TOLERANCE_PT = 0.5
"""Text may stick out this far (rounding, hinting) before it is reported."""

CHECKS = 4
"""What these checks look for, as a number raised whenever they find more:
part of every render-cache key, so findings cached before are made again."""

_TOLERANCE_PX = TOLERANCE_PT * PX_PER_PT
_INFINITY = float("inf")

def inspect_layout(
    document: Document,
    safe_boxes: Sequence[tuple[float, float, float, float] | None],
    fonts: FontRules | None = None,
    overflow: bool = True,
    page_sizes: Sequence[tuple[float, float]] | None = None,
) -> list[LayoutFinding]:
    """Find text that overflows its box, or lies outside the safe zone, on every page.

    ``document`` is a WeasyPrint Document (the result of ``HTML.render()``).
    ``safe_boxes`` gives, per page, its safe rectangle ``(x, y, width, height)``
    in *points* from the page's top-left corner (see :func:`safe_box`), or None
    not to check that page's safe zone. Pages past the end of ``safe_boxes``
    are not checked for the safe zone either (a face that spilled onto extra
    pages still has its overflow reported); more boxes than pages is an error.

    A box is checked for overflow when its height is fixed (``height`` or
    ``max-height`` not auto/none) or its ``overflow`` is not visible; so is the
    page. Text that reaches more than 0.5 pt past the box's padding box (where
    ``overflow: hidden`` clips) on any side is reported once per box and page,
    against the innermost such box it escapes; text cut to an ellipsis counts,
    since WeasyPrint lays it out whole and shortens it only when drawing.

    On pages with a safe rectangle, text of two different elements that meets
    by more than 0.5 pt both across and down is an ``overlap``, reported once
    per pair at the element whose text comes first in the document; so is text
    and art that meet so (:func:`pnp.render.overlap.art_over_text`), once per
    text element and art selector, at the text.

    With ``fonts``, every piece of visible text is also checked against
    them (``font`` findings); ``overflow=False`` checks only that.
    ``page_sizes`` (px, per page) are the pages text must stay inside when
    ``document``'s pages are taller than them (:mod:`pnp.render.spill`).

    Findings come in page order, at most one per (page, kind, element): the
    worst offence (for fonts: one per element and family or character).
    """
    if len(safe_boxes) > len(document.pages):
        raise ValueError(f"{len(safe_boxes)} safe boxes given for a document of {len(document.pages)} pages")
    types = _box_types()
    worst: dict[tuple[object, ...], tuple[float, LayoutFinding]] = {}
    for index, page in enumerate(document.pages):
        safe = safe_boxes[index] if index < len(safe_boxes) else None
        page_safe = None if safe is None else _px_edges(safe)
        order = paint_order(page._page_box) if page_safe is not None and overflow else {}
        size = None if page_sizes is None else page_sizes[index]
        _inspect_page(_Page(index, page_safe, types, worst, fonts, overflow, [], order, []), page._page_box, size)
    return [finding for _, finding in worst.values()]


def _px_edges(box: tuple[float, float, float, float]) -> Edges:
    x, y, width, height = (value * PX_PER_PT for value in box)
    return (x, y, x + width, y + height)


class _Types(NamedTuple):
    """WeasyPrint's box classes, imported when first needed."""

    text: type[Box]
    line: type[Box]
    inline: type[Box]
    container: tuple[type[Box], ...]
    placeholder: type[Box]
    replaced: type[Box]


@cache
def _box_types() -> _Types:
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout.absolute import AbsolutePlaceholder

    return _Types(
        boxes.TextBox,
        boxes.LineBox,
        boxes.InlineBox,
        (boxes.BlockContainerBox, boxes.FlexContainerBox, boxes.GridContainerBox),
        AbsolutePlaceholder,
        boxes.ReplacedBox,
    )


@dataclass(frozen=True)
class _Frame:
    """A box text must stay inside: the page, or a block whose height is fixed or overflow hidden."""

    box: Box
    edges: Edges
    """Its padding box, in its own layout coordinates (px, before transforms)."""
    matrix: Affine | None
    """From its layout coordinates to the page's; None when untransformed."""
    clip: Edges
    """What is visible inside it, in page coordinates."""
    is_page: bool
    """The page, or a box covering the whole page: reported as the page overflowing."""
    clips: bool
    named: Box | None
    """The nearest box (itself or an ancestor) whose element has a class or id."""


@dataclass(frozen=True)
class _Context:
    """What a box inherits from its ancestors during the walk."""

    frames: tuple[_Frame, ...]
    matrix: Affine | None
    abs_depth: int
    """How many frames an absolutely positioned descendant stays inside (up to its containing block)."""
    fixed_depth: int
    named: Box | None
    """The nearest box whose element has a class or id, for naming anonymous text."""
    holders: frozenset[int]
    """The painted boxes it lies in (:attr:`pnp.render.overlap.Text.holders`)."""


@dataclass(frozen=True)
class _Page:
    """One page being inspected, and where findings for the whole document go."""

    index: int
    safe: Edges | None
    types: _Types
    worst: dict[tuple[object, ...], tuple[float, LayoutFinding]]
    fonts: FontRules | None
    overflow: bool
    texts: list[Text]
    """The page's visible text so far, for :func:`pnp.render.overlap.overlapping`."""
    order: dict[int, int]
    """What is drawn when (:func:`pnp.render.paint.paint_order`); empty when art is not checked."""
    art: list[Art]
    """The page's painted boxes so far, for :func:`pnp.render.overlap.art_over_text`."""


def _inspect_page(page: _Page, page_box: Box, size: tuple[float, float] | None) -> None:
    width, height = size or (page_box.margin_width(), page_box.margin_height())
    edges = (0.0, 0.0, float(width), float(height))
    frame = _Frame(page_box, edges, None, edges, True, True, None)
    context = _Context((frame,), None, 1, 1, None, frozenset())
    for child in page_box.children:
        _visit(child, context, page)
    if page.safe is None:
        return
    for found in overlapping(page.texts, _TOLERANCE_PX):
        first, second = found.first, found.second
        _record(page, ("overlap", first.owner, second.owner), found.width * found.height, "overlap", first.element,
                f"its text overlaps the text of {second.element} ({_mm(found.width)} across, {_mm(found.height)} down)")
    for covered in art_over_text(page.texts, page.art, _TOLERANCE_PX):
        text, art = covered.text, covered.art
        how = f"under {art.element}" if covered.on_top else f"over {art.element} and past its edge"
        _record(page, ("art", text.owner, art.element), covered.width * covered.height, "overlap", text.element,
                f"its text is drawn {how} ({_mm(covered.width)} across, {_mm(covered.height)} down)")


def _visit(box: Box, context: _Context, page: _Page) -> None:
    types = page.types
    if type(box) is types.placeholder:
        box = box._box  # an absolutely positioned box, where it was in the flow
    if isinstance(box, types.text):
        _check_text(box, context, page)
        return
    if isinstance(box, types.line):
        if box.children and box.block_ellipsis != "none" and page.overflow:
            _record(page, ("clamp", id(box.element), box.element_tag), 0.0, "overflow", _describe(box, context.named),
                    "text is cut short to fit (line-clamp or block-ellipsis)")
    elif isinstance(box, types.inline):
        if _names_anew(box, context):
            context = replace(context, named=box)
        context = _paint(box, context, page)
    else:
        entered = _enter(box, context, types)
        if entered is None:
            return
        context = _paint(box, entered, page)
    for child in box.children:
        _visit(child, context, page)


def _has_name(box: Box) -> bool:
    element = _element(box)
    return bool(element.get("class") or element.get("id"))


def _element(box: Box) -> Element:
    """The element of a box that has one (every box but the page's)."""
    assert box.element is not None
    return box.element


def _names_anew(box: Box, context: _Context) -> bool:
    """Whether ``box`` is the nearest named box for its descendants, rather than an ancestor."""
    element = box.element
    if element is None or (context.named is not None and element is context.named.element):
        return False
    return _has_name(box)


def _enter(box: Box, context: _Context, types: _Types) -> _Context | None:
    """The context for ``box``'s children, or None when nothing inside it is drawn."""
    style = box.style
    position = style["position"]
    own = box.transformation_matrix  # set by WeasyPrint's Page() (gather_anchors) after layout
    overflow = style["overflow"]
    is_frame = isinstance(box, types.container) and (
        overflow != "visible" or style["height"] != "auto" or style["max_height"].value != _INFINITY
    )
    named_anew = _names_anew(box, context)
    if position == "static" and own is None and not is_frame and not named_anew:
        return context
    frames, abs_depth, fixed_depth, matrix = context.frames, context.abs_depth, context.fixed_depth, context.matrix
    named = box if named_anew else context.named
    if position == "absolute":
        frames = frames[:abs_depth]
    elif position == "fixed":
        frames = frames[:fixed_depth]
    if own is not None:
        a, b, c, d, e, f = own.values
        if a * d - b * c == 0:
            return None  # WeasyPrint draws nothing for a degenerate transform
        matrix = compose((a, b, c, d, e, f), matrix)
    if is_frame:
        x, y = box.padding_box_x(), box.padding_box_y()
        edges = (x, y, x + box.padding_width(), y + box.padding_height())
        on_page = aabb(edges, matrix)
        clips = overflow != "visible"
        clip = intersect(frames[-1].clip, on_page) if clips else frames[-1].clip
        frames = (*frames, _Frame(box, edges, matrix, clip, _covers(on_page, frames[0].edges), clips, named))
    if position != "static" or own is not None:
        abs_depth = len(frames)  # its containing block for absolutely positioned descendants
    if own is not None:
        fixed_depth = len(frames)
    return _Context(frames, matrix, abs_depth, fixed_depth, named, context.holders)


def _paint(box: Box, context: _Context, page: _Page) -> _Context:
    """Note what ``box`` paints (an image's picture, or its background) as
    art; return ``context`` (the one for its children) holding it."""
    if not page.order:
        return context
    painted: object  # a replaced box, a background, or None
    if isinstance(box, page.types.replaced):
        painted = box if box.style["visibility"] == "visible" and box.width and box.height else None
        edges = (box.content_box_x(), box.content_box_y(), box.content_box_x() + box.width, box.content_box_y() + box.height)
    else:
        background = painted = box.background
        if background is not None:
            x, y, width, height = background.layers[-1].painting_area
            edges = (x, y, x + width, y + height)
            if background.color.alpha == 0 and all(layer.image is None for layer in background.layers):
                painted = None
    order = page.order.get(id(painted)) if painted is not None and box.style["opacity"] > 0 else None
    if order is None:
        return context
    frames = context.frames  # what clips it: not its own frame, which clips only its children
    clip = frames[-2].clip if frames[-1].box is box and len(frames) > 1 else frames[-1].clip
    visible = intersect(aabb(edges, context.matrix), clip)
    if visible[0] < visible[2] and visible[1] < visible[3]:
        page.art.append(Art(visible, id(painted), order, _describe(box, context.named)))
    return replace(context, holders=context.holders | {id(painted)})


def _covers(edges: Edges, page: Edges) -> bool:
    return (
        edges[0] <= page[0] + _TOLERANCE_PX and edges[1] <= page[1] + _TOLERANCE_PX
        and edges[2] >= page[2] - _TOLERANCE_PX and edges[3] >= page[3] - _TOLERANCE_PX
    )


def _check_text(box: Box, context: _Context, page: _Page) -> None:
    if box.style["visibility"] != "visible" or not box.text.strip():
        return
    if page.fonts is not None:
        for key, message in text_problems(box.style["font_family"], box.text, page.fonts):
            _record(page, ("font", id(box.element), box.element_tag, key), 0.0, "font", _describe(box, context.named), message)
    if not page.overflow:
        return
    # Horizontally the glyphs' advance; vertically the font's ascent-to-descent,
    # trimmed to the line-height strut when a tight line-height makes it smaller.
    x, line_top, y = box.content_box_x(), box.position_y, box.content_box_y()
    top = max(line_top, y)
    bottom = min(line_top + box.margin_height(), y + box.height)
    if bottom <= top:
        top, bottom = y, y + box.height
    edges = (x, top, x + box.width, bottom)
    matrix = context.matrix
    for frame in reversed(context.frames):
        inner = edges if frame.matrix is matrix else aabb(edges, relative(matrix, frame.matrix))
        side, excess = worst_side(inner, frame.edges)
        if excess > _TOLERANCE_PX:
            _report_overflow(box, context, frame, side, excess, page)
            break
    named = context.named
    if page.safe is None:
        return
    visible = intersect(aabb(edges, matrix), context.frames[-1].clip)
    if visible[0] >= visible[2] or visible[1] >= visible[3]:
        return
    page.texts.append(Text(visible, (id(box.element), box.element_tag), _describe(box, named), page.order.get(id(box), -1), context.holders))
    if named is not None and STAMP_BAND in (_element(named).get("class") or "").split():
        return  # the build stamp sits outside the safe zone on purpose, in the band no card text may use
    side, excess = worst_side(visible, page.safe)
    if excess > _TOLERANCE_PX:
        _record(page, ("safe", id(box.element), box.element_tag), excess, "safe-zone", _describe(box, context.named),
                f"text reaches {_mm(excess)} past the safe zone ({side} edge)")


def _report_overflow(box: Box, context: _Context, frame: _Frame, side: str, excess: float, page: _Page) -> None:
    if frame.is_page:
        _record(page, ("page", id(box.element), box.element_tag), excess, "overflow", _describe(box, context.named),
                f"text overflows the page by {_mm(excess)} ({side} edge)")
        return
    hidden = "; the overflow is hidden" if frame.clips else ""
    _record(page, ("box", id(frame.box.element), frame.box.element_tag), excess, "overflow", _describe(frame.box, frame.named),
            f"text overflows its box by {_mm(excess)} ({side} edge){hidden}")


def _record(
    page: _Page, key: tuple[object, ...], excess: float, kind: Literal["overflow", "safe-zone", "overlap", "font"], element: str, message: str
) -> None:
    full_key = (page.index, kind, *key)
    known = page.worst.get(full_key)
    if known is None or excess > known[0]:
        page.worst[full_key] = (excess, LayoutFinding(page.index, kind, element, message))


def _describe(box: Box, named: Box | None) -> str:
    """``box``'s element as CSS: ``div.flavour``, or ``div.rules p`` when it has neither class nor id."""
    if box.element is None:
        return "page"
    if named is None or _has_name(box):
        return _selector(box)
    return f"{_selector(named)} {_selector(box)}"


def _selector(box: Box) -> str:
    element = _element(box)
    tag, _, pseudo = (box.element_tag or "").partition("::")
    tag = tag.rpartition("}")[2]  # an inline <svg>'s tag comes with its namespace
    ident = element.get("id")
    classes = (element.get("class") or "").split()
    return tag + (f"#{ident}" if ident else "") + "".join(f".{name}" for name in classes) + (f"::{pseudo}" if pseudo else "")


def _mm(px: float) -> str:
    return f"{to_mm(px / PX_PER_PT):.1f} mm"

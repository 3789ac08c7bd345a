"""After layout, before writing: find text that overflows its box, leaves the
safe zone, lies over another element's text, or is set in a font or character
the game did not declare.

WeasyPrint's ``HTML.render()`` returns a Document whose pages can be looked at
before ``write_pdf()``. :func:`inspect_layout` walks each page's laid-out box
tree and reports, per page, text that does not fit the box meant to hold it and
text that reaches outside the card's safe zone, and the text of two elements
drawn over each other (:mod:`pnp.render.overlap`). Only text counts: full-bleed
art and backgrounds are meant to reach the page edge.

Units: callers speak points (as everywhere in pnp) from the page's top-left
corner; WeasyPrint's boxes are in CSS px (1px = 0.75pt) from the same corner,
and the conversion happens here. Messages give millimetres.

This reads WeasyPrint internals (``Page._page_box`` and the box classes and
attributes named in :func:`_box_types` and :func:`_visit`), so it is tied to the
WeasyPrint version pinned by the project; WeasyPrint itself is imported only
when a document is inspected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NamedTuple, get_args

from pnp.render.faces import Face
from pnp.render.frame import STAMP_BAND
from pnp.render.fontcheck import FontRules, text_problems
from pnp.render.overlap import Text, overlapping
from pnp.units import to_mm

PX_PER_PT = 4 / 3
"""CSS px per point: WeasyPrint lays out in px, pnp measures in points."""
TOLERANCE_PT = 0.5
"""Text may stick out this far (rounding, hinting) before it is reported."""

CHECKS = 3
"""What these checks look for, as a number raised whenever they find more:
part of every render-cache key, so findings cached before are made again."""

_TOLERANCE_PX = TOLERANCE_PT * PX_PER_PT
_INFINITY = float("inf")

_Edges = tuple[float, float, float, float]
"""A rectangle as its edges (left, top, right, bottom), in px."""
_Affine = tuple[float, float, float, float, float, float]
"""(a, b, c, d, e, f): x' = a*x + c*y + e, y' = b*x + d*y + f (WeasyPrint's order)."""


Kind = Literal["overflow", "safe-zone", "overlap", "font", "fit"]
KINDS: tuple[str, ...] = get_args(Kind)
"""Every kind of finding (what the render cache's index may hold)."""


@dataclass(frozen=True)
class LayoutFinding:
    """One problem on one laid-out page."""

    page: int
    """0-based page index in the rendered document."""
    kind: Kind
    """``overflow``: text does not fit its box (or the page), or was cut short by
    line-clamp. ``safe-zone``: text reaches outside the page's safe rectangle.
    ``overlap``: the element's text and another element's (named in the
    message) are drawn over each other.
    ``font``: text asks for a font family that is not declared, or holds a
    character no declared font has (always an error: see :mod:`pnp.render.fontcheck`).
    ``fit``: a shrink-to-fit element (:mod:`pnp.render.fit`) needed its minimum
    size (a warning even under ``--strict``: it fits)."""
    element: str
    """The element, CSS-like: ``div.flavour``, ``p#title``; for an element with
    neither class nor id, prefixed by its nearest ancestor that has one
    (``div.rules p``). For an overflow of a box, the box; otherwise the text."""
    message: str
    """What is wrong and by how much, for example ``text overflows its box by
    3.2 mm (bottom edge)``."""


def safe_box(face: Face) -> tuple[float, float, float, float]:
    """``face``'s safe rectangle (x, y, width, height) in points from its page's top-left corner."""
    inset = face.bleed + face.safe
    return (inset, inset, face.trim_width - 2 * face.safe, face.trim_height - 2 * face.safe)


def inspect_layout(
    document: Any,
    safe_boxes: Sequence[tuple[float, float, float, float] | None],
    fonts: FontRules | None = None,
    overflow: bool = True,
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
    per pair at the element whose text comes first in the document.

    With ``fonts``, every piece of visible text is also checked against
    them (``font`` findings); ``overflow=False`` checks only that.

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
        _inspect_page(_Page(index, page_safe, types, worst, fonts, overflow, []), page._page_box)
    return [finding for _, finding in worst.values()]


def _px_edges(box: tuple[float, float, float, float]) -> _Edges:
    x, y, width, height = (value * PX_PER_PT for value in box)
    return (x, y, x + width, y + height)


class _Types(NamedTuple):
    """WeasyPrint's box classes, imported when first needed."""

    text: type[Any]
    line: type[Any]
    inline: type[Any]
    container: tuple[type[Any], ...]
    placeholder: type[Any]


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
    )


@dataclass(frozen=True)
class _Frame:
    """A box text must stay inside: the page, or a block whose height is fixed or overflow hidden."""

    box: Any
    edges: _Edges
    """Its padding box, in its own layout coordinates (px, before transforms)."""
    matrix: _Affine | None
    """From its layout coordinates to the page's; None when untransformed."""
    clip: _Edges
    """What is visible inside it, in page coordinates."""
    is_page: bool
    """The page, or a box covering the whole page: reported as the page overflowing."""
    clips: bool
    named: Any
    """The nearest box (itself or an ancestor) whose element has a class or id."""


@dataclass(frozen=True)
class _Context:
    """What a box inherits from its ancestors during the walk."""

    frames: tuple[_Frame, ...]
    matrix: _Affine | None
    abs_depth: int
    """How many frames an absolutely positioned descendant stays inside (up to its containing block)."""
    fixed_depth: int
    named: Any
    """The nearest box whose element has a class or id, for naming anonymous text."""


@dataclass(frozen=True)
class _Page:
    """One page being inspected, and where findings for the whole document go."""

    index: int
    safe: _Edges | None
    types: _Types
    worst: dict[tuple[object, ...], tuple[float, LayoutFinding]]
    fonts: FontRules | None
    overflow: bool
    texts: list[Text]
    """The page's visible text so far, for :func:`pnp.render.overlap.overlapping`."""


def _inspect_page(page: _Page, page_box: Any) -> None:
    edges = (0.0, 0.0, float(page_box.margin_width()), float(page_box.margin_height()))
    frame = _Frame(page_box, edges, None, edges, True, True, None)
    context = _Context((frame,), None, 1, 1, None)
    for child in page_box.children:
        _visit(child, context, page)
    if page.safe is None:
        return
    for found in overlapping(page.texts, _TOLERANCE_PX):
        first, second = found.first, found.second
        _record(page, ("overlap", first.owner, second.owner), found.width * found.height, "overlap", first.element,
                f"its text overlaps the text of {second.element} ({_mm(found.width)} across, {_mm(found.height)} down)")


def _visit(box: Any, context: _Context, page: _Page) -> None:
    types = page.types
    if type(box) is types.placeholder:
        box = box._box  # an absolutely positioned box, where it was in the flow
    if isinstance(box, types.text):
        _check_text(box, context, page)
        return
    if not box.children:
        return
    if isinstance(box, types.line):
        if box.block_ellipsis != "none" and page.overflow:
            _record(page, ("clamp", id(box.element), box.element_tag), 0.0, "overflow", _describe(box, context.named),
                    "text is cut short to fit (line-clamp or block-ellipsis)")
    elif isinstance(box, types.inline):
        if _names_anew(box, context):
            context = _Context(context.frames, context.matrix, context.abs_depth, context.fixed_depth, box)
    else:
        entered = _enter(box, context, types)
        if entered is None:
            return
        context = entered
    for child in box.children:
        _visit(child, context, page)


def _has_name(box: Any) -> bool:
    element = box.element
    return bool(element.get("class") or element.get("id"))


def _names_anew(box: Any, context: _Context) -> bool:
    """Whether ``box`` is the nearest named box for its descendants, rather than an ancestor."""
    element = box.element
    if element is None or (context.named is not None and element is context.named.element):
        return False
    return _has_name(box)


def _enter(box: Any, context: _Context, types: _Types) -> _Context | None:
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
        matrix = _compose((a, b, c, d, e, f), matrix)
    if is_frame:
        x, y = box.padding_box_x(), box.padding_box_y()
        edges = (x, y, x + box.padding_width(), y + box.padding_height())
        on_page = _aabb(edges, matrix)
        clips = overflow != "visible"
        clip = _intersect(frames[-1].clip, on_page) if clips else frames[-1].clip
        frames = (*frames, _Frame(box, edges, matrix, clip, _covers(on_page, frames[0].edges), clips, named))
    if position != "static" or own is not None:
        abs_depth = len(frames)  # its containing block for absolutely positioned descendants
    if own is not None:
        fixed_depth = len(frames)
    return _Context(frames, matrix, abs_depth, fixed_depth, named)


def _covers(edges: _Edges, page: _Edges) -> bool:
    return (
        edges[0] <= page[0] + _TOLERANCE_PX and edges[1] <= page[1] + _TOLERANCE_PX
        and edges[2] >= page[2] - _TOLERANCE_PX and edges[3] >= page[3] - _TOLERANCE_PX
    )


def _check_text(box: Any, context: _Context, page: _Page) -> None:
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
        inner = edges if frame.matrix is matrix else _aabb(edges, _relative(matrix, frame.matrix))
        side, excess = _worst_side(inner, frame.edges)
        if excess > _TOLERANCE_PX:
            _report_overflow(box, context, frame, side, excess, page)
            break
    named = context.named
    if page.safe is None:
        return
    visible = _intersect(_aabb(edges, matrix), context.frames[-1].clip)
    if visible[0] >= visible[2] or visible[1] >= visible[3]:
        return
    page.texts.append(Text(visible, (id(box.element), box.element_tag), _describe(box, named)))
    if named is not None and STAMP_BAND in (named.element.get("class") or "").split():
        return  # the build stamp sits outside the safe zone on purpose, in the band no card text may use
    side, excess = _worst_side(visible, page.safe)
    if excess > _TOLERANCE_PX:
        _record(page, ("safe", id(box.element), box.element_tag), excess, "safe-zone", _describe(box, context.named),
                f"text reaches {_mm(excess)} past the safe zone ({side} edge)")


def _report_overflow(box: Any, context: _Context, frame: _Frame, side: str, excess: float, page: _Page) -> None:
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


def _describe(box: Any, named: Any) -> str:
    """``box``'s element as CSS: ``div.flavour``, or ``div.rules p`` when it has neither class nor id."""
    if box.element is None:
        return "page"
    if named is None or _has_name(box):
        return _selector(box)
    return f"{_selector(named)} {_selector(box)}"


def _selector(box: Any) -> str:
    element = box.element
    tag, _, pseudo = (box.element_tag or "").partition("::")
    ident = element.get("id")
    classes = (element.get("class") or "").split()
    return tag + (f"#{ident}" if ident else "") + "".join(f".{name}" for name in classes) + (f"::{pseudo}" if pseudo else "")


def _mm(px: float) -> str:
    return f"{to_mm(px / PX_PER_PT):.1f} mm"


def _worst_side(inner: _Edges, outer: _Edges) -> tuple[str, float]:
    """The side on which ``inner`` sticks out of ``outer`` the most, and by how much (<= 0: inside)."""
    side, worst = "left", outer[0] - inner[0]
    if outer[1] - inner[1] > worst:
        side, worst = "top", outer[1] - inner[1]
    if inner[2] - outer[2] > worst:
        side, worst = "right", inner[2] - outer[2]
    if inner[3] - outer[3] > worst:
        side, worst = "bottom", inner[3] - outer[3]
    return side, worst


def _intersect(a: _Edges, b: _Edges) -> _Edges:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _compose(inner: _Affine, outer: _Affine | None) -> _Affine:
    """Apply ``inner``, then ``outer``."""
    if outer is None:
        return inner
    a1, b1, c1, d1, e1, f1 = inner
    a2, b2, c2, d2, e2, f2 = outer
    return (
        a2 * a1 + c2 * b1, b2 * a1 + d2 * b1,
        a2 * c1 + c2 * d1, b2 * c1 + d2 * d1,
        a2 * e1 + c2 * f1 + e2, b2 * e1 + d2 * f1 + f2,
    )


def _relative(matrix: _Affine | None, frame: _Affine | None) -> _Affine | None:
    """From a box's layout coordinates to a frame's (both given as their matrices to the page)."""
    back = _invert(frame)
    if matrix is None:
        return back
    return _compose(matrix, back)


def _invert(matrix: _Affine | None) -> _Affine | None:
    if matrix is None:
        return None
    a, b, c, d, e, f = matrix
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _aabb(edges: _Edges, matrix: _Affine | None) -> _Edges:
    """The axis-aligned bounds of ``edges`` after ``matrix``."""
    if matrix is None:
        return edges
    a, b, c, d, e, f = matrix
    xs = [a * x + c * y + e for x in (edges[0], edges[2]) for y in (edges[1], edges[3])]
    ys = [b * x + d * y + f for x in (edges[0], edges[2]) for y in (edges[1], edges[3])]
    return (min(xs), min(ys), max(xs), max(ys))

"""Text of two elements drawn over each other, or text and art, on one laid-out page.

:mod:`pnp.render.inspect` collects every piece of visible text on a card face
(where it is drawn, in page px, and which element it belongs to) and every
painted box (an image, raster or SVG, or a background colour or image);
:func:`overlapping` finds the pairs of different elements whose text meets,
so a heading under a footer, or the build stamp over a word, is reported
rather than printed; :func:`art_over_text` finds text that art covers, or
that runs from the paper onto art, so a title wrapped under a picture is too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pnp.render.planes import Edges


@dataclass(frozen=True)
class Text:
    """One piece of text where it is drawn, and whose it is."""

    edges: Edges
    owner: tuple[int, str | None]
    """Which element (its identity and tag, ``p::before`` for a pseudo-element) set it."""
    element: str
    """The element as CSS, for messages."""
    painted: int = -1
    """Its place in the drawing of the page (:func:`pnp.render.paint.paint_order`)."""
    holders: frozenset[int] = frozenset()
    """The :attr:`Art.key` of every painted box that contains it in the document
    (its element's own background, or an ancestor's)."""


@dataclass(frozen=True)
class Art:
    """One painted box (an image, or a background) where it is drawn, and whose it is."""

    edges: Edges
    key: int
    """Which painted box it is."""
    painted: int
    """Its place in the drawing of the page: above text with a smaller number."""
    element: str
    """The element as CSS, for messages."""


@dataclass(frozen=True)
class Overlap:
    first: Text
    second: Text
    width: float
    height: float
    """How far the two meet across and down (same unit as the edges)."""


def overlapping(texts: Sequence[Text], tolerance: float) -> list[Overlap]:
    """Every pair of texts of different elements that meet by more than
    ``tolerance`` both across and down (touching is not meeting), in the order
    the texts were given (``first`` came first). Swept left to right, so a
    face with hundreds of words costs little."""
    order = sorted(range(len(texts)), key=lambda i: texts[i].edges[0])
    found: list[tuple[int, int, float, float]] = []
    for at, i in enumerate(order):
        a = texts[i].edges
        for j in order[at + 1 :]:
            b = texts[j].edges
            if b[0] >= a[2] - tolerance:
                break
            if texts[i].owner == texts[j].owner:
                continue
            width = min(a[2], b[2]) - max(a[0], b[0])
            height = min(a[3], b[3]) - max(a[1], b[1])
            if width > tolerance and height > tolerance:
                found.append((min(i, j), max(i, j), width, height))
    return [Overlap(texts[i], texts[j], width, height) for i, j, width, height in sorted(found)]


@dataclass(frozen=True)
class Covered:
    text: Text
    art: Art
    on_top: bool
    """Whether the art is painted over the text (else the text runs onto the art)."""
    width: float
    height: float
    """How far the two meet across and down (same unit as the edges)."""


def art_over_text(texts: Sequence[Text], art: Sequence[Art], tolerance: float) -> list[Covered]:
    """Every text and painted box that meet by more than ``tolerance`` both
    across and down, except where the box is the text's ground: one that holds
    the text in the document (:attr:`Text.holders`, its own background), or one
    painted under the text that contains it whole (the card's paper, a banner
    the words sit on). What remains is art painted over text, or text running
    from the paper onto art painted under it. Text whose place in the drawing
    is unknown (``painted`` -1) is not checked. In the order the texts were
    given, then the boxes' left edges."""
    by_left = sorted(art, key=lambda a: a.edges[0])
    found = []
    for text in texts:
        if text.painted < 0:
            continue
        t = text.edges
        for box in by_left:
            b = box.edges
            if b[0] >= t[2] - tolerance:
                break
            if box.key in text.holders:
                continue
            width = min(t[2], b[2]) - max(t[0], b[0])
            height = min(t[3], b[3]) - max(t[1], b[1])
            if width <= tolerance or height <= tolerance:
                continue
            on_top = box.painted > text.painted
            if not on_top and _contains(b, t, tolerance):
                continue
            found.append(Covered(text, box, on_top, width, height))
    return found


def _contains(outer: Edges, inner: Edges, tolerance: float) -> bool:
    return (
        inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
        and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance
    )

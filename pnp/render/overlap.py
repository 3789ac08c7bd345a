"""Text of two elements drawn over each other on one laid-out page.

:mod:`pnp.render.inspect` collects every piece of visible text on a card face
(where it is drawn, in page px, and which element it belongs to);
:func:`overlapping` finds the pairs of different elements whose text meets,
so a heading under a footer, or the build stamp over a word, is reported
rather than printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Edges = tuple[float, float, float, float]
"""A rectangle as its edges (left, top, right, bottom)."""


@dataclass(frozen=True)
class Text:
    """One piece of text where it is drawn, and whose it is."""

    edges: Edges
    owner: tuple[int, str]
    """Which element (its identity and tag, ``p::before`` for a pseudo-element) set it."""
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

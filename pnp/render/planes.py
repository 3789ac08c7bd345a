"""Rectangles and affine maps on a laid-out page, in CSS px: what the layout
checks (:mod:`pnp.render.inspect`, :mod:`pnp.render.overlap`) measure with.
WeasyPrint lays out in px from the page's top-left corner, y down."""

from __future__ import annotations

Edges = tuple[float, float, float, float]
"""A rectangle as its edges (left, top, right, bottom), in px."""
Affine = tuple[float, float, float, float, float, float]
"""(a, b, c, d, e, f): x' = a*x + c*y + e, y' = b*x + d*y + f (WeasyPrint's order)."""


def worst_side(inner: Edges, outer: Edges) -> tuple[str, float]:
    """The side on which ``inner`` sticks out of ``outer`` the most, and by how much (<= 0: inside)."""
    side, worst = "left", outer[0] - inner[0]
    if outer[1] - inner[1] > worst:
        side, worst = "top", outer[1] - inner[1]
    if inner[2] - outer[2] > worst:
        side, worst = "right", inner[2] - outer[2]
    if inner[3] - outer[3] > worst:
        side, worst = "bottom", inner[3] - outer[3]
    return side, worst


def intersect(a: Edges, b: Edges) -> Edges:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def compose(inner: Affine, outer: Affine | None) -> Affine:
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


def relative(matrix: Affine | None, frame: Affine | None) -> Affine | None:
    """From a box's layout coordinates to a frame's (both given as their matrices to the page)."""
    back = invert(frame)
    if matrix is None:
        return back
    return compose(matrix, back)


def invert(matrix: Affine | None) -> Affine | None:
    if matrix is None:
        return None
    a, b, c, d, e, f = matrix
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def aabb(edges: Edges, matrix: Affine | None) -> Edges:
    """The axis-aligned bounds of ``edges`` after ``matrix``."""
    if matrix is None:
        return edges
    a, b, c, d, e, f = matrix
    xs = [a * x + c * y + e for x in (edges[0], edges[2]) for y in (edges[1], edges[3])]
    ys = [b * x + d * y + f for x in (edges[0], edges[2]) for y in (edges[1], edges[3])]
    return (min(xs), min(ys), max(xs), max(ys))

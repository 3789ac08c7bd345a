"""Reading PDF values for the checks: numbers, boxes, matrices, inherited page attributes,
named resources and object identity, and showing numbers in messages."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import pikepdf

Matrix = tuple[float, float, float, float, float, float]
Linear = tuple[float, float, float, float]
Box = tuple[float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def num(value: float, places: int = 2) -> str:
    """``value`` with at most ``places`` decimals and no trailing zeros."""
    text = f"{value:.{places}f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text in ("", "-0") else text


def as_float(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _floats(values: Iterable[object], count: int) -> tuple[float, ...] | None:
    numbers = [as_float(v) for v in values]
    if len(numbers) != count or any(n is None for n in numbers):
        return None
    return tuple(n for n in numbers if n is not None)


def as_matrix(values: Iterable[object] | None) -> Matrix | None:
    numbers = _floats(values, 6) if values is not None else None
    return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5]) if numbers else None


def as_box(value: object) -> Box | None:
    numbers = _floats(value, 4) if isinstance(value, pikepdf.Array) else None
    if numbers is None:
        return None
    x0, y0, x1, y1 = numbers
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def mul(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n``, in PDF's row-vector convention (``cm`` makes CTM' = M x CTM)."""
    a, b, c, d, e, f = m
    return (
        a * n[0] + b * n[2], a * n[1] + b * n[3], c * n[0] + d * n[2], c * n[1] + d * n[3],
        e * n[0] + f * n[2] + n[4], e * n[1] + f * n[3] + n[5],
    )


def linear(m: Linear, n: Matrix) -> Linear:
    """The linear part of ``m`` then ``n``, rounded so equal sizes compare equal."""
    a, b, c, d = m
    return (
        round(a * n[0] + b * n[2], 6), round(a * n[1] + b * n[3], 6),
        round(c * n[0] + d * n[2], 6), round(c * n[1] + d * n[3], 6),
    )


def inherited(page: pikepdf.Object, key: str) -> pikepdf.Object | None:
    """A page attribute, looked up through the page tree as PDF inheritance does."""
    node: pikepdf.Object | None = page
    for _ in range(64):
        if not isinstance(node, pikepdf.Dictionary):
            return None
        value = node.get(key)
        if value is not None:
            return value
        node = node.get("/Parent")
    return None


def lookup(resources: pikepdf.Object | None, category: str, name: object) -> pikepdf.Object | None:
    """The resource ``name`` of ``category`` (e.g. "/Font") in a resource dictionary, if any."""
    if not isinstance(resources, pikepdf.Dictionary) or not isinstance(name, pikepdf.Name):
        return None
    group = resources.get(category)
    return group.get(name) if isinstance(group, pikepdf.Dictionary) else None


def object_key(obj: pikepdf.Object | None) -> Hashable:
    """Identity of a PDF object: its object number when indirect, else its serialised form."""
    if obj is None:
        return None
    return obj.objgen if obj.is_indirect else obj.unparse()

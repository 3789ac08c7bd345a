"""Strict lengths: every length carries a unit and is converted to points.

``63.5mm``, ``2.5in``, ``9pt`` and ``1cm`` are lengths; ``63.5`` or ``3 furlongs``
are errors. Internally every length is a float number of PostScript points.
"""

from __future__ import annotations

import re

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}

_LENGTH = re.compile(r"^\s*(-?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z]+)\s*$")


class UnitError(ValueError):
    """A length without a unit, with an unknown unit, or not a number at all."""


def parse_length(text: object) -> float:
    """Return ``text`` (for example ``"63.5mm"``) in points."""
    if not isinstance(text, str):
        raise UnitError(f"expected a length with a unit such as 63.5mm, got {text!r}")
    match = _LENGTH.match(text)
    if not match:
        raise UnitError(f"expected a length with a unit such as 63.5mm, got {text!r}")
    number, unit = match.groups()
    if unit not in POINTS_PER:
        units = ", ".join(POINTS_PER)
        raise UnitError(f"unknown unit {unit!r} in {text!r}; expected one of {units}")
    return float(number) * POINTS_PER[unit]


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / POINTS_PER["mm"]


def css(points: float) -> str:
    """A length in points written for CSS."""
    return f"{points:.4f}pt"

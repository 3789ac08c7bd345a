"""The drawn shapes of a sheet, in PDF points from its bottom-left corner:
rectangles (slots, clips), lines (crop marks, the fold) and circles (cutting
guides). Plain frozen values, shared by the grid (:mod:`pnp.imposition.geometry`),
its marks (:mod:`pnp.imposition.marks`) and the writers.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def overlaps(self, other: Rect, tolerance: float = 1e-6) -> bool:
        """True when the interiors of the two rectangles meet."""
        return (
            self.x < other.right - tolerance
            and other.x < self.right - tolerance
            and self.y < other.top - tolerance
            and other.y < self.top - tolerance
        )


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    weight: float
    dashed: bool = False
    cased: bool = False
    """Drawn over a light casing, so it shows on a dark bleed."""
    registration: bool = False
    """A cutting machine's registration mark (pnp.imposition.cutmarks), not a cut line."""


@dataclass(frozen=True)
class Circle:
    """A cutting guide: a thin circle on a round item's trim."""

    cx: float
    cy: float
    r: float
    weight: float

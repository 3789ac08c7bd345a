"""Stage 3: place card copies on sheets. Pure geometry; no PDF library here."""

from pnp.imposition.geometry import Grid, Line, Placement, Rect, Sheet, grid, impose
from pnp.model import Paper, SheetLayout

__all__ = [
    "Grid",
    "Line",
    "Paper",
    "Placement",
    "Rect",
    "Sheet",
    "SheetLayout",
    "grid",
    "impose",
]

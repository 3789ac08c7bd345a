"""Stage 3: place card copies on sheets. Pure geometry; no PDF library here."""

from pnp.imposition.geometry import Grid, Line, Placement, Rect, Sheet, grid, impose
from pnp.imposition.layouts import Paper, SheetLayout, load_layouts, load_papers

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
    "load_layouts",
    "load_papers",
]

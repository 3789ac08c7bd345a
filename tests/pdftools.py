"""The PDF tools of :mod:`pnp.testing` (a game's own tests use them too), for tests/."""

from pnp.testing.pdf import circles_drawn, filled_pdf, marks_drawn, operations, pdffonts, pdfinfo_pages, pdftotext, prose, prose_in, qpdf_check, setup_columns, tool
from pnp.testing.pixels import clip_rects, crop_face, rasterise

__all__ = [
    "circles_drawn", "clip_rects", "crop_face", "filled_pdf", "marks_drawn", "operations", "pdffonts", "pdfinfo_pages", "pdftotext", "prose",
    "prose_in", "qpdf_check", "rasterise", "setup_columns", "tool",
]

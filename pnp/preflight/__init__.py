"""Preflight: check a finished PDF against what a printer asks for.

Every check runs on every page and every failure is reported with its page;
nothing stops at the first problem. The checks read the file with pikepdf
(boxes, fonts, colour spaces, image resolution, output intent, PDF/X
identification) and, for total ink, render CMYK separations with Ghostscript.

Content streams are walked with the graphics state's transformation matrix,
into form XObjects, tiling patterns, soft masks, Type3 glyphs and printing
annotations. Colours, fonts and images count where the content uses them, not
where a resource dictionary merely lists them. What a form or pattern contains
is worked out once per object and reused for every place it is drawn, so a
deck that draws one face form 500 times is walked once, not 500 times.

The modules, one concern each:

- ``report``: Requirements, Failure, Report and format_report.
- ``run``: ``preflight()``, which runs the checks below and gathers their failures;
  ``preflight_files()``, several files at once on every core.
- ``boxes``: TrimBox, BleedBox and MediaBox; bleed and trim sizes.
- ``pdfx``: the output intent and the PDF/X identification.
- ``content``: the content walk; ``summary``: what it collects, memoised per object.
- ``colour``: colour spaces that are not CMYK-safe; ``fonts``: font embedding.
- ``flat``: what PDF/X-1a forbids (transparency, ICC-based and CIE colour), by resource.
- ``ppi``: effective resolution of drawn images.
- ``ink``: total ink from Ghostscript's CMYK separations.
- ``values``: numbers, boxes and matrices read from PDF objects.
"""

from __future__ import annotations

from pnp.preflight.boxes import BOX_TOLERANCE
from pnp.preflight.ink import INK_TOLERANCE
from pnp.preflight.ppi import PPI_TOLERANCE
from pnp.preflight.report import Check, Failure, Report, Requirements, format_report
from pnp.preflight.run import preflight, preflight_files
from pnp.preflight.values import IDENTITY, Box, Linear, Matrix

__all__ = [
    "BOX_TOLERANCE",
    "IDENTITY",
    "INK_TOLERANCE",
    "PPI_TOLERANCE",
    "Box",
    "Check",
    "Failure",
    "Linear",
    "Matrix",
    "Report",
    "Requirements",
    "format_report",
    "preflight",
    "preflight_files",
]

"""What preflight is asked to check (Requirements), what it found (Failure, Report), and
the report as text (format_report)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pnp.errors import display_path
from pnp.preflight.values import num
from pnp.words import count

Check = Literal["boxes", "bleed", "trim", "fonts", "colour", "flat", "output-intent", "pdfx", "ppi", "ink", "file"]


@dataclass(frozen=True)
class Requirements:
    """What a printer asks of a PDF; each check is off when its field is None or False."""

    boxes: bool = True
    """Every page has a TrimBox and a BleedBox, TrimBox inside BleedBox inside MediaBox."""
    bleed: float | None = None
    """Bleed in points expected on each side (BleedBox minus TrimBox), within 0.05 pt."""
    trim: tuple[float, float] | None = None
    """TrimBox width and height in points, within 0.05 pt."""
    fonts_embedded: bool = True
    """Every font drawn with (in pages, forms, patterns, Type3 glyphs) is embedded."""
    cmyk: bool = False
    """No RGB or Lab colour anywhere: operators, colour spaces, images, shadings, groups."""
    output_intent: bool = False
    """The catalog has a GTS_PDFX output intent with a CMYK (N 4) ICC profile."""
    pdfx: str | None = None
    """PDF/X version, e.g. "PDF/X-4", in the Info dictionary and the XMP; Info /Trapped set."""
    pdfx_conformance: str | None = None
    """PDF/X conformance level in the Info dictionary (PDF/X-1:2001 names ``PDF/X-1a:2001`` there)."""
    flat: bool = False
    """No transparency and only device colour in any page's resources (PDF/X-1a; :mod:`pnp.preflight.flat`)."""
    min_ppi: float | None = None
    """Lowest effective resolution of every drawn raster image, in both axes."""
    max_ink: float | None = None
    """Highest total area coverage (C+M+Y+K) in percent, from rendered separations."""
    ink_dpi: int = 72
    """Resolution of the separation render for the ink check."""


@dataclass(frozen=True)
class Failure:
    """One requirement a page (or, with page None, the document) does not meet."""

    check: Check
    page: int | None
    message: str

    def __str__(self) -> str:
        where = f"page {self.page}: " if self.page is not None else ""
        return f"{where}[{self.check}] {self.message}"


@dataclass(frozen=True)
class Report:
    """What preflight found in one file."""

    path: Path
    pages: int
    failures: tuple[Failure, ...]
    max_ink: float | None
    """Measured highest total ink in percent; None when not measured."""
    min_ppi: float | None
    """Lowest effective ppi of any drawn image; None when nothing raster is drawn."""
    fonts: int
    """Distinct fonts drawn with."""

    @property
    def ok(self) -> bool:
        return not self.failures


def format_report(report: Report) -> str:
    """A header line, one line per failure, and "passed" or "N failure(s)"."""
    name = display_path(report.path)
    ink = "not measured" if report.max_ink is None else f"{report.max_ink:.1f} %"
    ppi = "no raster images" if report.min_ppi is None else num(report.min_ppi, 1)
    lines = [f"{name}: {count(report.pages, 'page')}, {count(report.fonts, 'font')}, max ink {ink}, min ppi {ppi}"]
    lines += [f"{name}: {failure}" for failure in report.failures]
    lines.append("passed" if report.ok else count(len(report.failures), "failure"))
    return "\n".join(lines)

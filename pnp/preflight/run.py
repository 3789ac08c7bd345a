"""The preflight run: open the file, check the document, walk every page, measure ink, and
gather every failure into one Report sorted by page."""

from __future__ import annotations

import os
import shutil
from collections.abc import Hashable, Sequence
from pathlib import Path

import pikepdf

from pnp.errors import BuildError
from pnp.preflight.boxes import box_failures
from pnp.preflight.content import scan_page
from pnp.preflight.flat import flat_problems
from pnp.preflight.ink import ink_failures
from pnp.preflight.pdfx import output_intent_problems, pdfx_problems
from pnp.preflight.ppi import ppi_by_image, ppi_failures
from pnp.preflight.report import Failure, Report, Requirements
from pnp.preflight.summary import Memo, Summary


def preflight(path: Path, requirements: Requirements) -> Report:
    """Check ``path`` against ``requirements``; a file that cannot be read is a "file" failure."""
    gs = shutil.which("gs")
    if requirements.max_ink is not None and gs is None:
        raise BuildError(
            "preflight: measuring total ink needs Ghostscript (gs); install ghostscript (scripts/system-deps.sh build)"
        )
    try:
        pdf = pikepdf.open(path)
    except (pikepdf.PdfError, pikepdf.PasswordError, OSError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return Report(path, 0, (Failure("file", None, f"cannot be opened as a PDF: {reason}"),), None, None, 0)
    with pdf:
        failures: list[Failure] = []
        if requirements.output_intent:
            failures += [Failure("output-intent", None, m) for m in output_intent_problems(pdf)]
        if requirements.pdfx is not None:
            failures += [Failure("pdfx", None, m) for m in pdfx_problems(pdf, requirements.pdfx, requirements.pdfx_conformance)]
        memo = Memo()
        fonts: set[Hashable] = set()
        lowest: float | None = None
        for number, page in enumerate(pdf.pages, 1):
            failures += box_failures(number, page.obj, requirements)
            if requirements.flat:
                failures += [Failure("flat", number, m) for m in flat_problems(page.obj)]
            try:
                scan = scan_page(memo, page.obj)
            except pikepdf.PdfError as exc:
                failures.append(Failure("file", number, f"the page cannot be read: {exc}"))
                continue
            fonts |= scan.fonts
            worst = ppi_by_image(scan.draws)
            for across, down in worst.values():
                lowest = min(across, down) if lowest is None else min(lowest, across, down)
            failures += _content_failures(number, scan, worst, requirements)
        max_ink = None
        if requirements.max_ink is not None and gs is not None:
            max_ink, found = ink_failures(gs, path, pdf, requirements.max_ink, requirements.ink_dpi)
            failures += found
        failures.sort(key=lambda f: f.page or 0)
        return Report(path, len(pdf.pages), tuple(failures), max_ink, lowest, len(fonts))


def preflight_files(files: Sequence[tuple[Path, Requirements]], workers: int | None = None) -> list[Report]:
    """:func:`preflight` of each file, in order, several files at once on
    forked workers: up to ``workers``, every core when None. The reports are
    the same whatever the number of workers."""
    from pnp.parallel import fork_map

    return fork_map(preflight, list(files), workers or os.cpu_count() or 1)


def _content_failures(
    number: int, scan: Summary, ppi: dict[str, tuple[float, float]], requirements: Requirements
) -> list[Failure]:
    out = [Failure("file", number, str(f)) for f in scan.errors]
    if requirements.fonts_embedded:
        out += [Failure("fonts", number, str(f)) for f in scan.unembedded]
    if requirements.cmyk:
        out += [Failure("colour", number, str(f)) for f in scan.colour]
    if requirements.min_ppi is not None:
        out += ppi_failures(number, ppi, requirements.min_ppi)
    return out

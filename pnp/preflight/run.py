"""The preflight run: open the file, check the document, walk every page, measure ink, and
gather every failure into one Report sorted by page."""

from __future__ import annotations

import os
import shutil
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pikepdf

from pnp.errors import BuildError
from pnp.preflight.boxes import box_failures
from pnp.preflight.content import scan_page
from pnp.preflight.flat import flat_problems
from pnp.preflight.ink import InkJob, Measured, ink_findings, ink_job, measure_inks
from pnp.preflight.pdfx import output_intent_problems, pdfx_problems
from pnp.preflight.ppi import ppi_by_image, ppi_failures
from pnp.preflight.report import Failure, Report, Requirements
from pnp.preflight.summary import Memo, Summary


def preflight(path: Path, requirements: Requirements) -> Report:
    """Check ``path`` against ``requirements``; a file that cannot be read is a "file" failure."""
    gs = ghostscript([requirements])
    checked = check(path, requirements, gs)
    if isinstance(checked, Report):
        return checked
    measured = None if gs is None or checked.ink is None else measure_inks(gs, [checked.ink], os.cpu_count() or 1)[0]
    return checked.report(measured, requirements)


def preflight_files(files: Sequence[tuple[Path, Requirements]], workers: int | None = None) -> list[Report]:
    """:func:`preflight` of each file, in order: the files checked several
    at once on forked workers (up to ``workers``, every core when None), then
    the pages of all of them rendered for the ink check in as few
    Ghostscript runs as there are workers (:func:`measure_inks`). The
    reports are the same whatever the number of workers."""
    from pnp.parallel import fork_map

    count = workers or os.cpu_count() or 1
    gs = ghostscript([wanted for _, wanted in files])
    checked = fork_map(check, [(path, wanted, gs) for path, wanted in files], count, label="checking")
    return finish(checked, [wanted for _, wanted in files], gs, count)


def finish(checked: Sequence[Checked | Report], asked: Sequence[Requirements], gs: str | None, workers: int) -> list[Report]:
    """The reports of files :func:`check` checked against ``asked``, each
    with its total ink: the pages of all of them rendered in as few
    Ghostscript runs as there are ``workers`` (:func:`measure_inks`)."""
    jobs = [c.ink for c in checked if isinstance(c, Checked) and c.ink is not None]
    measured = iter(measure_inks(gs, jobs, workers) if gs is not None and jobs else [])
    return [c if isinstance(c, Report) else c.report(None if c.ink is None else next(measured), wanted) for c, wanted in zip(checked, asked)]


def ghostscript(asked: Sequence[Requirements]) -> str | None:
    """Ghostscript, which the ink check needs (an error when one of ``asked`` measures ink and there is none)."""
    gs = shutil.which("gs")
    if gs is None and any(wanted.max_ink is not None for wanted in asked):
        raise BuildError(
            "preflight: measuring total ink needs Ghostscript (gs); install ghostscript (scripts/system-deps.sh build)"
        )
    return gs


@dataclass(frozen=True)
class Checked:
    """A file's preflight but for total ink, and what the ink check is to render of it."""

    path: Path
    pages: int
    failures: tuple[Failure, ...]
    lowest: float | None
    fonts: int
    ink: InkJob | None

    def report(self, measured: Measured | None, requirements: Requirements) -> Report:
        failures = list(self.failures)
        max_ink = None
        if measured is not None and requirements.max_ink is not None:
            max_ink, found = ink_findings(measured, requirements.max_ink)
            failures += found
        failures.sort(key=lambda f: f.page or 0)
        return Report(self.path, self.pages, tuple(failures), max_ink, self.lowest, self.fonts)


def check(path: Path, requirements: Requirements, gs: str | None) -> Checked | Report:
    """Every check of ``path`` but total ink (:func:`finish` measures it, when
    ``gs``); a file that cannot be read is a report of that."""
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
        ink = ink_job(path, pdf, requirements.ink_dpi) if requirements.max_ink is not None and gs is not None else None
        return Checked(path, len(pdf.pages), tuple(failures), lowest, len(fonts), ink)


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

"""Total ink: the highest C+M+Y+K of each page, measured on CMYK separations rendered by
Ghostscript, one render per group of pages that draw the same pixels."""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import IO

import numpy as np
import pikepdf

from pnp.preflight.report import Failure
from pnp.preflight.values import as_box, as_float, inherited, num, object_key

INK_TOLERANCE = 4 * 0.5 / 255 * 100
"""Percent above the ink limit still accepted: half an 8-bit step on each of the four channels."""


PAGES_PER_RUN = 8
"""The fewest pages one Ghostscript run renders when a file's pages are split
over several runs at once (a run costs about as much to start as a few pages)."""


def ink_failures(
    gs: str, path: Path, pdf: pikepdf.Pdf, limit: float, dpi: int, workers: int | None = None
) -> tuple[float | None, list[Failure]]:
    """The highest total ink of the file and a failure for each page above ``limit``.
    The pages are rendered by up to ``workers`` Ghostscript runs at once (every core when None)."""
    return ink_findings(measure_inks(gs, [ink_job(path, pdf, dpi)], workers or os.cpu_count() or 1)[0], limit)


def ink_findings(measured: Measured, limit: float) -> tuple[float | None, list[Failure]]:
    """What :func:`ink_failures` says of a file's measured inks (or the problem measuring them)."""
    inks, problem = measured
    out = [Failure("ink", None, problem)] if problem else []
    out += [
        Failure("ink", number, f"total ink reaches {ink.total:.1f} % ({ink.describe()}); at most {num(limit, 1)} % allowed")
        for number, ink in sorted(inks.items())
        if ink.total > limit + INK_TOLERANCE
    ]
    return max((ink.total for ink in inks.values()), default=None), out


@dataclass(frozen=True)
class _Ink:
    """The heaviest pixel of a page's separations."""

    total: float
    cmyk: tuple[float, float, float, float]
    at_mm: tuple[float, float]

    def describe(self) -> str:
        c, m, y, k = (num(v, 0) for v in self.cmyk)
        return f"C {c} M {m} Y {y} K {k}, {num(self.at_mm[0], 1)} mm from the left and {num(self.at_mm[1], 1)} mm from the top"


Measured = tuple[dict[int, _Ink], str | None]
"""Each page's heaviest ink by page number, or the problem that stopped the render."""


@dataclass(frozen=True)
class InkJob:
    """What the ink check renders of one file: one page of each group of
    identical pages. Ghostscript's rendering of a page depends only on its
    content-stream bytes, the objects its resources name, its boxes,
    rotation, user unit, group and annotations. Pages equal in all of these
    (resources compared structurally down to streams, which are compared by
    object number: the same object is the same bytes) give the same pixels,
    so rendering one of them and copying its figure to the others is exact,
    not an estimate."""

    path: Path
    groups: tuple[tuple[int, ...], ...]
    """Page numbers, grouped: the first of each group is rendered."""
    flags: tuple[str, ...]
    """Ghostscript's flags for the file's output intent."""
    intent: str
    """A digest of that intent's profile (empty: none): files rendered in one run share it."""
    dpi: int


def ink_job(path: Path, pdf: pikepdf.Pdf, dpi: int) -> InkJob:
    groups: dict[Hashable, list[int]] = {}
    fingerprints: dict[Hashable, Hashable] = {}
    for number, page in enumerate(pdf.pages, 1):
        groups.setdefault(_render_key(page.obj, fingerprints), []).append(number)
    flags, intent = _intent(pdf)
    return InkJob(path, tuple(tuple(pages) for pages in groups.values()), flags, intent, dpi)


def measure_inks(gs: str, jobs: Sequence[InkJob], workers: int) -> list[Measured]:
    """Each file's heaviest ink per page, in order. The shown pages of all
    the files that share an output intent and dpi go through up to
    ``workers`` Ghostscript runs at once, each a consecutive part of them,
    several files to a run: a run costs about as much to start as a few
    pages. When a run of several files fails, each of its files is rendered
    alone again, so a file's problem is told as its own run tells it."""
    out: dict[int, Measured] = {}
    kinds: dict[tuple[tuple[str, ...], str, int, int], list[int]] = {}
    for index, job in enumerate(jobs):  # a file without pages alone: Ghostscript refuses it
        kinds.setdefault((job.flags, job.intent, job.dpi, -1 if job.groups else index), []).append(index)
    for members in kinds.values():
        shown = [(number, pages[0]) for number, index in enumerate(members) for pages in jobs[index].groups]
        found, failed = _render(gs, [jobs[index] for index in members], shown, workers)
        if failed and len(members) > 1:
            for index in members:
                out[index] = measure_inks(gs, [jobs[index]], workers)[0]
            continue
        if failed:
            problem = f"Ghostscript rendered {len(found)} of {len(shown)} pages for the ink check: {failed[0]}"
            out[members[0]] = ({}, problem)
            continue
        heaviest = iter(found)  # in the order of ``shown``: see _render
        for index in members:
            inks: dict[int, _Ink] = {}
            for pages in jobs[index].groups:
                inks.update(dict.fromkeys(pages, next(heaviest)))
            out[index] = (inks, None)
    return [out[index] for index in range(len(jobs))]


def _render(gs: str, jobs: Sequence[InkJob], shown: list[tuple[int, int]], workers: int) -> tuple[list[_Ink], list[str]]:
    """The heaviest ink of each of the pages ``shown`` (index in ``jobs``,
    page number), in the order of ``shown``: consecutive runs of them
    rendered by up to ``workers`` Ghostscript processes at once (each page's
    pixels depend on that page alone), each run given each of its files
    after that file's -sPageList. Each run writes its pages' separations to
    a pipe, read and measured page by page while it renders (no page is
    kept, nor written to disk). The jobs share flags and dpi. Returns the
    pages' inks, and the last line Ghostscript said of each run that failed."""
    runs = max(1, min(workers, len(shown) // PAGES_PER_RUN))
    parts = [shown[i * len(shown) // runs : (i + 1) * len(shown) // runs] for i in range(runs)]
    first = jobs[0]
    readings = []
    for part in parts:
        files: list[str] = [] if part else ["-sPageList=", str(first.path)]  # no pages: Ghostscript says so
        for job, pages in groupby(part, key=lambda item: item[0]):
            files += [f"-sPageList={','.join(str(page) for _, page in pages)}", str(jobs[job].path)]
        command = [
            gs, "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dQUIET", "-dPrinted", "-dNOINTERPOLATE", "-sstdout=%stderr",
            "-sDEVICE=pamcmyk32", f"-r{first.dpi}", *first.flags, "-o", "-", *files,
        ]
        # Measured with Ghostscript 10.0: DeviceCMYK values reach the CMYK devices unchanged by default
        # (0.53 0.51 0.40 0.95 k reads back 135 130 102 242 = 52.9/51.0/40.0/94.9 %), because
        # DeviceCMYK and the device share default_cmyk.icc and gs skips the identity transform;
        # -dUseFastColor and -dOverrideICC change nothing for DeviceCMYK. ICCBased CMYK with
        # another profile IS converted (to default_cmyk.icc), so when the file has a CMYK
        # output intent we pass -dUsePDFX3Profile=<its index>: the intent becomes the output
        # profile, DeviceCMYK is read as the intent's space (still unchanged) and ICCBased
        # CMYK is converted to the printing condition, as a PDF/X RIP would. That flag must not
        # be given for an RGB intent (e.g. PDF/A's sRGB): then gs converts DeviceCMYK through
        # it and 53/51/40/95 comes out as 71/71/63/85. pamcmyk32 draws without anti-aliasing
        # (TextAlphaBits/GraphicsAlphaBits 1) so edges hold real values, the pixels tiff32nc
        # draws (every shown page of B04's factory export compared); -dNOINTERPOLATE keeps
        # image samples as written; -dPrinted shows annotations as they print; -sstdout keeps
        # what the interpreter says out of the pixels. Several files in one run, each after
        # its own -sPageList, give each page the pixels a run of its file alone gives
        # (measured on B04's exports: every page identical).
        readings.append(_Reading(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE), first.dpi))
    found: list[_Ink] = []
    failed: list[str] = []
    for reading, part in zip(readings, parts):
        inks, said, status = reading.result()
        if status != 0 or len(inks) != len(part):
            failed += said.strip().splitlines()[-1:] or ["no message"]
        found += inks
    if not failed and len(found) != len(shown):
        failed = ["no message"]
    return found, failed


class _Reading:
    """A Ghostscript run's pages measured as they come (:func:`_measure_stream`)
    and what it says: each of its pipes read to the end on a thread of its
    own as it fills, so the run never waits on one."""

    def __init__(self, process: subprocess.Popen[bytes], dpi: int) -> None:
        self.process = process
        self.inks: list[_Ink] = []
        self.said: list[bytes] = []
        self.threads = [
            threading.Thread(target=_measure_stream, args=(process.stdout, dpi, self.inks)),
            threading.Thread(target=_read_all, args=(process.stderr, self.said)),
        ]
        for thread in self.threads:
            thread.start()

    def result(self) -> tuple[list[_Ink], str, int]:
        """The pages' inks, what the run said, and its exit status, once it has ended."""
        for thread in self.threads:
            thread.join()
        return self.inks, b"".join(self.said).decode(errors="replace"), self.process.wait()


def _read_all(stream: IO[bytes] | None, out: list[bytes]) -> None:
    if stream is not None:
        with stream:
            out.append(stream.read())


def _measure_stream(stream: IO[bytes] | None, dpi: int, out: list[_Ink]) -> None:
    """Each page of a stream of PAM images (Ghostscript's pamcmyk32), its
    heaviest ink appended to ``out`` as it comes; stops at the end of the
    stream or at anything that is not such a page."""
    if stream is None:
        return
    with stream:
        while (pixels := _pam_page(stream)) is not None:
            out.append(_heaviest(pixels, dpi))
        stream.read()  # to the end, so Ghostscript is never left waiting on the pipe


def _pam_page(stream: IO[bytes]) -> np.ndarray | None:
    """The next page of a PAM stream as an array of CMYK pixels (rows,
    columns, 4), or None at its end or when it is not an 8-bit CMYK page."""
    if stream.readline() != b"P7\n":
        return None
    header: dict[bytes, bytes] = {}
    while (line := stream.readline()) != b"ENDHDR\n":
        if not line:
            return None
        key, _, value = line.strip().partition(b" ")
        header[key] = value
    try:
        width, height, depth, top = (int(header[key]) for key in (b"WIDTH", b"HEIGHT", b"DEPTH", b"MAXVAL"))
    except (KeyError, ValueError):
        return None
    if depth != 4 or top != 255:
        return None
    data = stream.read(width * height * 4)
    if len(data) != width * height * 4:
        return None
    return np.frombuffer(data, dtype=np.uint8).reshape(height, width, 4)


def _heaviest(pixels: np.ndarray, dpi: int) -> _Ink:
    wide = pixels.astype(np.uint16)  # at most 4 x 255; a sum along the short axis is several times slower
    totals = wide[..., 0] + wide[..., 1] + wide[..., 2] + wide[..., 3]
    row, col = divmod(int(totals.argmax()), totals.shape[1])
    cmyk = tuple(float(v) * 100 / 255 for v in pixels[row, col])
    return _Ink(
        float(totals[row, col]) * 100 / 255,
        (cmyk[0], cmyk[1], cmyk[2], cmyk[3]),
        ((col + 0.5) * 25.4 / dpi, (row + 0.5) * 25.4 / dpi),
    )


def _intent(pdf: pikepdf.Pdf) -> tuple[tuple[str, ...], str]:
    """The flags that make a CMYK output intent Ghostscript's output
    profile (see :func:`_render`), and a digest of that profile."""
    intents = pdf.Root.get("/OutputIntents")
    for index, intent in enumerate(intents if isinstance(intents, pikepdf.Array) else ()):
        profile = intent.get("/DestOutputProfile") if isinstance(intent, pikepdf.Dictionary) else None
        if isinstance(profile, pikepdf.Stream) and profile.get("/N") == 4:
            return (f"-dUsePDFX3Profile={index}",), hashlib.blake2b(profile.read_bytes(), digest_size=20).hexdigest()
    return (), ""


def _render_key(page: pikepdf.Object, memo: dict[Hashable, Hashable]) -> Hashable:
    digest = hashlib.blake2b(digest_size=20)
    contents = page.get("/Contents")
    for stream in contents if isinstance(contents, pikepdf.Array) else [contents]:
        if isinstance(stream, pikepdf.Stream):
            digest.update(stream.read_bytes())
            digest.update(b"\n")
    annots = page.get("/Annots")
    return (
        digest.digest(),
        _fingerprint(inherited(page, "/Resources"), memo, set()),
        *(as_box(inherited(page, key)) for key in ("/MediaBox", "/CropBox")),
        as_float(inherited(page, "/Rotate")),
        as_float(page.get("/UserUnit")),
        _fingerprint(page.get("/Group"), memo, set()),
        tuple(object_key(a) for a in annots) if isinstance(annots, pikepdf.Array) else None,
    )


def _fingerprint(obj: object, memo: dict[Hashable, Hashable], active: set[Hashable]) -> Hashable:
    """A value equal for structurally equal PDF objects; streams count by object number."""
    if not isinstance(obj, pikepdf.Object):
        return repr(obj)
    if isinstance(obj, pikepdf.Stream):
        return ("stream", obj.objgen)
    if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Array)):
        return obj.unparse()
    key = obj.objgen if obj.is_indirect else None
    if key is not None:
        if key in memo:
            return memo[key]
        if key in active:
            return ("ref", key)
        active.add(key)
    if isinstance(obj, pikepdf.Dictionary):
        value: Hashable = ("dict", tuple(sorted((k, _fingerprint(v, memo, active)) for k, v in obj.items())))
    else:
        value = ("array", tuple(_fingerprint(v, memo, active) for v in obj))
    if key is not None:
        memo[key] = value
        active.discard(key)
    return value

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
"""

from __future__ import annotations

import hashlib
import math
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import pikepdf
from PIL import Image

from pnp.errors import BuildError, display_path

Check = Literal["boxes", "bleed", "trim", "fonts", "colour", "output-intent", "pdfx", "ppi", "ink", "file"]

BOX_TOLERANCE = 0.05
"""Points a bleed or trim size may differ from the requirement."""

PPI_TOLERANCE = 0.5
"""Pixels per inch an image may fall short, for matrices written with few decimals."""

INK_TOLERANCE = 4 * 0.5 / 255 * 100
"""Percent above the ink limit still accepted: half an 8-bit step on each of the four channels."""


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
            failures += [Failure("output-intent", None, m) for m in _output_intent_problems(pdf)]
        if requirements.pdfx is not None:
            failures += [Failure("pdfx", None, m) for m in _pdfx_problems(pdf, requirements.pdfx)]
        memo = _Memo()
        fonts: set[Hashable] = set()
        lowest: float | None = None
        for number, page in enumerate(pdf.pages, 1):
            failures += _box_failures(number, page.obj, requirements)
            try:
                scan = _scan_page(memo, page.obj)
            except pikepdf.PdfError as exc:
                failures.append(Failure("file", number, f"the page cannot be read: {exc}"))
                continue
            fonts |= scan.fonts
            worst = _ppi_by_image(scan.draws)
            for across, down in worst.values():
                lowest = min(across, down) if lowest is None else min(lowest, across, down)
            failures += _content_failures(number, scan, worst, requirements)
        max_ink = None
        if requirements.max_ink is not None and gs is not None:
            max_ink, found = _ink_failures(gs, path, pdf, requirements.max_ink, requirements.ink_dpi)
            failures += found
        failures.sort(key=lambda f: f.page or 0)
        return Report(path, len(pdf.pages), tuple(failures), max_ink, lowest, len(fonts))


def _content_failures(
    number: int, scan: _Summary, ppi: dict[str, tuple[float, float]], requirements: Requirements
) -> list[Failure]:
    out = [Failure("file", number, str(f)) for f in scan.errors]
    if requirements.fonts_embedded:
        out += [Failure("fonts", number, str(f)) for f in scan.unembedded]
    if requirements.cmyk:
        out += [Failure("colour", number, str(f)) for f in scan.colour]
    need = requirements.min_ppi
    for label, (across, down) in ppi.items():
        if need is not None and min(across, down) < need - PPI_TOLERANCE:
            shown = f"{_num(across, 1)} x {_num(down, 1)} ppi"
            out.append(Failure("ppi", number, f"{label} is {shown} at its drawn size; at least {_num(need, 1)} needed"))
    return out


def _ink_failures(gs: str, path: Path, pdf: pikepdf.Pdf, limit: float, dpi: int) -> tuple[float | None, list[Failure]]:
    """The highest total ink of the file and a failure for each page above ``limit``."""
    inks, problem = _measure_ink(gs, path, pdf, dpi)
    out = [Failure("ink", None, problem)] if problem else []
    out += [
        Failure("ink", number, f"total ink reaches {ink.total:.1f} % ({ink.describe()}); at most {_num(limit, 1)} % allowed")
        for number, ink in sorted(inks.items())
        if ink.total > limit + INK_TOLERANCE
    ]
    return max((ink.total for ink in inks.values()), default=None), out


def format_report(report: Report) -> str:
    """A header line, one line per failure, and "passed" or "N failure(s)"."""
    name = display_path(report.path)
    ink = "not measured" if report.max_ink is None else f"{report.max_ink:.1f} %"
    ppi = "no raster images" if report.min_ppi is None else _num(report.min_ppi, 1)
    lines = [f"{name}: {_plural(report.pages, 'page')}, {_plural(report.fonts, 'font')}, max ink {ink}, min ppi {ppi}"]
    lines += [f"{name}: {failure}" for failure in report.failures]
    lines.append("passed" if report.ok else _plural(len(report.failures), "failure"))
    return "\n".join(lines)


# --- small helpers -----------------------------------------------------------------------

Matrix = tuple[float, float, float, float, float, float]
Linear = tuple[float, float, float, float]
Box = tuple[float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _num(value: float, places: int = 2) -> str:
    text = f"{value:.{places}f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text in ("", "-0") else text


def _float(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _floats(values: Iterable[object], count: int) -> tuple[float, ...] | None:
    numbers = [_float(v) for v in values]
    if len(numbers) != count or any(n is None for n in numbers):
        return None
    return tuple(n for n in numbers if n is not None)


def _matrix(values: Iterable[object] | None) -> Matrix | None:
    numbers = _floats(values, 6) if values is not None else None
    return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5]) if numbers else None


def _box(value: object) -> Box | None:
    numbers = _floats(value, 4) if isinstance(value, pikepdf.Array) else None
    if numbers is None:
        return None
    x0, y0, x1, y1 = numbers
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n``, in PDF's row-vector convention (``cm`` makes CTM' = M x CTM)."""
    a, b, c, d, e, f = m
    return (
        a * n[0] + b * n[2], a * n[1] + b * n[3], c * n[0] + d * n[2], c * n[1] + d * n[3],
        e * n[0] + f * n[2] + n[4], e * n[1] + f * n[3] + n[5],
    )


def _linear(m: Linear, n: Matrix) -> Linear:
    """The linear part of ``m`` then ``n``, rounded so equal sizes compare equal."""
    a, b, c, d = m
    return (
        round(a * n[0] + b * n[2], 6), round(a * n[1] + b * n[3], 6),
        round(c * n[0] + d * n[2], 6), round(c * n[1] + d * n[3], 6),
    )


def _inherited(page: pikepdf.Object, key: str) -> pikepdf.Object | None:
    """A page attribute, looked up through the page tree as PDF inheritance does."""
    node: pikepdf.Object | None = page
    for _ in range(64):
        if not isinstance(node, pikepdf.Dictionary):
            return None
        value = node.get(key)
        if value is not None:
            return value
        node = node.get("/Parent")
    return None


def _lookup(resources: pikepdf.Object | None, category: str, name: object) -> pikepdf.Object | None:
    if not isinstance(resources, pikepdf.Dictionary) or not isinstance(name, pikepdf.Name):
        return None
    group = resources.get(category)
    return group.get(name) if isinstance(group, pikepdf.Dictionary) else None


def _key(obj: pikepdf.Object | None) -> Hashable:
    """Identity of a PDF object: its object number when indirect, else its serialised form."""
    if obj is None:
        return None
    return obj.objgen if obj.is_indirect else obj.unparse()


# --- boxes ---------------------------------------------------------------------------------


def _inside(inner: Box, outer: Box) -> bool:
    t = BOX_TOLERANCE
    return inner[0] >= outer[0] - t and inner[1] >= outer[1] - t and inner[2] <= outer[2] + t and inner[3] <= outer[3] + t


def _show_box(box: Box) -> str:
    return "[" + " ".join(_num(v) for v in box) + "]"


def _box_failures(number: int, page: pikepdf.Object, req: Requirements) -> list[Failure]:
    media = _box(_inherited(page, "/MediaBox"))
    trim = _box(page.get("/TrimBox"))
    bleed = _box(page.get("/BleedBox"))
    out: list[Failure] = []
    if req.boxes:
        missing = [name for name, box in (("MediaBox", media), ("TrimBox", trim), ("BleedBox", bleed)) if box is None]
        if missing:
            out.append(Failure("boxes", number, f"no {' and no '.join(missing)}"))
        for inner_name, inner, outer_name, outer in (
            ("TrimBox", trim, "BleedBox", bleed), ("BleedBox", bleed, "MediaBox", media), ("TrimBox", trim, "MediaBox", media)
        ):
            if inner and outer and not _inside(inner, outer):
                out.append(Failure("boxes", number, f"{inner_name} {_show_box(inner)} is not inside {outer_name} {_show_box(outer)}"))
                break
    if req.bleed is not None:
        if trim and bleed:
            sides = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
            if any(abs(side - req.bleed) > BOX_TOLERANCE for side in sides):
                shown = ", ".join(f"{where} {_num(side)}" for where, side in zip(("left", "bottom", "right", "top"), sides))
                out.append(Failure("bleed", number, f"bleed is {shown} pt; expected {_num(req.bleed)} pt on each side"))
        elif not req.boxes:
            out.append(Failure("bleed", number, "no TrimBox or no BleedBox, so the bleed cannot be measured"))
    if req.trim is not None:
        if trim:
            width, height = trim[2] - trim[0], trim[3] - trim[1]
            if abs(width - req.trim[0]) > BOX_TOLERANCE or abs(height - req.trim[1]) > BOX_TOLERANCE:
                out.append(Failure(
                    "trim", number,
                    f"TrimBox is {_num(width)} x {_num(height)} pt; expected {_num(req.trim[0])} x {_num(req.trim[1])} pt",
                ))
        elif not req.boxes:
            out.append(Failure("trim", number, "no TrimBox, so the trim size cannot be measured"))
    return out


# --- document-level identification --------------------------------------------------------


def _output_intent_problems(pdf: pikepdf.Pdf) -> list[str]:
    intents = pdf.Root.get("/OutputIntents")
    if not isinstance(intents, pikepdf.Array) or len(intents) == 0:
        return ["the catalog has no /OutputIntents"]
    found = [i for i in intents if isinstance(i, pikepdf.Dictionary)]
    pdfx = [i for i in found if i.get("/S") == pikepdf.Name.GTS_PDFX]
    if not pdfx:
        kinds = ", ".join(str(i.get("/S")) for i in found) or "none"
        return [f"no output intent has /S /GTS_PDFX (found: {kinds})"]
    profile = pdfx[0].get("/DestOutputProfile")
    if not isinstance(profile, pikepdf.Stream):
        return ["the /GTS_PDFX output intent has no /DestOutputProfile ICC stream"]
    components = profile.get("/N")
    if components != 4:
        return [f"the /GTS_PDFX output profile has /N {components}; a CMYK profile (/N 4) is needed"]
    header = profile.read_bytes()[:20]
    if header[16:20] != b"CMYK":
        return [f"the /GTS_PDFX output profile says /N 4 but its ICC header declares colour space {header[16:20]!r}"]
    return []


def _pdfx_problems(pdf: pikepdf.Pdf, version: str) -> list[str]:
    info = pdf.trailer.get("/Info")
    info = info if isinstance(info, pikepdf.Dictionary) else pikepdf.Dictionary()
    out = []
    found = info.get("/GTS_PDFXVersion")
    if found is None:
        out.append(f"the Info dictionary has no /GTS_PDFXVersion; expected {version!r}")
    elif str(found) != version:
        out.append(f"the Info dictionary has /GTS_PDFXVersion {str(found)!r}; expected {version!r}")
    try:
        xmp = pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False).get("pdfxid:GTS_PDFXVersion")
    except Exception as exc:  # noqa: BLE001 - a malformed XMP packet is a finding, not a crash
        out.append(f"the XMP metadata cannot be read: {exc}")
    else:
        if xmp is None:
            out.append(f"the XMP metadata has no pdfxid:GTS_PDFXVersion; expected {version!r}")
        elif str(xmp) != version:
            out.append(f"the XMP metadata has pdfxid:GTS_PDFXVersion {str(xmp)!r}; expected {version!r}")
    trapped = info.get("/Trapped")
    if trapped not in (pikepdf.Name("/True"), pikepdf.Name("/False")):
        shown = "missing" if trapped is None else str(trapped)
        out.append(f"the Info dictionary /Trapped is {shown}; /True or /False is needed")
    return out


# --- colour spaces -------------------------------------------------------------------------


def _rgb_space(space: object, depth: int = 0) -> str | None:
    """Why a colour space is not CMYK-safe (RGB or Lab), or None when it is fine."""
    if depth > 4:
        return None
    if isinstance(space, pikepdf.Name):
        return "DeviceRGB" if str(space) in ("/DeviceRGB", "/RGB") else None
    if not isinstance(space, pikepdf.Array) or len(space) == 0:
        return None
    family = str(space[0])
    if family in ("/DeviceRGB", "/CalRGB", "/Lab"):
        return family[1:]
    if family == "/ICCBased" and len(space) > 1 and isinstance(space[1], pikepdf.Stream):
        return "ICCBased RGB (/N 3)" if space[1].get("/N") == 3 else None
    if family in ("/Indexed", "/I", "/Pattern") and len(space) > 1:
        base = _rgb_space(space[1], depth + 1)
        return f"{'Indexed' if family == '/I' else family[1:]} on {base}" if base else None
    if family in ("/Separation", "/DeviceN") and len(space) > 2:
        alternate = _rgb_space(space[2], depth + 1)
        return f"{family[1:]} {space[1]} with a {alternate} alternate" if alternate else None
    return None


def _jpx_space(raw: bytes) -> str | None:
    """The colour space a JPEG 2000 codestream declares in its 'colr' box, when it is RGB."""
    at = raw.find(b"colr", 0, 4096)
    if at < 0 or at + 11 > len(raw):
        return None
    method = raw[at + 4]
    if method == 1 and int.from_bytes(raw[at + 7:at + 11], "big") in (16, 18, 20, 21):
        return "JPEG 2000 RGB"
    if method == 2 and raw[at + 7 + 16:at + 7 + 20] == b"RGB ":
        return "JPEG 2000 with an RGB ICC profile"
    return None


def _image_space(memo: _Memo, image: pikepdf.Object) -> str | None:
    key = _key(image)
    if key not in memo.images:
        memo.images[key] = _image_space_of(image)
    return memo.images[key]


def _image_space_of(image: pikepdf.Object) -> str | None:
    mask: object = image.get("/ImageMask")
    if mask is True:
        return None
    space = image.get("/ColorSpace")
    if space is None:
        filters = image.get("/Filter")
        names = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)]
        return _jpx_space(image.read_raw_bytes()) if "/JPXDecode" in names else None
    return _rgb_space(space)


# --- walking content -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Finding:
    """Something found in a content stream, and the path of forms and patterns to it."""

    what: str
    where: tuple[str, ...] = ()

    def within(self, step: str) -> _Finding:
        return _Finding(self.what, (step, *self.where))

    def __str__(self) -> str:
        return f"{self.what} (in {' > '.join(self.where)})" if self.where else self.what


@dataclass(frozen=True)
class _Draw:
    """A raster image drawn: its pixels and the linear part of its matrix to the base space."""

    name: str
    where: tuple[str, ...]
    width: int
    height: int
    linear: Linear

    def placed(self, step: str | None, ctm: Matrix) -> _Draw:
        where = (step, *self.where) if step else self.where
        return _Draw(self.name, where, self.width, self.height, _linear(self.linear, ctm))


@dataclass(frozen=True)
class _Summary:
    """What one content stream draws, with its forms, patterns and glyphs, relative to its caller."""

    colour: tuple[_Finding, ...] = ()
    unembedded: tuple[_Finding, ...] = ()
    fonts: frozenset[Hashable] = frozenset()
    draws: tuple[_Draw, ...] = ()
    errors: tuple[_Finding, ...] = ()


@dataclass
class _Acc:
    """A summary under construction; dicts keep first-seen order and drop repeats."""

    colour: dict[_Finding, None] = field(default_factory=dict)
    unembedded: dict[_Finding, None] = field(default_factory=dict)
    fonts: set[Hashable] = field(default_factory=set)
    draws: dict[_Draw, None] = field(default_factory=dict)
    errors: dict[_Finding, None] = field(default_factory=dict)

    def merge(self, other: _Summary, step: str | None, ctm: Matrix, draws: bool = True) -> None:
        def at(f: _Finding) -> _Finding:
            return f.within(step) if step else f

        self.colour.update((at(f), None) for f in other.colour)
        self.unembedded.update((at(f), None) for f in other.unembedded)
        self.errors.update((at(f), None) for f in other.errors)
        self.fonts |= other.fonts
        if draws:
            self.draws.update((d.placed(step, ctm), None) for d in other.draws)

    def freeze(self) -> _Summary:
        return _Summary(tuple(self.colour), tuple(self.unembedded), frozenset(self.fonts), tuple(self.draws), tuple(self.errors))


@dataclass
class _Memo:
    """Results per PDF object, so each shared form, pattern, font or image is read once."""

    summaries: dict[Hashable, _Summary] = field(default_factory=dict)
    images: dict[Hashable, str | None] = field(default_factory=dict)
    active: set[Hashable] = field(default_factory=set)


def _scan_page(memo: _Memo, page: pikepdf.Object) -> _Summary:
    unit = _float(page.get("/UserUnit")) or 1.0
    start: Matrix = (unit, 0.0, 0.0, unit, 0.0, 0.0)
    resources = _inherited(page, "/Resources")
    acc = _Acc()
    acc.merge(_walk(memo, page, resources, start), None, IDENTITY)
    why = _group_space(page)
    if why:
        acc.colour[_Finding(f"the page transparency group is {why}")] = None
    annots = page.get("/Annots")
    for annot in annots if isinstance(annots, pikepdf.Array) else ():
        form, matrix = _appearance(annot)
        if form is not None and matrix is not None:
            label = f"annotation {annot.get('/Subtype')}"
            acc.merge(_form(memo, form, resources), label, _mul(matrix, start))
    return acc.freeze()


def _appearance(annot: pikepdf.Object) -> tuple[pikepdf.Object | None, Matrix | None]:
    """A printing annotation's normal appearance and the matrix that places it (PDF 12.5.5)."""
    if not isinstance(annot, pikepdf.Dictionary):
        return None, None
    flags = int(_float(annot.get("/F")) or 0)
    appearance = annot.get("/AP")
    if flags & 2 or not flags & 4 or not isinstance(appearance, pikepdf.Dictionary):
        return None, None
    form = appearance.get("/N")
    if isinstance(form, pikepdf.Dictionary) and not isinstance(form, pikepdf.Stream):
        state = annot.get("/AS")
        form = form.get(state) if isinstance(state, pikepdf.Name) else None
    rect, bbox = _box(annot.get("/Rect")), _box(form.get("/BBox")) if isinstance(form, pikepdf.Stream) else None
    if not isinstance(form, pikepdf.Stream) or rect is None or bbox is None:
        return None, None
    m = _matrix(form.get("/Matrix")) or IDENTITY
    corners = [(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]) for x in bbox[0::2] for y in bbox[1::2]]
    x0, x1 = min(c[0] for c in corners), max(c[0] for c in corners)
    y0, y1 = min(c[1] for c in corners), max(c[1] for c in corners)
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return None, None
    sx, sy = (rect[2] - rect[0]) / (x1 - x0), (rect[3] - rect[1]) / (y1 - y0)
    return form, (sx, 0.0, 0.0, sy, rect[0] - x0 * sx, rect[1] - y0 * sy)


def _group_space(obj: pikepdf.Object) -> str | None:
    group = obj.get("/Group")
    return _rgb_space(group.get("/CS")) if isinstance(group, pikepdf.Dictionary) else None


def _form(memo: _Memo, form: pikepdf.Object, outer: pikepdf.Object | None) -> _Summary:
    """A form XObject's (or tiling pattern's) summary relative to the space it is drawn in,
    its /Matrix included. Without /Resources of its own it uses its caller's."""
    own = form.get("/Resources")
    key = (form.objgen, None if own is not None else _key(outer))
    return _memoised(memo, key, lambda: _walk(
        memo, form, own if own is not None else outer, _matrix(form.get("/Matrix")) or IDENTITY
    ))


def _type3(memo: _Memo, font: pikepdf.Object, outer: pikepdf.Object | None) -> _Summary:
    """Everything a Type3 font's glyph procedures draw (their images are glyphs, not art)."""
    own = font.get("/Resources")
    key = ("type3", _key(font), None if own is not None else _key(outer))

    def walk() -> _Summary:
        acc = _Acc()
        procs = font.get("/CharProcs")
        for glyph in procs.values() if isinstance(procs, pikepdf.Dictionary) else ():
            if isinstance(glyph, pikepdf.Stream):
                acc.merge(_walk(memo, glyph, own if own is not None else outer, IDENTITY), None, IDENTITY)
        return acc.freeze()

    return _memoised(memo, key, walk)


def _memoised(memo: _Memo, key: Hashable, make: Callable[[], _Summary]) -> _Summary:
    if key in memo.summaries:
        return memo.summaries[key]
    if key in memo.active:  # a form that draws itself: PDF forbids it, so draw nothing more
        return _Summary()
    memo.active.add(key)
    try:
        summary = memo.summaries[key] = make()
    finally:
        memo.active.discard(key)
    return summary


def _walk(memo: _Memo, source: pikepdf.Object, resources: pikepdf.Object | None, start: Matrix) -> _Summary:
    """Interpret one content stream: the colours, fonts and images it uses (images with their
    matrices) and the forms, patterns, soft masks and Type3 glyphs it draws. ``start`` is the
    matrix from the stream's user space to its caller's space.

    Only what the content uses counts: WeasyPrint gives every page one shared resource
    dictionary that lists every font, image and colour space of the document (and always
    two Lab spaces), so scanning resources would blame pages for what they never draw."""
    acc = _Acc()
    try:
        instructions = pikepdf.parse_content_stream(source)
    except pikepdf.PdfError as exc:
        acc.errors[_Finding(f"a content stream cannot be parsed: {exc}")] = None
        return acc.freeze()
    ctm, stack = start, []
    for instruction in instructions:
        op, operands = str(instruction.operator), instruction.operands
        name = operands[-1] if operands else None
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop() if stack else ctm
        elif op == "cm":
            m = _matrix(operands)
            ctm = _mul(m, ctm) if m else ctm
        elif op in ("rg", "RG"):
            which = "fill" if op == "rg" else "stroke"
            acc.colour[_Finding(f"the {op} operator sets a DeviceRGB {which} colour")] = None
        elif op in ("cs", "CS") and name is not None:
            if str(name) == "/DeviceRGB":
                acc.colour[_Finding(f"the {op} operator selects DeviceRGB")] = None
            else:
                _note(acc, f"colour space {name} is", _rgb_space(_lookup(resources, "/ColorSpace", name)))
        elif op in ("scn", "SCN") and isinstance(name, pikepdf.Name):
            pattern = _lookup(resources, "/Pattern", name)
            if isinstance(pattern, pikepdf.Dictionary) and pattern.get("/PatternType") == 2:
                shading = pattern.get("/Shading")
                space = shading.get("/ColorSpace") if isinstance(shading, pikepdf.Dictionary) else None
                _note(acc, f"pattern {name} has a", _rgb_space(space), "shading")
            elif isinstance(pattern, pikepdf.Stream):
                acc.merge(_form(memo, pattern, resources), f"pattern {name}", start)  # pattern space: the stream's
        elif op == "sh" and name is not None:
            shading = _lookup(resources, "/Shading", name)
            space = shading.get("/ColorSpace") if isinstance(shading, pikepdf.Dictionary) else None
            _note(acc, f"shading {name} is", _rgb_space(space))
        elif op == "gs" and name is not None:
            state = _lookup(resources, "/ExtGState", name)
            mask = state.get("/SMask") if isinstance(state, pikepdf.Dictionary) else None
            group = mask.get("/G") if isinstance(mask, pikepdf.Dictionary) else None
            if isinstance(group, pikepdf.Stream):
                _note(acc, f"the soft mask of {name} has a", _group_space(group), "group")
                acc.merge(_form(memo, group, resources), f"soft mask of {name}", ctm)
        elif op == "Tf" and operands:
            _use_font(memo, acc, _lookup(resources, "/Font", operands[0]), str(operands[0]), resources)
        elif op == "Do" and name is not None:
            xobject = _lookup(resources, "/XObject", name)
            if not isinstance(xobject, pikepdf.Stream):
                continue
            if xobject.get("/Subtype") == pikepdf.Name.Image:
                _note(acc, f"image {name} is", _image_space(memo, xobject))
                _draw(acc, f"image {name}", xobject.get("/Width"), xobject.get("/Height"), ctm)
            elif xobject.get("/Subtype") == pikepdf.Name.Form:
                _note(acc, f"form {name} has a", _group_space(xobject), "transparency group")
                acc.merge(_form(memo, xobject, resources), f"form {name}", ctm)
        elif isinstance(instruction, pikepdf.ContentStreamInlineImage):
            image = instruction.iimage
            space = image.obj.get("/ColorSpace")
            if isinstance(space, pikepdf.Name) and str(space) not in ("/DeviceRGB", "/DeviceCMYK", "/DeviceGray"):
                space = _lookup(resources, "/ColorSpace", space)
            if not image.image_mask:
                _note(acc, "an inline image is", _rgb_space(space))
            _draw(acc, "inline image", image.width, image.height, ctm)
    return acc.freeze()


def _note(acc: _Acc, before: str, why: str | None, after: str = "") -> None:
    if why:
        acc.colour[_Finding(f"{before} {why} {after}".rstrip())] = None


def _draw(acc: _Acc, name: str, width: object, height: object, ctm: Matrix) -> None:
    w, h = _float(width), _float(height)
    if w and h:
        acc.draws[_Draw(name, (), int(w), int(h), _linear((1.0, 0.0, 0.0, 1.0), ctm))] = None


def _use_font(memo: _Memo, acc: _Acc, font: pikepdf.Object | None, name: str, resources: pikepdf.Object | None) -> None:
    if not isinstance(font, pikepdf.Dictionary):
        return
    acc.fonts.add(_key(font))
    subtype = str(font.get("/Subtype"))[1:]
    if subtype == "Type3":
        acc.merge(_type3(memo, font, resources), f"Type3 font {name}", IDENTITY, draws=False)
        return
    described: pikepdf.Object = font
    if subtype == "Type0":
        descendants = font.get("/DescendantFonts")
        described = descendants[0] if isinstance(descendants, pikepdf.Array) and len(descendants) else font
    descriptor = described.get("/FontDescriptor") if isinstance(described, pikepdf.Dictionary) else None
    embedded = isinstance(descriptor, pikepdf.Dictionary) and any(
        k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
    )
    if not embedded:
        base = str(font.get("/BaseFont", pikepdf.Name("/unnamed")))[1:]
        acc.unembedded[_Finding(f"font {name} ({base}, {subtype}) is not embedded")] = None


# --- resolution ----------------------------------------------------------------------------


def _ppi_by_image(draws: Iterable[_Draw]) -> dict[str, tuple[float, float]]:
    """The lowest (ppi across, ppi down) of each image drawn, by a label naming it and its path."""
    worst: dict[str, tuple[float, float]] = {}
    for draw in draws:
        a, b, c, d = draw.linear
        across, down = math.hypot(a, b), math.hypot(c, d)
        if across < 1e-9 or down < 1e-9:
            continue
        ppi = (draw.width * 72 / across, draw.height * 72 / down)
        label = draw.name + (f" (in {' > '.join(draw.where)})" if draw.where else "")
        if label not in worst or min(ppi) < min(worst[label]):
            worst[label] = ppi
    return worst


# --- total ink -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ink:
    """The heaviest pixel of a page's separations."""

    total: float
    cmyk: tuple[float, float, float, float]
    at_mm: tuple[float, float]

    def describe(self) -> str:
        c, m, y, k = (_num(v, 0) for v in self.cmyk)
        return f"C {c} M {m} Y {y} K {k}, {_num(self.at_mm[0], 1)} mm from the left and {_num(self.at_mm[1], 1)} mm from the top"


def _measure_ink(gs: str, path: Path, pdf: pikepdf.Pdf, dpi: int) -> tuple[dict[int, _Ink], str | None]:
    """Highest total ink of every page, rendering one page of each group of identical pages.

    Ghostscript's rendering of a page depends only on its content-stream bytes, the objects
    its resources name, its boxes, rotation, user unit, group and annotations. Pages equal in
    all of these (resources compared structurally down to streams, which are compared by
    object number: the same object is the same bytes) give the same pixels, so rendering one
    of them and copying its figure to the others is exact, not an estimate.
    """
    groups: dict[Hashable, list[int]] = {}
    fingerprints: dict[Hashable, Hashable] = {}
    for number, page in enumerate(pdf.pages, 1):
        groups.setdefault(_render_key(page.obj, fingerprints), []).append(number)
    shown = [pages[0] for pages in groups.values()]
    with tempfile.TemporaryDirectory(prefix="pnp-ink-") as tmp:
        command = [
            gs, "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dQUIET", "-dPrinted", "-dNOINTERPOLATE",
            "-sDEVICE=tiff32nc", f"-r{dpi}", *_intent_flags(pdf),
            f"-sPageList={','.join(map(str, shown))}", "-o", str(Path(tmp) / "p%04d.tif"), str(path),
        ]
        # Measured with Ghostscript 10.0: DeviceCMYK values reach tiff32nc unchanged by default
        # (0.53 0.51 0.40 0.95 k reads back 135 130 102 242 = 52.9/51.0/40.0/94.9 %), because
        # DeviceCMYK and the device share default_cmyk.icc and gs skips the identity transform;
        # -dUseFastColor and -dOverrideICC change nothing for DeviceCMYK. ICCBased CMYK with
        # another profile IS converted (to default_cmyk.icc), so when the file has a CMYK
        # output intent we pass -dUsePDFX3Profile=<its index>: the intent becomes the output
        # profile, DeviceCMYK is read as the intent's space (still unchanged) and ICCBased
        # CMYK is converted to the printing condition, as a PDF/X RIP would. That flag must not
        # be given for an RGB intent (e.g. PDF/A's sRGB): then gs converts DeviceCMYK through
        # it and 53/51/40/95 comes out as 71/71/63/85. tiff32nc draws without anti-aliasing
        # (TextAlphaBits/GraphicsAlphaBits 1) so edges hold real values; -dNOINTERPOLATE keeps
        # image samples as written; -dPrinted shows annotations as they print.
        result = subprocess.run(command, check=False, capture_output=True, text=True)
        files = sorted(Path(tmp).glob("p*.tif"))
        problem = None
        if result.returncode != 0 or len(files) != len(shown):
            detail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no message"]
            problem = f"Ghostscript rendered {len(files)} of {len(shown)} pages for the ink check: {detail[0]}"
        inks: dict[int, _Ink] = {}
        if problem is None:  # gs numbers its output files 1, 2, ... in the order of -sPageList
            for pages, file in zip(groups.values(), files):
                ink = _heaviest(file, dpi)
                inks.update(dict.fromkeys(pages, ink))
    return inks, problem


def _heaviest(file: Path, dpi: int) -> _Ink:
    with Image.open(file) as image:
        pixels = np.asarray(image.convert("CMYK"), dtype=np.uint8)
    totals = pixels.sum(axis=2, dtype=np.uint32)
    row, col = divmod(int(totals.argmax()), totals.shape[1])
    cmyk = tuple(float(v) * 100 / 255 for v in pixels[row, col])
    return _Ink(
        float(totals[row, col]) * 100 / 255,
        (cmyk[0], cmyk[1], cmyk[2], cmyk[3]),
        ((col + 0.5) * 25.4 / dpi, (row + 0.5) * 25.4 / dpi),
    )


def _intent_flags(pdf: pikepdf.Pdf) -> list[str]:
    intents = pdf.Root.get("/OutputIntents")
    for index, intent in enumerate(intents if isinstance(intents, pikepdf.Array) else ()):
        profile = intent.get("/DestOutputProfile") if isinstance(intent, pikepdf.Dictionary) else None
        if isinstance(profile, pikepdf.Stream) and profile.get("/N") == 4:
            return [f"-dUsePDFX3Profile={index}"]
    return []


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
        _fingerprint(_inherited(page, "/Resources"), memo, set()),
        *(_box(_inherited(page, key)) for key in ("/MediaBox", "/CropBox")),
        _float(_inherited(page, "/Rotate")),
        _float(page.get("/UserUnit")),
        _fingerprint(page.get("/Group"), memo, set()),
        tuple(_key(a) for a in annots) if isinstance(annots, pikepdf.Array) else None,
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

"""Stage 4: lay HTML out into PDF pages with WeasyPrint, reading only allowed files.

WeasyPrint is imported here and only here, and only when something is rendered,
so commands that render nothing start fast.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType, ModuleType

from pnp.errors import AssetError, BuildError, Diagnostic, InputError, PnpError, Source
from pnp.fontfiles import FontRefused
from pnp.parallel import fork_iter
from pnp.progress import Progress
from pnp.render import artforms, attributes, ctypesizes, margins, paint, sheets
from pnp.render.boxtree import Document
from pnp.render.results import Result
from pnp.render.fontcheck import FontRules, rules_for
from pnp.render.fetching import guarded_fetcher
from pnp.render.fit import FitError, fit_text
from pnp.render.fontconfig import FLOOR_FONT, font_configuration, machine_fonts_hidden
from pnp.render.findings import LayoutFinding
from pnp.render.inspect import inspect_layout
from pnp.render.keep import stranded_headings
from pnp.render.references import stylesheet_refusals
from pnp.render.spill import face_of_each_page, measure_cut, spilled_findings
from pnp.render.scope import Scope
from pnp.render.sheets import scratch
from pnp.svgsize import SvgRefused, check_inline_svg

MAX_IMAGE_PIXELS = 40_000_000
"""A raster image larger than this (about 6300 x 6300) is refused."""


SafeBoxes = Sequence["tuple[float, float, float, float] | None"]

_NOTDEF = ".notdef glyph rendered"
"""How WeasyPrint's log begins when it draws an empty box for a character no font has."""


def load_weasyprint() -> ModuleType:
    """Import WeasyPrint, in about half the time a plain import takes.

    WeasyPrint opens Pango, HarfBuzz and the rest by trying several names per
    library; cffi passes each name that does not open as given to
    ``ctypes.util.find_library``, which runs ``ldconfig`` (and possibly a C
    compiler) every time: about 0.25 s of a 0.55 s import on Linux. The names
    that open directly (``libpango-1.0.so.0``) are in every list, so the
    import first runs with that search switched off; where that cannot find
    the libraries, it is imported again the usual way."""
    if "weasyprint" in sys.modules:
        _install(sys.modules["weasyprint"])
        return sys.modules["weasyprint"]
    import ctypes.util

    search = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        # Its "could not import" advice on a first try, and its warning that
        # the (deliberately empty) font configuration has no fonts, unsaid.
        with contextlib.redirect_stdout(io.StringIO()), machine_fonts_hidden(), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            import weasyprint
        _install(weasyprint)
        return sys.modules["weasyprint"]
    except OSError:
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
    finally:
        ctypes.util.find_library = search
    try:
        with machine_fonts_hidden(), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            import weasyprint
        _install(weasyprint)
    except OSError as exc:
        raise BuildError(
            f"WeasyPrint cannot open the system libraries it lays pages out with (Pango, HarfBuzz): {exc}; "
            "install them with `bash scripts/system-deps.sh build` (or `make build`)"
        ) from None
    return sys.modules["weasyprint"]


def _install(weasyprint: ModuleType) -> None:
    """pnp's changes to WeasyPrint, once per process: stylesheets parsed once
    per session (:mod:`pnp.render.sheets`), SVG art drawn once per document
    (:mod:`pnp.render.artforms`), font subsets without a C parser run per
    document (:mod:`pnp.render.ctypesizes`), margin boxes made only for
    pages that have some (:mod:`pnp.render.margins`), elements with the same
    style attribute sharing one computed style (:mod:`pnp.render.attributes`),
    a face's stacking contexts built once for inspection and drawing
    (:mod:`pnp.render.paint`)."""
    sheets.install(weasyprint)
    artforms.install(weasyprint)
    ctypesizes.install(weasyprint)
    margins.install(weasyprint)
    attributes.install(weasyprint)
    paint.install(weasyprint)


def prime() -> None:
    """Lay out a line of text once, so the first real document does not pay
    for WeasyPrint's first-use set-up (fonts, the default stylesheet)."""
    with scratch():
        lay_out("<p>pnp</p>").write_pdf()


_FLOOR = (
    f"@font-face {{ font-family: 'pnp floor'; src: url({FLOOR_FONT.as_uri()}); }}\n"
    ".pnp-face { break-after: page !important; }\n"
    ".pnp-face * { break-before: auto !important; break-after: auto !important; }"
)
"""pnp's user stylesheet, which outranks even a game's ``!important``: every
face is exactly one page (a page break a template asks for inside a face is
ignored), and every font configuration holds a font with no glyph but a
space, under a name no document uses: with no font at all (a document that
declares none), Pango would crash the process. It draws nothing, so it never
stands in for a character the declared fonts lack (``scripts/build-floor-font.py``)."""


def lay_out(html: str, base_url: str | None = None, fetcher: object = None, roots: Sequence[Path] = ()) -> Document:
    """``html`` laid out (a WeasyPrint Document) with pnp's font configuration:
    no font of the machine's, only those ``html`` declares (and one that draws
    nothing). Every layout in pnp goes through here; inside a
    :func:`pnp.render.sheets.session`, documents naming the same stylesheets
    (whose files lie in ``roots``) share one parse of them."""
    weasyprint = load_weasyprint()
    page = weasyprint.HTML(string=html, base_url=base_url, **({"url_fetcher": fetcher} if fetcher else {}))
    styles = sheets.shared(page, _FLOOR, roots)
    if styles is None:
        config = font_configuration()
        floor = weasyprint.CSS(string=_FLOOR, font_config=config)
        document: Document = page.render(stylesheets=[floor], font_config=config)
        return document
    with sheets.using(styles):
        document = page.render(
            stylesheets=[styles.floor], font_config=styles.fonts, counter_style=styles.counters, color_profiles=styles.profiles
        )
    return document


def render_inspected(html: str, scope: Scope, what: str, safe_boxes: SafeBoxes | None) -> tuple[bytes, list[LayoutFinding]]:
    """Lay out ``html`` with ``scope``'s files and fonts only. With
    ``safe_boxes`` (one per page: a document of card faces, see
    :func:`pnp.render.inspect.inspect_layout`), return the overflowing text,
    text outside the safe zone and text in undeclared fonts or characters as
    findings, after layout and before writing; in any other document, text in
    undeclared fonts or characters is an AssetError, and headings left at a
    page's foot are its findings (:mod:`pnp.render.keep`)."""
    with interrupts_kept():
        return _render_inspected(html, scope, what, safe_boxes)


@contextlib.contextmanager
def interrupts_kept() -> Iterator[None]:
    """Ctrl-C (or SIGTERM) during layout stops it, even inside WeasyPrint's
    SVG drawing, which catches every exception: it would log the interrupt as
    an image that failed to draw, and go on. Each signal whose handler raises
    (Python's Ctrl-C, pnp's SIGTERM) is remembered, and its handler runs again
    when the block ends. Only in the main thread, where handlers run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[tuple[int, Callable[[int, FrameType | None], object]]] = []
    previous = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(number)
        if callable(handler):
            previous[number] = handler

            def remember(signum: int, frame: FrameType | None, handler: Callable[[int, FrameType | None], object] = handler) -> None:
                seen.append((signum, handler))
                handler(signum, frame)

            signal.signal(number, remember)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if seen:
            signum, handler = seen[0]
            handler(signum, None)


def _render_inspected(html: str, scope: Scope, what: str, safe_boxes: SafeBoxes | None) -> tuple[bytes, list[LayoutFinding]]:
    load_weasyprint()
    from weasyprint.urls import FatalURLFetchingError

    resolved = [r.resolve() for r in scope.roots]
    refused: list[str] = []

    messages: list[tuple[int, str]] = []
    handler = _Collect(messages)
    logger = logging.getLogger("weasyprint")
    logger.addHandler(handler)
    previous = logger.level
    logger.setLevel(logging.WARNING)
    try:
        check_inline_svg(html)
    except SvgRefused as exc:
        raise AssetError([Diagnostic(Source(Path(what)), "", str(exc))]) from None
    stylesheets = stylesheet_refusals(html, resolved)
    if stylesheets:
        raise AssetError(stylesheets)
    try:
        with scratch():
            fetcher = guarded_fetcher(resolved, refused)
            laid = [html]  # the html last laid out: once fitted, the document's, its text sizes set

            def lay(text: str) -> Document:
                laid[0] = text
                return lay_out(text, resolved[0].as_uri() + "/", fetcher, resolved)

            document, fitted = fit_text(html, lay)
            owner, spilled = face_of_each_page(document) if safe_boxes is not None else (list(range(len(document.pages))), {})
            first = [number == 0 or owner[number - 1] != face for number, face in enumerate(owner)]
            if not all(first):  # the rest of a face in the flow: its own pages, dropped
                document = document.copy([page for number, page in enumerate(document.pages) if first[number]])
            findings = inspect_layout(document, safe_boxes or [], _font_rules(scope, what), overflow=safe_boxes is not None)
            if safe_boxes is not None:
                findings = measure_cut(document, laid[0], lay, safe_boxes, findings)
            findings += [LayoutFinding(owner[page], "fit", element, message) for page, element, message in fitted] + spilled_findings(spilled)
            if safe_boxes is None:
                if findings:
                    raise AssetError([Diagnostic(Source(Path(what)), "", f"{f.element}: {f.message}") for f in findings])
                findings = stranded_headings(document)
            with artforms.sharing(safe_boxes is not None):  # faces, to be imposed
                data = document.write_pdf()
    except FatalURLFetchingError:
        raise AssetError([Diagnostic(Source(Path(what)), "", f"refused to read {r}") for r in refused]) from None
    except FitError as exc:
        raise AssetError([Diagnostic(Source(Path(what)), "", str(exc))]) from None
    except RecursionError:
        message = "elements nest too deeply to lay out; expected a flatter page (a template that repeats itself?)"
        raise AssetError([Diagnostic(Source(Path(what)), "", message)]) from None
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
    failures = [f"refused to read {r}" for r in refused]  # also those WeasyPrint caught (inside an SVG)
    failures += [m for level, m in messages if level >= logging.ERROR or "Failed to load" in m]
    if not any(f.kind == "font" for f in findings):  # text the box tree does not show (SVG text)
        failures += [m for _, m in messages if m.startswith(_NOTDEF)]
    if failures:
        raise AssetError([Diagnostic(Source(Path(what)), "", m) for m in failures])
    if not isinstance(data, bytes):
        raise BuildError(f"{what}: WeasyPrint returned no PDF")
    return data, findings


def _font_rules(scope: Scope, what: str) -> FontRules:
    try:
        return rules_for(scope)
    except (FontRefused, OSError) as exc:
        raise AssetError([Diagnostic(Source(Path(what)), "", f"a declared font cannot be read: {exc}")]) from None


def laid_out(
    jobs: Sequence[tuple[str, str, SafeBoxes | None]], scope: Scope, workers: int | None = None, counted: int = 0
) -> Iterator[Result | InputError]:
    """Several (html, what, safe boxes) documents laid out in this process, on
    every core when there are several (:func:`pnp.render.dispatch.render_each`
    chooses between this and the build's renderer), one by one, in order, as they are laid
    out: each one's result, or the input's fault in it; pnp's own failure is
    raised. ``counted`` documents of the same build, laid out already, are
    shown done on the progress bar."""
    load_weasyprint()  # imported once, before forking
    try:
        rules_for(scope)  # the fonts' character maps read once, before forking
    except (FontRefused, OSError):
        pass  # each job reports it

    with Progress("laying out", len(jobs) + counted) as bar, sheets.session():
        bar.advance(counted)
        for result in fork_iter(
            _render_job,
            [(html, scope, what, None if boxes is None else list(boxes)) for html, what, boxes in jobs],
            workers or os.cpu_count() or 1,
            done=bar.advance,
            here=True,  # this process lays out too: one WeasyPrint process fewer for the same cores
        ):
            if not isinstance(result, (InputError, tuple)):
                raise result  # pnp's own failure, not the input's
            yield result


def _render_job(html: str, scope: Scope, what: str, boxes: SafeBoxes | None) -> tuple[bytes, list[LayoutFinding]] | PnpError:
    try:
        return render_inspected(html, scope, what, boxes)
    except PnpError as exc:  # sent back to the parent, which raises it with the others
        return exc


class _Collect(logging.Handler):
    def __init__(self, sink: list[tuple[int, str]]):
        super().__init__(logging.WARNING)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append((record.levelno, record.getMessage()))

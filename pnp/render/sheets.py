"""Stylesheets parsed once per layout session, not once per document.

WeasyPrint parses every stylesheet a document names each time it lays the
document out: about 65 ms of a card document's 72 ms of fixed cost, for the
same few files every time. Inside :func:`session` (one batch of layouts, in
one process and each worker it forks), documents that name the same
stylesheets (the same ``<style>`` texts and ``<link>`` elements, with the same
base URL and media) share one parse of them, and with it one font
configuration, counter-style table and colour-profile table: exactly the ones
WeasyPrint would have built for each of them, since it builds them from those
stylesheets alone. The key is those elements' texts and the content hashes of
every file they name (stylesheets, what those import, fonts), so a session
may last as long as ``pnp watch`` does: a saved stylesheet is parsed again.

What WeasyPrint logged while parsing (a stylesheet that failed to load, a
property it ignores) is logged again for each document that shares the
parse, so every document reports what it would have reported alone.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Protocol
from xml.etree.ElementTree import Element

from pnp.render.fontconfig import font_configuration
from pnp.render.references import file_hash, referenced


@dataclass
class Styles:
    """A document's parsed author stylesheets and what parsing them declared."""

    fonts: object
    """The WeasyPrint FontConfiguration their ``@font-face`` rules (and pnp's floor font) went into."""
    floor: object
    """pnp's user stylesheet, parsed into ``fonts``."""
    sheets: list[object]
    counters: object
    profiles: dict[str, object] = field(default_factory=dict)
    logged: list[logging.LogRecord] = field(default_factory=list)
    """What WeasyPrint logged while parsing them."""


Memo = OrderedDict[tuple[object, ...], Styles]
_MEMO: ContextVar[Memo | None] = ContextVar("pnp_stylesheets", default=None)
KEPT = 16
"""Parsed stylesheet sets a session keeps, the ones used longest ago dropped first."""
_USING: ContextVar[Styles | None] = ContextVar("pnp_stylesheets_in_use", default=None)
_ORIGINAL: Callable[..., Iterable[object]] | None = None
"""WeasyPrint's own ``find_stylesheets``, once :func:`install` has replaced it."""


class _Wrapped(Protocol):
    """A WeasyPrint element wrapper: the parsed HTML element it wraps."""

    etree_element: Element


class _Wrapper(Protocol):
    def query_all(self, *selectors: object) -> Iterable[_Wrapped]: ...


class HTML(Protocol):
    """What pnp reads of a WeasyPrint ``HTML`` document before layout."""

    base_url: str | None
    media_type: str
    url_fetcher: object
    wrapper_element: _Wrapper
    etree_element: Element


@contextlib.contextmanager
def session() -> Iterator[None]:
    """Within: documents naming the same stylesheets share one parse of them.
    The font files WeasyPrint copies for ``@font-face`` rules live in one
    temporary folder for the whole session (shared font configurations keep
    using them), removed when it ends; processes forked inside use it too."""
    if _MEMO.get() is not None:
        yield
        return
    with scratch():
        token = _MEMO.set(OrderedDict())
        try:
            yield
        finally:
            _MEMO.reset(token)


_SCRATCH: ContextVar[bool] = ContextVar("pnp_scratch", default=False)


@contextlib.contextmanager
def scratch() -> Iterator[None]:
    """A temporary folder for layouts, removed when the block ends. WeasyPrint
    copies every @font-face font into a folder of its own and removes it only
    when its font configuration is garbage-collected, which never happens in
    a worker that exits at once: each layout would leave its fonts behind in
    the system's temporary folder. Inside another scratch block, the outer
    folder serves."""
    if _SCRATCH.get():
        yield
        return
    previous = tempfile.tempdir
    with tempfile.TemporaryDirectory(prefix="pnp-layout-") as folder:
        tempfile.tempdir = folder
        token = _SCRATCH.set(True)
        try:
            yield
        finally:
            _SCRATCH.reset(token)
            tempfile.tempdir = previous


def install(weasyprint: ModuleType) -> None:
    """Route WeasyPrint's search for a document's stylesheets through
    :func:`_find` (once per process): outside :func:`using` it is WeasyPrint's own."""
    global _ORIGINAL
    module = weasyprint.css
    if _ORIGINAL is None:
        _ORIGINAL = module.find_stylesheets
        module.find_stylesheets = _find


def _find(*args: object) -> Iterator[object]:
    styles = _USING.get()
    if styles is None:
        assert _ORIGINAL is not None  # installed with it
        return iter(_ORIGINAL(*args))
    return iter(styles.sheets)


def shared(page: HTML, floor: str, roots: Sequence[Path]) -> Styles | None:
    """The parsed stylesheets of ``page`` (a WeasyPrint HTML whose files lie
    in ``roots``), from this session's memo or parsed now; None outside a session."""
    memo = _MEMO.get()
    if memo is None or _ORIGINAL is None or not roots:
        return None
    key = _key(page, roots)
    styles = memo.get(key)
    if styles is None:
        styles = memo[key] = _parse(page, floor)
        while len(memo) > KEPT:
            memo.popitem(last=False)
    else:
        memo.move_to_end(key)
        logger = logging.getLogger("weasyprint")
        for record in styles.logged:
            logger.handle(record)
    return styles


@contextlib.contextmanager
def using(styles: Styles) -> Iterator[None]:
    """While inside, the document being laid out gets ``styles``' sheets."""
    token = _USING.set(styles)
    try:
        yield
    finally:
        _USING.reset(token)


def _key(page: HTML, roots: Sequence[Path]) -> tuple[object, ...]:
    """Everything WeasyPrint's stylesheet search reads from a document: each
    ``<style>`` and ``<link>`` element's attributes and text, in order, the
    base URL and the media type; and the content hash of each file they name
    (:func:`pnp.render.references.file_hash`: a stylesheet with the files it
    names in turn)."""
    from weasyprint.css import get_child_text

    parts: list[object] = [page.base_url, page.media_type]
    named: list[str] = []
    for element in styles_and_links(page.etree_element):
        text: str | None = get_child_text(element) if element.tag == "style" else None
        attributes = tuple(sorted(element.attrib.items()))
        parts.append((element.tag, attributes, text))
        named.append(text or element.get("href") or "")
    parts += [(path, file_hash(path, roots)) for path in referenced("\n".join(named))]
    return tuple(parts)


def styles_and_links(root: Element) -> Iterator[Element]:
    """The ``style`` and ``link`` elements of ``root``'s tree, in document
    order: what WeasyPrint's stylesheet search finds with cssselect2's
    ``query_all("style", "link")`` (an element's local name, in any
    namespace; comments and processing instructions skipped), without
    wrapping every element of the document for it, as that did (about a
    tenth of a face a document)."""
    for element in root.iter():
        tag = element.tag
        if isinstance(tag, str) and (tag[tag.rfind("}") + 1 :] if tag.startswith("{") and "}" in tag else tag) in ("style", "link"):
            yield element


def _parse(page: HTML, floor: str) -> Styles:
    """Parse ``page``'s stylesheets as WeasyPrint would for it alone, into a
    font configuration and tables of their own."""
    from weasyprint import CSS
    from weasyprint.css.counters import CounterStyle

    fonts = font_configuration()
    counters = CounterStyle()
    profiles: dict[str, object] = {}
    logged = _Keep()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(logged)
    assert _ORIGINAL is not None  # a session parses only once it is installed
    try:
        sheets = list(
            _ORIGINAL(page.wrapper_element, page.media_type, page.url_fetcher, page.base_url, fonts, counters, profiles, [], [])
        )
        floor_sheet = CSS(string=floor, font_config=fonts)
    finally:
        logger.removeHandler(logged)
    return Styles(fonts, floor_sheet, sheets, counters, profiles, logged.records)


class _Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

"""Each document's URL fetcher: files in the scope's roots and ``data:`` URLs only.

Every document pnp lays out reads through a fetcher of its own, which
remembers what it refused (:func:`guarded_fetcher`). WeasyPrint's
``URLFetcher`` builds a urllib opener with ten handlers (proxies from the
environment, HTTP, FTP, files...) as it is made: about 1.4 % of a face's
instructions in a deck laid out in runs of four, for an opener that no URL
here reaches. So the fetcher skips that set-up, and a ``data:`` URL goes to
one plain ``URLFetcher`` of the process, made on first use, which answers it
exactly as before. A file's response carries one set of headers per
content type, made once per process (:func:`_headers`), not a mail message
built and parsed again for every file a document reads (about 0.6 % of the
instructions laying out a deck of three pictures a face, in runs of four);
nothing WeasyPrint does with a response (``content_type``, ``charset``)
changes its headers, and a change would fail loudly. Tied to the pinned
WeasyPrint version (70), like :mod:`pnp.render.margins`:
tests/render/test_fetching.py checks what it relies on.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Sequence
from email.message import EmailMessage
from functools import cache, lru_cache
from pathlib import Path
from typing import Protocol

from pnp.errors import ImageRefused
from pnp.images import check_image_data
from pnp.render.references import Refused, allowed_file


class Fetcher(Protocol):
    def fetch(self, url: str, headers: object = None) -> object: ...


def guarded_fetcher(roots: Sequence[Path], refused: list[str]) -> Fetcher:
    """A fetcher for one document: files under ``roots`` (resolved) and
    ``data:`` URLs, each checked (:func:`_sane`); anything else is refused,
    added to ``refused`` and stops the layout (WeasyPrint's
    ``FatalURLFetchingError``)."""
    fetcher: Fetcher = _fetcher_class()(list(roots), refused)
    return fetcher


def _sane(url: str, data: bytes) -> bytes:
    """``data`` unless it is a raster image too large or broken to decode, or
    an SVG that draws too much."""
    try:
        check_image_data(data)
    except ImageRefused as exc:
        shown = url if len(url) < 80 or not url.startswith("data:") else url[:60] + "..."
        raise Refused(f"{shown!r}: {exc}") from None
    return data


@cache
def _plain() -> Fetcher:
    """WeasyPrint's own fetcher, once per process, for ``data:`` URLs."""
    from weasyprint.urls import URLFetcher

    fetcher: Fetcher = URLFetcher()
    return fetcher


@cache
def _fetcher_class() -> Callable[[list[Path], list[str]], Fetcher]:
    """The class of :func:`guarded_fetcher`'s fetchers, made once WeasyPrint is imported."""
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    class GuardedFetcher(URLFetcher):  # type: ignore[misc]
        _fail_on_errors = False
        """What WeasyPrint's ``fetch`` reads of a fetcher that raised (URLFetcher's default)."""

        def __init__(self, roots: list[Path], refused: list[str]) -> None:  # not URLFetcher's: no opener
            self._roots = roots
            self._refused = refused

        def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
            try:
                if url.startswith("data:"):
                    response = _plain().fetch(url, headers)
                    assert isinstance(response, URLFetcherResponse)
                    return URLFetcherResponse(url, _sane(url, response.read()), response.headers)
                path = allowed_file(url, self._roots)
                data = _sane(url, path.read_bytes())
            except Refused as exc:
                self._refused.append(str(exc))
                raise FatalURLFetchingError(str(exc)) from None
            mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(path.as_uri(), data, _headers(mime))

    return GuardedFetcher


class _Frozen(EmailMessage):
    """Response headers that refuse every change (see :func:`_headers`)."""

    def _frozen(self, *args: object, **named: object) -> None:
        raise TypeError("pnp shares these response headers between documents: they are read-only")

    __setitem__ = __delitem__ = set_raw = set_param = del_param = replace_header = add_header = _frozen
    set_type = set_payload = set_charset = set_content = set_boundary = attach = _frozen


@lru_cache(maxsize=64)
def _headers(mime: str) -> EmailMessage:
    """The headers of a file's response with content type ``mime``, as
    WeasyPrint's response builds them from ``{"Content-Type": mime}``, but
    read-only: one set serves every response of that type in this process."""
    headers = _Frozen()
    EmailMessage.__setitem__(headers, "Content-Type", mime)
    return headers

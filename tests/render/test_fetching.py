"""Each document's URL fetcher reads what it did, without a urllib opener of its own.

pnp/render/fetching.py skips WeasyPrint's ``URLFetcher`` set-up (a urllib
opener) for every document and sends ``data:`` URLs to one plain fetcher:
the pages, and what is refused, stay as they were.
"""

from __future__ import annotations

import base64
import io
import urllib.request
from pathlib import Path

import pikepdf
import pytest

from pnp.errors import AssetError
from pnp.paths import OWN
from pnp.render import sheets
from pnp.render.fetching import guarded_fetcher
from pnp.render.scope import DEFAULT_FONTS, Scope
from pnp.render.weasy import load_weasyprint, render_inspected

_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4" width="4" height="4"><rect width="4" height="2" fill="#c03"/></svg>'
_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
)


def _page(folder: Path) -> str:
    (folder / "art.svg").write_text(_SVG)
    data = base64.b64encode(_PNG).decode()
    return (
        "<html><head><style>@page { size: 40mm 30mm; margin: 0 }</style></head><body>"
        f'<img src="art.svg" style="width: 10mm"><img src="data:image/png;base64,{data}" style="width: 10mm">'
        "</body></html>"
    )


def test_a_document_makes_no_url_opener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Laying out a document with a file and a data: URL, in a session, sets
    up no urllib handler (WeasyPrint's fetcher sets up ten per document: failed before)."""
    scope = Scope((tmp_path, OWN), DEFAULT_FONTS)
    html = _page(tmp_path)
    added: list[object] = []
    original = urllib.request.OpenerDirector.add_handler
    with sheets.session():  # as in a build: the stylesheets parsed once
        render_inspected(html, scope, "first", None)  # the process's plain fetcher made, if not yet
        monkeypatch.setattr(urllib.request.OpenerDirector, "add_handler", lambda self, handler: added.append(handler) or original(self, handler))
        data, findings = render_inspected(html, scope, "second", None)
    assert added == []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        images = [x for x in pdf.pages[0].Resources.XObject.values() if x.Subtype == "/Image"]
        drawn = pdf.pages[0].Contents.read_bytes()
    assert [(image.Width, image.Height) for image in images] == [(2, 2)]  # the data: URL's picture
    assert b"0.8 0 0.2 rg" in drawn  # the file's
    assert findings == []


def test_the_pages_are_those_weasyprints_own_fetcher_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same bytes as a document read through a fetcher made WeasyPrint's
    usual way (its ``URLFetcher.__init__``, opener and all), file and data: URL."""
    weasyprint = load_weasyprint()
    scope = Scope((tmp_path, OWN), DEFAULT_FONTS)
    html = _page(tmp_path)
    ours, _ = render_inspected(html, scope, "ours", None)
    from pnp.render import fetching

    usual = fetching._fetcher_class()
    setup = weasyprint.urls.URLFetcher.__init__

    class Usual(usual):  # type: ignore[misc, valid-type]
        def __init__(self, roots: list[Path], refused: list[str]) -> None:
            setup(self)
            super().__init__(roots, refused)

    monkeypatch.setattr(fetching, "_fetcher_class", lambda: Usual)
    theirs, _ = render_inspected(html, scope, "theirs", None)
    assert ours == theirs


def test_a_refused_file_is_named_and_stops_the_document(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "secret.svg").write_text(_SVG)
    html = '<html><body><img src="../secret.svg"></body></html>'
    with pytest.raises(AssetError, match="refused to read") as caught:
        render_inspected(html, Scope((tmp_path / "game", OWN), DEFAULT_FONTS), "refused", None)
    assert "secret.svg" in str(caught.value)


def test_a_broken_data_url_is_a_failed_image_not_a_crash(tmp_path: Path) -> None:
    """WeasyPrint reads ``_fail_on_errors`` of a fetcher that raised something
    other than a refusal: a data: URL it cannot decode is reported as an image
    that failed to load, as before."""
    html = '<html><body><img src="data:image/png;base64,%%%"></body></html>'
    with pytest.raises(AssetError, match="Failed to load image"):
        render_inspected(html, Scope((tmp_path, OWN), DEFAULT_FONTS), "broken", None)


def test_the_fetcher_records_what_it_refuses(tmp_path: Path) -> None:
    load_weasyprint()
    from weasyprint.urls import FatalURLFetchingError

    refused: list[str] = []
    fetcher = guarded_fetcher([tmp_path.resolve()], refused)
    with pytest.raises(FatalURLFetchingError):
        fetcher.fetch("https://example.com/a.png")
    assert len(refused) == 1 and "example.com" in refused[0]


def test_files_of_one_type_share_one_read_only_set_of_headers(tmp_path: Path) -> None:
    """Two documents' fetchers answer a file with the same headers object
    (a mail message built and parsed per response: failed before), which
    refuses every change."""
    load_weasyprint()
    (tmp_path / "art.svg").write_text(_SVG)
    url = (tmp_path / "art.svg").resolve().as_uri()
    first = guarded_fetcher([tmp_path.resolve()], []).fetch(url)
    second = guarded_fetcher([tmp_path.resolve()], []).fetch(url)
    assert first.headers is second.headers  # type: ignore[attr-defined]
    assert second.content_type == "image/svg+xml"  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="read-only"):
        first.headers["Content-Type"] = "text/plain"  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="read-only"):
        first.headers.set_param("charset", "utf-8")  # type: ignore[attr-defined]
    assert second.content_type == "image/svg+xml" and second.charset is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("mime", ["image/svg+xml", "text/css", "font/ttf", "image/png", "application/octet-stream", "text/css; charset=latin-1"])
def test_the_shared_headers_answer_as_weasyprint_s_own_would(mime: str) -> None:
    """What WeasyPrint reads of a response (its content type, charset, headers)
    is what the response it builds from ``{"Content-Type": mime}`` says."""
    load_weasyprint()
    from weasyprint.urls import URLFetcherResponse

    from pnp.render.fetching import _headers

    ours = URLFetcherResponse("file:///x/a", b"data", _headers(mime))
    theirs = URLFetcherResponse("file:///x/a", b"data", {"Content-Type": mime})
    assert (ours.content_type, ours.charset, ours.headers.items(), ours.info().items()) == (
        theirs.content_type,
        theirs.charset,
        theirs.headers.items(),
        theirs.info().items(),
    )


def test_the_pages_are_those_headers_made_per_response_give(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.render import fetching

    scope = Scope((tmp_path, OWN), DEFAULT_FONTS)
    html = _page(tmp_path)
    with sheets.session():
        ours = [render_inspected(html, scope, "ours", None) for _ in range(2)]
    monkeypatch.setattr(fetching, "_headers", lambda mime: {"Content-Type": mime})
    with sheets.session():
        theirs = render_inspected(html, scope, "theirs", None)
    assert ours == [theirs, theirs]

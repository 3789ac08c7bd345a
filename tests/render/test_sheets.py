"""Stylesheets parsed once per session (pnp.render.sheets): a document laid out
inside a session, after any other documents, gives the very bytes it gives
alone; a stylesheet saved during a session is read again; what WeasyPrint
says while parsing is said for every document that shares the parse."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.paths import OWN
from pnp.render import sheets
from pnp.render.weasy import lay_out, load_weasyprint

FONTS = OWN / "fonts" / "ebgaramond"
REGULAR, ITALIC = FONTS / "EBGaramond12-Regular.ttf", FONTS / "EBGaramond12-Italic.ttf"


def _document(head: str, body: str) -> str:
    return f"<!DOCTYPE html><html><head><meta charset='utf-8'>{head}</head><body>{body}</body></html>"


def _font(file: Path, family: str = "Body") -> str:
    return f"<style>@font-face {{ font-family: '{family}'; src: url({file.as_uri()}); }} html {{ font-family: '{family}'; }}</style>"


def _pool(folder: Path) -> list[str]:
    """Documents that differ in what their stylesheets declare: one family
    name for two different font files, counter styles, cascade layers, page
    sizes, a linked stylesheet shared by some of them."""
    (folder / "a.css").write_text("p { color: #a01010; font-size: 14pt; } @page { size: 80mm 60mm; margin: 5mm; }")
    (folder / "b.css").write_text(
        "@counter-style thumbs { system: cyclic; symbols: 'x' 'y'; suffix: ' '; } ol { list-style: thumbs; }"
        "@layer base, top; @layer top { p { color: #1010a0; } } @layer base { p { color: #10a010; } }"
    )
    link_a, link_b = f"<link rel='stylesheet' href='{(folder / 'a.css').as_uri()}'>", f"<link rel='stylesheet' href='{(folder / 'b.css').as_uri()}'>"
    return [
        _document(_font(REGULAR) + link_a, "<p>Regular text, aligned</p>"),
        _document(_font(ITALIC) + link_a, "<p>Regular text, aligned</p>"),  # the same family, another file
        _document(_font(REGULAR) + link_b, "<ol><li>one</li><li>two</li></ol><p>layered</p>"),
        _document(_font(ITALIC) + link_a + link_b, "<ol><li>one</li></ol><p>both</p>"),
        _document(_font(REGULAR) + "<style>@page { size: 50mm 50mm; margin: 2mm; } p { color: #808000; }</style>", "<p>own page</p>"),
    ]


def _alone(html: str, folder: Path) -> bytes:
    return bytes(lay_out(html, folder.as_uri() + "/").write_pdf())


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], list[bytes]]:
    load_weasyprint()
    folder = tmp_path_factory.mktemp("sheets")
    documents = _pool(folder)
    return folder, documents, [_alone(html, folder) for html in documents]


@given(order=st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=7))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_a_document_in_a_session_gives_the_bytes_it_gives_alone(pool: tuple[Path, list[str], list[bytes]], order: list[int]) -> None:
    folder, documents, alone = pool
    with sheets.session():
        for index in order:
            data = bytes(lay_out(documents[index], folder.as_uri() + "/", None, [folder, OWN]).write_pdf())
            assert data == alone[index], f"document {index} after {order}"


def test_the_documents_of_the_pool_differ(pool: tuple[Path, list[str], list[bytes]]) -> None:
    """Otherwise the test above could not fail: another document's parse
    used by mistake would give the same bytes."""
    assert len(set(pool[2])) == len(pool[2])


def test_sessions_share_parses_and_drop_them_at_the_end(pool: tuple[Path, list[str], list[bytes]], monkeypatch: pytest.MonkeyPatch) -> None:
    folder, documents, _ = pool
    parsed: list[object] = []
    original = sheets._parse
    monkeypatch.setattr(sheets, "_parse", lambda page, floor: parsed.append(page) or original(page, floor))
    with sheets.session():
        for html in documents * 3:
            lay_out(html, folder.as_uri() + "/", None, [folder, OWN])
    assert len(parsed) == len(documents)
    with sheets.session():
        lay_out(documents[0], folder.as_uri() + "/", None, [folder, OWN])
    assert len(parsed) == len(documents) + 1
    lay_out(documents[0], folder.as_uri() + "/")  # outside a session: WeasyPrint's own way
    assert len(parsed) == len(documents) + 1


def test_a_stylesheet_saved_during_a_session_is_parsed_again(tmp_path: Path) -> None:
    """As in `pnp watch`: the session lasts, the designer saves the stylesheet."""
    css = tmp_path / "card.css"
    html = _document(_font(REGULAR) + f"<link rel='stylesheet' href='{css.as_uri()}'>", "<p>Colour</p>")
    with sheets.session():
        css.write_text("p { color: rgb(255, 0, 0); }")
        red = bytes(lay_out(html, tmp_path.as_uri() + "/", None, [tmp_path, OWN]).write_pdf())
        css.write_text("p { color: rgb(0, 0, 255); }")
        blue = bytes(lay_out(html, tmp_path.as_uri() + "/", None, [tmp_path, OWN]).write_pdf())
    assert red != blue
    assert blue == _alone(html, tmp_path)


def test_what_parsing_says_is_said_for_every_document_sharing_it(tmp_path: Path) -> None:
    css = tmp_path / "odd.css"
    css.write_text("p { colour-me: blue; }")
    html = _document(_font(REGULAR) + f"<link rel='stylesheet' href='{css.as_uri()}'>", "<p>x</p>")
    heard: list[str] = []

    class Ear(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            heard.append(record.getMessage())

    logger = logging.getLogger("weasyprint")
    ear = Ear(logging.WARNING)
    logger.addHandler(ear)
    previous = logger.level
    logger.setLevel(logging.WARNING)
    try:
        with sheets.session():
            for _ in range(3):
                lay_out(html, tmp_path.as_uri() + "/", None, [tmp_path, OWN])
    finally:
        logger.removeHandler(ear)
        logger.setLevel(previous)
    assert sum("colour-me" in message for message in heard) == 3, heard


def test_a_session_keeps_a_bounded_number_of_parses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sheets, "KEPT", 2)
    with sheets.session():
        for n in range(5):
            lay_out(_document(_font(REGULAR) + f"<style>p {{ margin: {n}mm; }}</style>", "<p>x</p>"), tmp_path.as_uri() + "/", None, [tmp_path, OWN])
        memo = sheets._MEMO.get()
        assert memo is not None and len(memo) == 2


def test_a_document_s_stylesheets_are_found_without_compiling_selectors(pool: tuple[Path, list[str], list[bytes]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The key of a document's stylesheets (its ``<style>`` and ``<link>``
    elements, in order) is read with selectors compiled once per process,
    not once per document: it is read for every document of faces."""
    import cssselect2.tree
    from weasyprint import HTML

    folder, documents, _ = pool
    pages = [HTML(string=html, base_url=folder.as_uri() + "/") for html in documents]
    first = [sheets._key(page, [folder, OWN]) for page in pages]
    compiled: list[object] = []
    original = cssselect2.tree.compile_selector_list
    monkeypatch.setattr(cssselect2.tree, "compile_selector_list", lambda *args: compiled.append(args) or original(*args))
    assert [sheets._key(page, [folder, OWN]) for page in pages] == first
    assert compiled == []
    assert [len([p for p in key if isinstance(p, tuple) and p[0] in ("style", "link")]) for key in first] == [2, 2, 2, 3, 2]


def test_a_document_s_stylesheets_are_found_without_wrapping_its_elements(pool: tuple[Path, list[str], list[bytes]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The key is read from the parsed tree: no cssselect2 wrapper is made
    for each element of the document (one per element: failed before)."""
    import cssselect2.tree
    from weasyprint import HTML

    folder, documents, _ = pool
    pages = [HTML(string=html, base_url=folder.as_uri() + "/") for html in documents]
    made: list[object] = []
    original = cssselect2.tree.ElementWrapper.__init__
    monkeypatch.setattr(cssselect2.tree.ElementWrapper, "__init__", lambda self, *args, **named: made.append(self) or original(self, *args, **named))
    keys = [sheets._key(page, [folder, OWN]) for page in pages]
    assert made == []
    assert [len([p for p in key if isinstance(p, tuple) and p[0] in ("style", "link")]) for key in keys] == [2, 2, 2, 3, 2]


def test_the_stylesheet_elements_are_those_weasyprint_s_search_finds() -> None:
    """The same elements, in the same order, as WeasyPrint's own search
    (cssselect2's ``query_all("style", "link")``): in head and body, inside
    an inline SVG (its own namespace), next to comments, in upper case."""
    from weasyprint import HTML

    body = (
        "<!-- <style>p { color: red }</style> --><STYLE>p { color: blue }</STYLE><p>text<link rel='stylesheet' href='x.css'></p>"
        "<svg xmlns='http://www.w3.org/2000/svg'><style>rect { fill: red }</style><!-- a --><rect width='2' height='2'/>"
        "<foreignObject><style>q { color: green }</style></foreignObject></svg><template><style>a { color: red }</style></template>"
        "<linkage></linkage><div><style media='print'>div { margin: 0 }</style></div>"
    )
    page = HTML(string=_document("<link rel=stylesheet href='a.css'><style>h1 { color: red }</style>", body))
    theirs = [wrapper.etree_element for wrapper in page.wrapper_element.query_all("style", "link")]
    ours = list(sheets.styles_and_links(page.etree_element))
    assert [id(element) for element in ours] == [id(element) for element in theirs]
    assert len(ours) >= 6

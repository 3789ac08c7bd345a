"""Margin boxes made only for pages that have some (pnp.render.margins): a
page of a card face makes none, and every document lays out to the very
bytes WeasyPrint's own margin-box layout gives."""

from __future__ import annotations

from pathlib import Path

import subprocess

import pytest

from pnp.render.scope import DEFAULT_FONTS
from pnp.render.weasy import lay_out, load_weasyprint
from tests.conftest import tool

_FONT = f"@font-face {{ font-family: 'EB Garamond'; src: url({DEFAULT_FONTS[0].file.as_uri()}) }} html {{ font-family: 'EB Garamond' }}"

DOCUMENTS = {
    "face": "@page { size: 63mm 88mm; margin: 0 }",
    "margins, no content": "@page { size: 80mm 60mm; margin: 8mm; @top-center { color: red; border: 1pt solid } }",
    "page numbers": "@page { size: 80mm 60mm; margin: 10mm; @bottom-right-corner { content: counter(page) } }",
    "running header, none on the first page": (
        "@page { size: 80mm 60mm; margin: 12mm 6mm; @top-left { content: string(title); background: #ddd }"
        " @top-right { content: 'pnp'; font-size: 7pt } @left-middle { content: 'side' } }"
        " @page :first { @top-left { content: none } @top-right { content: normal } } h1 { string-set: title content() }"
    ),
    "named pages, one with margin boxes": (
        "@page { size: 80mm 60mm; margin: 5mm } @page notes { margin: 10mm; @bottom-center { content: 'notes ' counter(page) } }"
        " .notes { page: notes }"
    ),
}
BODY = "<h1>Title</h1><p>One</p><div class='notes' style='break-before: page'><p>Two</p></div><p style='break-before: page'>Three</p>"


def _html(css: str) -> str:
    return f"<html><head><style>{_FONT} {css}</style></head><body>{BODY}</body></html>"


def _made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The at-keyword of every margin box WeasyPrint makes from now on."""
    from weasyprint.formatting_structure import boxes

    made: list[str] = []

    class Counted(boxes.MarginBox):  # type: ignore[misc, name-defined]
        def __init__(self, at_keyword: str, style: object) -> None:
            made.append(at_keyword)
            super().__init__(at_keyword, style)

    monkeypatch.setattr(boxes, "MarginBox", Counted)
    return made


def test_a_face_page_makes_no_margin_box(monkeypatch: pytest.MonkeyPatch) -> None:
    load_weasyprint()
    made = _made(monkeypatch)
    document = lay_out(_html(DOCUMENTS["face"]))
    assert len(document.pages) == 3
    assert made == []


def test_a_page_with_margin_content_still_makes_its_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    load_weasyprint()
    made = _made(monkeypatch)
    lay_out(_html(DOCUMENTS["page numbers"]))
    assert made.count("@bottom-right-corner") == 3


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_a_document_lays_out_to_the_bytes_weasyprint_s_own_margin_boxes_give(name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    weasyprint = load_weasyprint()
    html = _html(DOCUMENTS[name])
    ours = bytes(lay_out(html).write_pdf())
    monkeypatch.setattr(weasyprint.layout, "make_margin_boxes", weasyprint.layout.page.make_margin_boxes)
    theirs = bytes(lay_out(html).write_pdf())
    assert ours == theirs


def test_the_documents_differ_in_their_margin_boxes() -> None:
    """Otherwise the test above could not tell a margin box dropped."""
    load_weasyprint()
    pages = {name: bytes(lay_out(_html(css)).write_pdf()) for name, css in DOCUMENTS.items()}
    assert len(set(pages.values())) == len(pages)
    text = subprocess.run([tool("pdftotext"), "-", "-"], input=pages["running header, none on the first page"], capture_output=True, check=True)
    pages_text = text.stdout.decode().split("\f")
    assert "pnp" not in pages_text[0] and "side" in pages_text[0]
    assert all("pnp" in page and "Title" in page for page in pages_text[1:3])

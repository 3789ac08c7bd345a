"""Elements with the same style attribute share one computed style
(pnp.render.attributes): the cards of a run compute their template's styles
once, and every document lays out to the very bytes, and logs the very
messages, WeasyPrint's own cascade gives."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from pnp.render.boxtree import Box
from pnp.render.scope import DEFAULT_FONTS
from pnp.render.weasy import lay_out, load_weasyprint

_FONT = f"@font-face {{ font-family: 'EB Garamond'; src: url({DEFAULT_FONTS[0].file.as_uri()}) }} html {{ font-family: 'EB Garamond' }}"
_PAGE = "@page { size: 63mm 88mm; margin: 3mm }"

_CARD = (
    "<section style='break-after: page; position: relative; height: 80mm'>"
    "<div class='bleed' style='position: absolute; inset: 0; background: #fed'></div>"
    "<h1 style='font-size: 16pt; margin: 0 0 4mm'>{title}</h1><p style='font-size: 10pt; color: var(--ink)'>{text}</p>"
    "<span style='position: absolute; right: 0; bottom: 0; background: rgba(0, 0, 0, 0.2); padding: 0 1mm'>{title}</span></section>"
)
DOCUMENTS = {
    "cards of one template": "".join(_CARD.format(title=f"Card {n}", text=f"Gain {n}.") for n in range(4)),
    "the same style under other parents": (
        "<div style='font-size: 8pt'><p style='margin: 2mm'>small</p></div><div style='font-size: 14pt'><p style='margin: 2mm'>large</p>"
        "<p style='margin: 2mm' lang='de'>gro\u00df</p><p style='margin: 2mm' id='here'>anchor</p></div>"
    ),
    "lists, tables, generated content": (
        "<style>li::before { content: attr(data-n) ' ' } .x::after { content: '!' }</style>"
        "<ol><li style='color: #a00' data-n='a'>one</li><li style='color: #a00' data-n='b'>two</li>"
        "<li style='color: #a00; list-style: lower-roman' class='x' data-n='c'>three</li></ol>"
        "<table style='border-collapse: collapse'><tr><td style='border: 1pt solid; padding: 2mm'>1</td>"
        "<td style='border: 1pt solid; padding: 2mm'>2</td></tr></table>"
    ),
    "important, invalid and percentage declarations": (
        "<style>p { color: green !important }</style><div style='width: 40mm'><p style='color: red; width: 50%; background: #eee; bogus: 1'>a</p>"
        "<p style='color: red; width: 50%; background: #eee; bogus: 1'>b</p></div><p style='color: red; width: 50%; background: #eee; bogus: 1'>c</p>"
    ),
}


def _html(body: str) -> str:
    return f"<html><head><style>{_FONT} {_PAGE} :root {{ --ink: #245 }}</style></head><body>{body}</body></html>"


def _boxes(box: Box) -> Iterator[Box]:
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def test_elements_with_the_same_style_attribute_share_one_computed_style() -> None:
    load_weasyprint()
    document = lay_out(_html(DOCUMENTS["cards of one template"]))
    assert len(document.pages) == 4
    styles: dict[str, set[int]] = {}
    for page in document.pages:
        for box in _boxes(page._page_box):
            if type(box.style).__name__ == "ComputedStyle" and getattr(box, "element_tag", None) in ("section", "div", "h1", "p", "span"):
                styles.setdefault(box.element_tag, set()).add(id(box.style))
    assert {tag: len(found) for tag, found in styles.items()} == {"section": 1, "div": 1, "h1": 1, "p": 1, "span": 1}


def test_the_same_style_under_another_parent_or_with_its_own_lang_or_id_is_its_own() -> None:
    load_weasyprint()
    document = lay_out(_html(DOCUMENTS["the same style under other parents"]))
    paragraphs = [box for box in _boxes(document.pages[0]._page_box) if type(box.style).__name__ == "ComputedStyle" and getattr(box, "element_tag", None) == "p"]
    assert len(paragraphs) == 4
    assert len({id(box.style) for box in paragraphs}) == 4
    assert [box.style["font_size"] for box in paragraphs] == pytest.approx([8 * 4 / 3, 14 * 4 / 3, 14 * 4 / 3, 14 * 4 / 3])


def _laid_out(html: str, caplog: pytest.LogCaptureFixture) -> tuple[bytes, list[str]]:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        data = bytes(lay_out(html).write_pdf())
    return data, [record.getMessage() for record in caplog.records]


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_a_document_lays_out_to_the_bytes_and_messages_weasyprint_s_own_cascade_gives(
    name: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    weasyprint = load_weasyprint()
    html = _html(DOCUMENTS[name])
    ours = _laid_out(html, caplog)
    monkeypatch.setattr(weasyprint.css, "find_style_attributes", weasyprint.css.find_style_attributes.__wrapped__)
    theirs = _laid_out(html, caplog)
    assert ours == theirs


def test_the_documents_differ_in_what_their_style_attributes_say() -> None:
    """Otherwise the test above could not tell a style shared wrongly: each
    document's text is coloured, sized or placed by its style attributes."""
    load_weasyprint()
    plain = {name: bytes(lay_out(_html(body.replace(" style=", " data-style="))).write_pdf()) for name, body in DOCUMENTS.items()}
    styled = {name: bytes(lay_out(_html(body)).write_pdf()) for name, body in DOCUMENTS.items()}
    assert all(plain[name] != styled[name] for name in DOCUMENTS)


def test_each_style_attribute_text_is_parsed_once_per_document(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four cards of one template: each of their style attributes' texts is
    parsed once, not once an element (four times each: failed before)."""
    load_weasyprint()
    import re

    import tinycss2

    from pnp.render import attributes

    monkeypatch.setattr(_parser(), "memo", type(_parser().memo)())  # none parsed before
    body = DOCUMENTS["cards of one template"]
    texts = set(re.findall(r"style='([^']*)'", body))
    parsed: list[str] = []
    original = tinycss2.parse_blocks_contents
    monkeypatch.setattr(tinycss2, "parse_blocks_contents", lambda text, *rest, **named: parsed.append(text) or original(text, *rest, **named))
    lay_out(_html(body))
    assert sorted(text for text in parsed if isinstance(text, str) and text in texts) == sorted(texts)


def test_each_style_attribute_text_is_parsed_once_across_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two documents of one template (two runs of cards): each style
    attribute's text is parsed for the first only (for each: failed before)."""
    load_weasyprint()
    import re

    import tinycss2

    card = _CARD.replace("style='", "style='--across: 1; ")  # texts no other test lays out
    first, second = (card.format(title=f"Run {n}", text=f"Gain {n}.") * 2 for n in (1, 2))
    texts = set(re.findall(r"style='([^']*)'", first))
    parsed: list[str] = []
    original = tinycss2.parse_blocks_contents
    monkeypatch.setattr(tinycss2, "parse_blocks_contents", lambda text, *rest, **named: parsed.append(text) or original(text, *rest, **named))
    lay_out(_html(first))
    lay_out(_html(second))
    assert sorted(text for text in parsed if isinstance(text, str) and text in texts) == sorted(texts)


def test_documents_after_others_lay_out_as_weasyprint_s_own_cascade_lays_them_out(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Every document laid out twice after all the others (so each reads the
    parses another document made, warnings and all) gives the bytes and
    messages WeasyPrint's own function gives it, laid out alone."""
    weasyprint = load_weasyprint()
    htmls = [_html(body) for body in DOCUMENTS.values()]
    ours = [_laid_out(html, caplog) for html in htmls + htmls]
    monkeypatch.setattr(weasyprint.css, "find_style_attributes", weasyprint.css.find_style_attributes.__wrapped__)
    theirs = [_laid_out(html, caplog) for html in htmls]
    assert ours == theirs + theirs


def test_the_parses_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the :data:`pnp.render.attributes.KEPT` texts used last are kept,
    and a text dropped is parsed again, to the same pages."""
    load_weasyprint()
    from pnp.render import attributes

    parser = _parser()
    monkeypatch.setattr(parser, "memo", type(parser.memo)())
    monkeypatch.setattr(attributes, "KEPT", 2)
    html = _html(DOCUMENTS["cards of one template"])
    first = bytes(lay_out(html).write_pdf())
    assert len(parser.memo) == 2
    assert bytes(lay_out(html).write_pdf()) == first


def _parser() -> Any:
    """The parser :mod:`pnp.render.attributes` gave ``weasyprint.css`` (its memo)."""
    import weasyprint.css

    from pnp.render import attributes

    parser = weasyprint.css.tinycss2
    assert isinstance(parser, attributes._Parser), "pnp.render.attributes is installed"
    return parser

"""A picture drawn into its form in one document is given the same operators
in the next (pnp/render/artforms.py), and the next document's bytes are
those it has when the picture is drawn anew; drawings that name resources,
that WeasyPrint logged about or whose stylesheets hold an at-rule are drawn
in each document."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.render import artforms
from pnp.render.weasy import lay_out, load_weasyprint

PLAIN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10"><rect x="1" y="1" width="6" height="3" fill="#c03"/><circle cx="5" cy="7" r="2" stroke="#036" fill="none"/></svg>'
HALF = PLAIN.replace('fill="#c03"', 'fill="#c03" fill-opacity="0.5"')
SEE_THROUGH = PLAIN.replace('fill="#c03"', 'fill="#c03" opacity="0.5"')
AT_RULE = PLAIN.replace("<rect", "<style>@media print { rect { fill: #0a0 } }</style><rect")


def _page(folder: Path, svg: str, text: str, width: str = "12mm", name: str = "art.svg") -> str:
    (folder / name).write_text(svg)
    return (
        "<html><head><style>@page { size: 40mm 30mm; margin: 0 }</style></head><body>"
        f'<p>{text}</p><img src="{(folder / name).as_uri()}" style="width: {width}"><img src="{(folder / name).as_uri()}" style="width: {width}">'
        "</body></html>"
    )


def _pdf(html: str) -> bytes:
    with artforms.sharing():
        data = lay_out(html).write_pdf()
    assert isinstance(data, bytes)
    return data


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The widths of the pictures WeasyPrint drew, from an empty store of drawings."""
    load_weasyprint()
    monkeypatch.setattr(artforms, "_DRAWN", OrderedDict(), raising=False)  # raising: absent before the store
    original = artforms._ORIGINAL
    assert original is not None
    seen: list[float] = []

    def counted(image: object, stream: object, width: float, height: float, style: object) -> None:
        seen.append(width)
        original(image, stream, width, height, style)  # type: ignore[arg-type]

    monkeypatch.setattr(artforms, "_ORIGINAL", counted)
    return seen


def _anew(html: str) -> bytes:
    """``html``'s PDF with every picture drawn anew."""
    kept = OrderedDict(artforms._DRAWN)
    artforms._DRAWN.clear()
    try:
        return _pdf(html)
    finally:
        artforms._DRAWN.clear()
        artforms._DRAWN.update(kept)


@pytest.mark.parametrize("svg", [PLAIN, HALF], ids=["opaque", "half-transparent fill"])
def test_a_picture_is_drawn_once_for_several_documents_with_the_same_bytes(tmp_path: Path, draws: list[float], svg: str) -> None:
    """Drawn in the first document, given again in the second (drawn in
    each before: failed before), its opacity states made again; the second's
    bytes are those it has drawn anew."""
    _pdf(_page(tmp_path, svg, "one"))
    second = _page(tmp_path, svg, "two")
    given = _pdf(second)
    assert len(draws) == 1
    assert given == _anew(second)


def test_another_size_or_another_picture_is_drawn_anew(tmp_path: Path, draws: list[float]) -> None:
    _pdf(_page(tmp_path, PLAIN, "one"))
    bigger = _page(tmp_path, PLAIN, "two", width="20mm")
    other = _page(tmp_path, PLAIN.replace("#c03", "#3c0"), "three", name="other.svg")
    assert _pdf(bigger) == _anew(bigger)
    assert _pdf(other) == _anew(other)
    assert len(set(draws)) == 2 and len(draws) == 5  # two sizes; the new picture drawn twice itself (once with, once without the store)


@pytest.mark.parametrize("svg", [SEE_THROUGH, AT_RULE], ids=["names a resource", "at-rule"])
def test_a_drawing_that_may_differ_is_drawn_in_each_document(tmp_path: Path, draws: list[float], svg: str) -> None:
    _pdf(_page(tmp_path, svg, "one"))
    _pdf(_page(tmp_path, svg, "two"))
    assert len(draws) == 2
    assert artforms._DRAWN == {}


def test_a_drawing_weasyprint_logged_about_is_drawn_again_and_logged_again(
    tmp_path: Path, draws: list[float], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    drawing = artforms._ORIGINAL
    assert drawing is not None

    def noisy(image: object, stream: object, width: float, height: float, style: object) -> None:
        logging.getLogger("weasyprint").warning("something about this picture")
        drawing(image, stream, width, height, style)  # type: ignore[arg-type]

    monkeypatch.setattr(artforms, "_ORIGINAL", noisy)
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        _pdf(_page(tmp_path, PLAIN, "one"))
        _pdf(_page(tmp_path, PLAIN, "two"))
    assert len(draws) == 2
    assert [r.getMessage() for r in caplog.records].count("something about this picture") == 2


def test_the_store_keeps_the_latest_pictures(tmp_path: Path, draws: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(artforms, "_KEPT", 2)
    colours: Callable[[int], str] = lambda n: PLAIN.replace("#c03", f"#{n}{n}{n}")
    for n in range(3):
        _pdf(_page(tmp_path, colours(n), f"page {n}", name=f"art{n}.svg"))
    assert len(artforms._DRAWN) == 2
    assert all("#000" not in repr(key[0]) for key in artforms._DRAWN)  # the first, used least recently, dropped


def test_only_a_pictures_first_drawing_in_a_document_is_kept_or_given(tmp_path: Path, draws: list[float]) -> None:
    """A drawing may leave state in WeasyPrint's picture (kept once per
    document) for the next: the second size drawn in a document is neither
    kept nor given the first size's drawing from elsewhere."""
    (tmp_path / "art.svg").write_text(PLAIN)
    uri = (tmp_path / "art.svg").as_uri()
    both = "<html><head><style>@page {{ size: 40mm 30mm; margin: 0 }}</style></head><body>{}</body></html>"
    small, big = f'<img src="{uri}" style="width: 12mm">', f'<img src="{uri}" style="width: 20mm">'
    _pdf(both.format(small + big))
    assert len(draws) == 2 and len(artforms._DRAWN) == 1  # the small one, drawn first
    second = both.format(big + small)
    assert _pdf(second) == _anew(second)
    assert len(draws) == 2 + 2 + 2  # drawn both times: the big one first, then the small one after it

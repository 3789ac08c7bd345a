"""Imposing folds each face document's fonts in as it copies it (issue 41).

Every document WeasyPrint lays out embeds its own subset of each font;
copied whole, an imposition of thousands of faces would hold them all
until its fonts are merged at the end. :mod:`pnp.pdf.fold` keeps one
copy per font however many documents come, and the PDF comes out with
the same bytes as merging the whole PDF at the end makes. Counted, not timed.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pikepdf
import pytest

from pnp.commit import save_pdf
from pnp.imposition.geometry import Placement, Rect, Sheet
from pnp.model import Paper
from pnp.pdf.place import impose_pdf

PAPER = Paper("a4", "A4", 595.28, 841.89)
TEXTS = ("Quiet zebra/jumps", "Vexing fjords!/Hamburg 1234", "Lucky/dwarves")


@cache
def _document(text: str, faded: bool) -> bytes:
    """Two faces (one a page) in the floor font; ``faded`` ones draw their
    text inside a group (a form naming the page's fonts again)."""
    from pnp.render.fontconfig import FLOOR_FONT
    from pnp.render.weasy import lay_out

    garamond = FLOOR_FONT.parent / "ebgaramond" / "EBGaramond12-Regular.ttf"
    style = f"@font-face {{ font-family: G; src: url({garamond.as_uri()}); }} p {{ font: 30pt G; break-after: page }} @page {{ size: 180pt 252pt }}"
    opening = '<p style="opacity: .5">' if faded else "<p>"
    pages = "".join(f"{opening}{line}</p>" for line in text.split("/"))
    data = lay_out(f"<style>{style}</style>{pages}").write_pdf()
    assert isinstance(data, bytes)
    return data


def _deck(documents: int, faded: bool = False) -> tuple[list[tuple[bytes, list[str | None]]], list[Sheet]]:
    face_pdfs: list[tuple[bytes, list[str | None]]] = [
        (_document(TEXTS[n % len(TEXTS)], faded and n % 2 == 1), [f"d{n}-0", f"d{n}-1"]) for n in range(documents)
    ]
    faces = [key for _, keys in face_pdfs for key in keys if key is not None]
    slot = Rect(0, 0, 180, 252)
    sheets = [Sheet("deck", "front", n // 9 + 1, PAPER, tuple(Placement(f, slot, slot) for f in faces[n : n + 9]), ()) for n in range(0, len(faces), 9)]
    return face_pdfs, sheets


def _imposed(documents: int) -> pikepdf.Pdf:
    face_pdfs, sheets = _deck(documents)
    return impose_pdf(face_pdfs, None, sheets, "t")


def _font_files(pdf: pikepdf.Pdf) -> int:
    """Font files the PDF holds, written out or not."""
    return sum(isinstance(o, pikepdf.Stream) and "/Length1" in o for o in pdf.objects)


def test_an_imposition_holds_one_copy_of_each_font_however_many_documents() -> None:
    """Twice the documents, the same font files held: not one a document."""
    small, large = (_font_files(_imposed(documents)) for documents in (12, 24))
    assert small == large <= 2  # the first document's subset, and the merged file


@pytest.mark.parametrize("faded", [False, True])
def test_folded_fonts_make_the_same_bytes_as_merging_the_whole_pdf(faded: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With front matter, documents of different subsets, and (``faded``)
    groups naming the fonts again: byte for byte what the whole-PDF merges make."""
    from pnp.pdf import fold

    face_pdfs, sheets = _deck(7, faded)
    matter = _document("Rules", False)
    save_pdf(impose_pdf(face_pdfs, matter, sheets, "t"), tmp_path / "folded.pdf")

    def unfoldable(*_: object) -> None:
        raise fold.Unfoldable

    monkeypatch.setattr(fold.FontFold, "take", unfoldable)
    save_pdf(impose_pdf(face_pdfs, matter, sheets, "t"), tmp_path / "merged.pdf")
    assert (tmp_path / "folded.pdf").read_bytes() == (tmp_path / "merged.pdf").read_bytes()
    with pikepdf.open(tmp_path / "folded.pdf") as pdf:
        assert len({o.objgen for o in pdf.objects if isinstance(o, pikepdf.Stream) and "/Length1" in o}) == 1

"""Imposing many faces holds a few face documents at a time (issue 41).

A build of thousands of distinct faces imposes them from hundreds of
laid-out documents; each opened document costs far more memory than its
bytes (its parsed objects), so :func:`pnp.pdf.place.impose_pdf` opens each
when its first face is wanted and lets it go once its last one is copied.
Counted, not timed: how many face documents pnp still holds when it opens
the next, for a small and a large deck.
"""

from __future__ import annotations

import io
import sys
from typing import Any

import pikepdf
import pytest

from pnp.imposition.geometry import Placement, Rect, Sheet
from pnp.model import Paper
from pnp.pdf.place import impose_pdf

PAPER = Paper("a4", "A4", 595.28, 841.89)
PER_DOCUMENT = 4
"""Faces laid out per document, as a build's runs hold a few each."""


def _documents(count: int) -> list[tuple[bytes, list[str | None]]]:
    """``count`` documents of :data:`PER_DOCUMENT` distinct card faces each."""
    made = []
    for n in range(count):
        pdf = pikepdf.new()
        keys: list[str | None] = []
        for i in range(PER_DOCUMENT):
            page = pdf.add_blank_page(page_size=(180, 252))
            page.Contents = pdf.make_stream(f"0 0 1 rg {n % 90} {i * 9} 20 20 re f".encode())
            keys.append(f"face-{n}-{i}")
        data = io.BytesIO()
        pdf.save(data)
        made.append((data.getvalue(), keys))
    return made


def _sheets(documents: list[tuple[bytes, list[str | None]]]) -> list[Sheet]:
    """Nine faces a sheet, in the order they were laid out, then one sheet of backs
    drawing the first document's first face (a back shared by every card)."""
    faces = [key for _, keys in documents for key in keys if key is not None]
    slot = Rect(0, 0, 180, 252)
    sheets = [
        Sheet("deck", "front", n // 9 + 1, PAPER, tuple(Placement(face, slot, slot) for face in faces[n : n + 9]), ())
        for n in range(0, len(faces), 9)
    ]
    return sheets + [Sheet("deck", "back", 1, PAPER, (Placement(faces[0], slot, slot),), ())]


def _most_held(monkeypatch: pytest.MonkeyPatch, documents: int) -> int:
    """The most face documents pnp held open at once while imposing them."""
    opened: list[pikepdf.Pdf] = []
    most = 0
    real_open = pikepdf.open

    def counting_open(*args: Any, **kwargs: Any) -> pikepdf.Pdf:
        nonlocal most
        pdf = real_open(*args, **kwargs)
        opened.append(pdf)
        # Referred to by this list, the loop and getrefcount alone: pnp let it go
        # (``pdf``, the one just opened, is counted as held).
        most = max(most, sum(sys.getrefcount(held) > 3 for held in opened))
        return pdf

    face_pdfs = _documents(documents)
    sheets = _sheets(face_pdfs)
    with monkeypatch.context() as patched:
        patched.setattr(pikepdf, "open", counting_open)
        out = impose_pdf(face_pdfs, None, sheets, "many faces")
    assert len(out.pages) == len(sheets)
    return most


def test_imposing_holds_a_bounded_number_of_face_documents_whatever_the_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = _most_held(monkeypatch, 25), _most_held(monkeypatch, 100)
    assert large == small
    assert large <= 2  # the document just opened, and the last one copied from until its form is

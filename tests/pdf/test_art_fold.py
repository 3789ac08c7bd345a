"""Imposing keeps each picture once as it copies each face document in (issue 41).

Every face document holds its own copy of each picture its faces show (an
SVG picture's form, an image); copied whole, an imposition of thousands
of faces held every copy until :func:`pnp.pdf.shared.share_xobjects` merged
them at the end. :class:`pnp.pdf.shared.ArtFold` keeps one copy per picture
however many documents come, and every page draws what merging at the end
makes it draw. Counted, not timed.
"""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import pikepdf
import pytest

from pnp.commit import save_pdf
from pnp.imposition.geometry import Placement, Rect, Sheet
from pnp.model import Paper
from pnp.pdf import shared
from pnp.pdf.place import impose_pdf

PAPER = Paper("a4", "A4", 595.28, 841.89)
SLOT = Rect(0, 0, 180, 252)


def _document(n: int) -> bytes:
    """Three faces sharing one resources dictionary, as WeasyPrint writes
    them: an icon (a form whose resources share the page's colour spaces),
    a picture (an image with a soft mask) and, on every fourth document, a
    picture of its own; each face draws its number too."""
    pdf = pikepdf.new()
    spaces = pdf.make_indirect(pikepdf.Dictionary({"/lab": pikepdf.Array([pikepdf.Name.Lab, pikepdf.Dictionary(WhitePoint=[0.95, 1, 1.09])])}))
    icon = pdf.make_stream(zlib.compress(b"0 0 1 rg 0 0 10 10 re f"), Filter=pikepdf.Name.FlateDecode)
    icon.Type, icon.Subtype, icon.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 10, 10]
    icon.Resources = pdf.make_indirect(pikepdf.Dictionary(ColorSpace=spaces))
    mask = pdf.make_stream(bytes(range(16)), Width=4, Height=4, BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceGray)
    image = pdf.make_stream(bytes(48), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=4, Height=4, BitsPerComponent=8,
                            ColorSpace=pikepdf.Name.DeviceRGB, SMask=mask)
    xobjects = {"/Icon": icon, "/Photo": image}
    if n % 4 == 0:
        xobjects["/Own"] = pdf.make_stream(bytes([n % 256]) * 3, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=1, Height=1,
                                           BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceRGB)
    resources = pdf.make_indirect(pikepdf.Dictionary(ColorSpace=spaces, XObject=pikepdf.Dictionary(xobjects)))
    for i in range(3):
        page = pdf.add_blank_page(page_size=(180, 252))
        own = " q 9 0 0 9 40 40 cm /Own Do Q" if n % 4 == 0 else ""
        page.Contents = pdf.make_stream(f"q 20 0 0 20 {i * 30} {n % 50} cm /Photo Do Q q 1 0 0 1 {n % 70} 90 cm /Icon Do Q{own}".encode())
        page.Resources = resources
    data = io.BytesIO()
    pdf.save(data)
    return data.getvalue()


def _deck(documents: int) -> tuple[list[tuple[bytes, list[str | None]]], list[Sheet]]:
    face_pdfs: list[tuple[bytes, list[str | None]]] = [(_document(n), [f"d{n}-{i}" for i in range(3)]) for n in range(documents)]
    faces = [key for _, keys in face_pdfs for key in keys if key is not None]
    sheets = [Sheet("deck", "front", n // 9 + 1, PAPER, tuple(Placement(f, SLOT, SLOT) for f in faces[n : n + 9]), ()) for n in range(0, len(faces), 9)]
    # A sheet of backs: the first face of every fifth document again, each placed twice (kept as forms).
    backs = tuple(Placement(f"d{n}-0", SLOT, SLOT) for n in range(0, documents, 5) for _ in range(2))
    return face_pdfs, [*sheets, Sheet("deck", "back", 1, PAPER, backs, ())]


def _imposed(documents: int) -> pikepdf.Pdf:
    face_pdfs, sheets = _deck(documents)
    return impose_pdf(face_pdfs, None, sheets, "t")


def _pictures(pdf: pikepdf.Pdf) -> int:
    """Copies of the shared icon and photo the PDF holds, written out or not."""
    return sum(isinstance(o, pikepdf.Stream) and (o.get("/BBox") == [0, 0, 10, 10] or o.get("/Width") == 4) for o in pdf.objects)


def test_an_imposition_holds_one_copy_of_each_picture_however_many_documents() -> None:
    """Twice the documents, the same pictures held: not a copy a document."""
    small, large = (_pictures(_imposed(documents)) for documents in (12, 24))
    assert small == large <= 3  # the icon, the photo and its mask


def _drawn(path: Path) -> list[bytes]:
    """What each page draws: its content and everything its resources hold,
    whatever their object numbers (:func:`pnp.pdf.shared._digest`)."""
    with pikepdf.open(path) as pdf:
        return [page.obj.Contents.read_bytes() + shared._digest(page.obj.Resources, {}) for page in pdf.pages]


def test_pictures_kept_as_documents_come_draw_every_page_as_merging_the_whole_pdf(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    face_pdfs, sheets = _deck(13)
    save_pdf(impose_pdf(face_pdfs, None, sheets, "t"), tmp_path / "folded.pdf")
    monkeypatch.setattr(shared.ArtFold, "take", lambda self, resources: [{} for _ in resources])
    save_pdf(impose_pdf(face_pdfs, None, sheets, "t"), tmp_path / "merged.pdf")
    assert _drawn(tmp_path / "folded.pdf") == _drawn(tmp_path / "merged.pdf")
    with pikepdf.open(tmp_path / "folded.pdf") as pdf:
        assert _pictures(pdf) == 3

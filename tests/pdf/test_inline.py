"""A face placed once is drawn straight into its sheet's content stream
(issue 41: faces compress together), and draws and reads exactly as its
form did: the same sheet imposed with every face placed a second time
(so each keeps its form) renders to the same pixels (poppler) and text."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pikepdf

from pnp.commit import save_pdf
from pnp.imposition.geometry import Placement, Rect, Sheet
from pnp.model import Paper
from pnp.pdf.place import impose_pdf
from tests.pdftools import pdftotext, qpdf_check, tool

PAPER = Paper("a4", "A4", 595.28, 841.89)
W, H = 170.0, 226.0
"""A face's page, in points."""


def _document(faces: list[str]) -> bytes:
    """One WeasyPrint document, a page per face (HTML of its body)."""
    from pnp.render.fontconfig import FLOOR_FONT
    from pnp.render.weasy import lay_out

    garamond = FLOOR_FONT.parent / "ebgaramond" / "EBGaramond12-Regular.ttf"
    style = (
        f"@font-face {{ font-family: G; src: url({garamond.as_uri()}); }} @page {{ size: {W}pt {H}pt; margin: 0 }}"
        " section { font: 20pt G; height: 100%; break-after: page; padding: 10pt; box-sizing: border-box }"
        " .box { width: 60pt; height: 40pt; opacity: 0.5 }"
    )
    data = lay_out(f"<style>{style}</style>" + "".join(f"<section>{face}</section>" for face in faces)).write_pdf()
    assert isinstance(data, bytes)
    return data


def _documents() -> list[tuple[bytes, list[str | None]]]:
    """Two documents whose faces name different things alike: each
    document's first translucent box is its group ``x0``, red in one, blue in the other."""
    first = _document(["Alpha<div class=box style='background: #c00'></div>", "Beta<div class=box style='background: #0a0'></div>"])
    second = _document(["Gamma<div class=box style='background: #00c'></div>", "Delta<div style='height: 50pt; background: linear-gradient(#c00, #00c)'></div>"])
    return [(first, ["alpha", "beta"]), (second, ["gamma", "delta"])]


def _sheet(number: int, rotated: bool = False) -> Sheet:
    slots = [Rect(30 + 280 * (n % 2), 420 - 380 * (n // 2), W - 10, H - 10) for n in range(4)]
    placements = tuple(
        Placement(face, slot, slot, 90 if rotated and n == 3 else 0) for n, (face, slot) in enumerate(zip(("alpha", "beta", "gamma", "delta"), slots))
    )
    return Sheet("deck", "front", number, PAPER, placements, ())


def _impose(tmp_path: Path, name: str, sheets: list[Sheet]) -> Path:
    path = tmp_path / f"{name}.pdf"
    save_pdf(impose_pdf(_documents(), None, sheets, name), path)
    return path


def _pixels(pdf: Path, page: int) -> bytes:
    done = subprocess.run([tool("pdftoppm"), "-r", "100", "-f", str(page), "-l", str(page), str(pdf)], capture_output=True, check=True)
    return done.stdout


def test_a_face_placed_once_is_drawn_in_its_sheets_stream_as_its_form_drew_it(tmp_path: Path) -> None:
    once = _impose(tmp_path, "once", [_sheet(1)])
    twice = _impose(tmp_path, "twice", [_sheet(1), _sheet(2)])  # every face placed twice: each keeps its form
    with pikepdf.open(once) as pdf:
        page = pdf.pages[0]
        kinds = {str(name): str(x.Subtype) for name, x in page.Resources.XObject.items()}
        faces = [name for name, x in page.Resources.XObject.items() if x.get("/BBox") == [0, 0, W, H]]
        assert len(faces) == 1  # the face painting a gradient (a pattern, reckoned from its form's space) keeps its form
        assert {"/x0", "/x0_1"} <= set(kinds)  # both documents' x0, told apart
        assert len(page.Resources.Font) >= 1
    with pikepdf.open(twice) as pdf:
        assert len({x.objgen for x in pdf.pages[0].Resources.XObject.values()}) == 4
    assert _pixels(once, 1) == _pixels(twice, 1)
    assert pdftotext(once) == pdftotext(twice, 1, 1)
    swapped = _sheet(1)
    swapped = Sheet("deck", "front", 1, PAPER, tuple(Placement(p.face, q.slot, q.clip) for p, q in zip(swapped.placements, swapped.placements[::-1])), ())
    assert _pixels(_impose(tmp_path, "swapped", [swapped]), 1) != _pixels(once, 1)  # the comparison sees where each face is
    for text in ("Alpha", "Beta", "Gamma", "Delta"):
        assert text in pdftotext(once)
    checked = qpdf_check(once)
    assert checked.returncode == 0, checked.stdout


def test_a_face_turned_or_clipped_past_its_box_draws_as_its_form_did(tmp_path: Path) -> None:
    """A quarter turn, and a slot's clip reaching past the face's box (the
    form clipped to its box; in place, the box is clipped to as well)."""
    wide = _sheet(1, rotated=True)
    wide = Sheet("deck", "front", 1, PAPER, tuple(Placement(p.face, p.slot, Rect(p.clip.x - 20, p.clip.y - 20, p.clip.width + 40, p.clip.height + 40), p.rotation) for p in wide.placements), ())
    again = Sheet("deck", "front", 2, PAPER, wide.placements, ())
    once, twice = _impose(tmp_path, "once", [wide]), _impose(tmp_path, "twice", [wide, again])
    assert _pixels(once, 1) == _pixels(twice, 1)
    assert pdftotext(once) == pdftotext(twice, 1, 1)
    with pikepdf.open(once) as pdf:
        assert pdf.pages[0].Contents.read_bytes().count(f"0 0 {W:g} {H:g} re W n".encode()) == 3  # the faces drawn in place

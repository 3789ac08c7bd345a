"""Rulebooks as saddle-stitched booklets and reader's spreads (issue 42)."""

from __future__ import annotations

import math
from pathlib import Path

import pikepdf
import pytest

from pnp.imposition.booklet import padded, printer_spreads, reader_spreads, sheet_plan
from pnp.units import mm, to_mm
from tests.conftest import run_pnp
from tests.pdftools import prose, prose_in


def _folded(sides: list[tuple[int | None, int | None]]) -> list[int | None]:
    """The pages in reading order of the printed sheets stacked in print order
    (the first sheet outermost) and folded in half together: down the right
    halves of the outsides and left halves of the insides to the centre, then
    back out along the insides' right halves and the outsides' left halves."""
    sheets = [(sides[i], sides[i + 1]) for i in range(0, len(sides), 2)]
    reading: list[int | None] = []
    for outside, inside in sheets:
        reading += [outside[1], inside[0]]
    for outside, inside in reversed(sheets):
        reading += [inside[1], outside[0]]
    return reading


@pytest.mark.parametrize(("pages", "expected"), [
    (4, [(4, 1), (2, 3)]),
    (8, [(8, 1), (2, 7), (6, 3), (4, 5)]),
    (12, [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]),
    (5, [(None, 1), (2, None), (None, 3), (4, 5)]),
    (7, [(None, 1), (2, 7), (6, 3), (4, 5)]),
    (1, [(None, 1), (None, None)]),
    (3, [(None, 1), (2, 3)]),
])
def test_printer_spreads_put_each_page_where_the_folded_stack_reads_it(pages: int, expected: list[tuple[int | None, int | None]]) -> None:
    sides = printer_spreads(pages)
    assert sides == expected
    assert len(sides) == padded(pages) // 2
    total = padded(pages)
    assert _folded(sides) == [p if p <= pages else None for p in range(1, total + 1)]  # blanks only at the end


@pytest.mark.parametrize("pages", range(1, 30))
def test_every_page_is_printed_once_and_the_padding_is_less_than_a_sheet(pages: int) -> None:
    printed = [p for side in printer_spreads(pages) for p in side]
    assert sorted(p for p in printed if p is not None) == list(range(1, pages + 1))
    assert padded(pages) % 4 == 0 and 0 <= padded(pages) - pages < 4


def test_reader_spreads_open_on_page_one_alone() -> None:
    assert reader_spreads(1) == [(None, 1)]
    assert reader_spreads(4) == [(None, 1), (2, 3), (4, None)]
    assert reader_spreads(5) == [(None, 1), (2, 3), (4, 5)]


def test_a_page_is_scaled_to_half_the_landscape_sheet_and_centred() -> None:
    a4 = sheet_plan(mm(210), mm(297), mm(210), mm(297))
    assert (round(to_mm(a4.width), 3), round(to_mm(a4.height), 3)) == (297, 210)
    assert a4.scale == pytest.approx(1 / math.sqrt(2), abs=1e-3)  # A4 to A5
    assert to_mm(a4.left.x) == pytest.approx(0, abs=0.01) and to_mm(a4.right.x) == pytest.approx(148.5, abs=0.01)
    letter = sheet_plan(mm(215.9), mm(279.4), mm(215.9), mm(279.4))
    assert letter.scale == pytest.approx(139.7 / 215.9, abs=1e-4)  # the page's width fits half Letter's 139.7 mm
    # centred in each half: equal space left and right of the page within its half
    gap = to_mm(letter.left.x)
    assert to_mm(letter.width / 2 - letter.left.right) == pytest.approx(gap, abs=0.01)
    assert to_mm(letter.right.x - letter.width / 2) == pytest.approx(gap, abs=0.01)
    assert to_mm(letter.left.y) == pytest.approx(to_mm(letter.height - letter.left.top), abs=0.01)


BOOK = '{% for i in range(1, 6) %}<p style="{{ "break-before: page" if i > 1 else "" }}">Page{{ i }}marker</p>{% endfor %}\n'


def test_a_booklet_document_prints_imposed_duplex_short_edge_with_marks(tmp_path: Path, mini_copy: Path) -> None:
    (mini_copy / "templates" / "book.html").write_text(BOOK)
    text = (mini_copy / "game.yaml").read_text()
    (mini_copy / "game.yaml").write_text(text + "\ndocuments:\n  - {id: book, name: Book, template: book.html}\n")
    plain = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "plain"), "--paper", "a4", "--no-stamp")
    assert plain.returncode == 0, plain.stderr
    (mini_copy / "game.yaml").write_text(text + "\ndocuments:\n  - {id: book, name: Book, template: book.html, booklet: true}\n")
    built = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "a4", "--no-stamp")
    assert built.returncode == 0, built.stderr
    out = tmp_path / "out" / "mini"
    # The document itself is untouched by asking for a booklet.
    assert (out / "mini-book-a4.pdf").read_bytes() == (tmp_path / "plain" / "mini" / "mini-book-a4.pdf").read_bytes()
    booklet = out / "mini-book-booklet-a4.pdf"
    with pikepdf.open(booklet) as pdf:
        assert len(pdf.pages) == 4  # 5 pages padded to 8: two sheets, both sides
        assert pdf.Root.ViewerPreferences.Duplex == pikepdf.Name.DuplexFlipShortEdge
        for page in pdf.pages:
            box = [round(to_mm(float(v)), 1) for v in page.mediabox]
            assert box == [0, 0, 297, 210]
        strokes = [len([op for _, op in pikepdf.parse_content_stream(page) if str(op) == "m"]) for page in pdf.pages]
    assert strokes == [6, 2, 2, 2]  # fold marks on every side; the staple marks on the outside of the first sheet
    half = mm(297) / 2
    found = [(prose_in(booklet, n, 0, half), prose_in(booklet, n, half, 2 * half)) for n in range(1, 5)]
    assert found == [("", "Page1marker"), ("Page2marker", ""), ("", "Page3marker"), ("Page4marker", "Page5marker")]
    with pikepdf.open(out / "mini-book-spreads-a4.pdf") as pdf:
        sizes = [[round(to_mm(float(v))) for v in page.mediabox[2:]] for page in pdf.pages]
    assert sizes == [[210, 297], [420, 297], [420, 297]]
    spreads = out / "mini-book-spreads-a4.pdf"
    assert prose_in(spreads, 2, 0, mm(210)) == "Page2marker" and prose_in(spreads, 2, mm(210), mm(420)) == "Page3marker"
    assert "mini-book-booklet-a4.pdf" in built.stdout and "mini-book-spreads-a4.pdf" in built.stdout


def test_the_instructions_page_tells_how_to_print_and_fold_a_booklet(tmp_path: Path, mini_copy: Path) -> None:
    (mini_copy / "templates" / "book.html").write_text(BOOK)
    text = (mini_copy / "game.yaml").read_text()
    (mini_copy / "game.yaml").write_text(
        text + "\ndocuments:\n  - {id: book, name: Book, template: book.html, booklet: true}\n"
        "  - {id: notes, name: Notes, template: book.html}\n"
    )
    built = run_pnp("build", str(mini_copy), "--out", str(tmp_path), "--paper", "a4", "--no-stamp")
    assert built.returncode == 0, built.stderr
    page = prose(tmp_path / "mini" / "mini-home-a4.pdf", 1, 1)
    assert (
        "Book as a booklet instead: print mini-book-booklet-a4.pdf double-sided, flipping on the short edge "
        "(some printers call it binding on the short edge), at 100 %. Keep the sheets in order, fold the stack in half "
        "along the fold marks with the first sheet outside, and staple twice through the fold at the staple marks."
    ) in page
    assert "Notes as a booklet" not in page and (tmp_path / "mini" / "mini-book-booklet-a4.pdf").is_file()

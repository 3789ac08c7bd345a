"""Text and marks nearer a paper edge than the printer prints, found on
imposed sheets as numbers (pnp.output.home.printable), on synthetic sheets: the
shipped layouts are not needed to violate it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pnp.output.home.printable import FaceText, edge_diagnostics, face_text, near_edge, sheet_edges
from pnp.imposition.geometry import Circle, Line, Placement, Rect, Sheet
from pnp.model import Paper
from pnp.paths import OWN
from pnp.pdf.place import impose_pdf
from pnp.render.weasy import lay_out
from pnp.units import mm, to_mm
from tests.conftest import tool

A4 = Paper("a4", "A4", mm(210), mm(297))
MARGIN = mm(5)
FONT = OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf"
FACE = FaceText((9, 9, 191, 261), ((12, 100, 60, 110),))
"""A 182 x 252 pt face with 9 pt of bleed and one run of text 3 pt inside its trim's left edge."""


def _sheet(*placements: Placement, marks: tuple[Line, ...] = (), guides: tuple[Circle, ...] = ()) -> Sheet:
    return Sheet("cards", "front", 1, A4, placements, marks, guides)


def _placed(x: float, y: float, rotation: int = 0, shown: float = 0.0) -> Placement:
    width, height = (182, 252) if rotation == 0 else (252, 182)
    slot = Rect(x, y, width, height)
    return Placement("f", slot, Rect(x - shown, y - shown, width + 2 * shown, height + 2 * shown), rotation)


def test_text_of_a_card_near_the_left_edge_is_found_where_the_card_is_placed() -> None:
    # Trim centre (100, 135) onto the slot's (10 + 91, 300 + 126): the text moves by (1, 291).
    [found] = sheet_edges([_sheet(_placed(10, 300))], {"f": FACE}, MARGIN)
    assert (found.what, found.face, found.side) == ("text", "f", "left")
    assert found.distance == pytest.approx(13)  # 12 + 1 pt: 4.6 mm
    assert sheet_edges([_sheet(_placed(12, 300))], {"f": FACE}, MARGIN) == []  # 15 pt: 5.3 mm


def test_a_turned_card_carries_its_text_to_another_edge() -> None:
    # A quarter turn: x' = -y + tx, y' = x + ty, so the text's left edge (x 12) lands 12 + ty from the bottom.
    # ty = 0 + 91 - 100: the text's 12..60 pt across become 3..51 pt up.
    [found] = sheet_edges([_sheet(_placed(100, 0, 90))], {"f": FACE}, MARGIN)
    assert (found.side, found.distance) == ("bottom", pytest.approx(3))
    # Turned the other way (x' = y + tx, y' = -x + ty) in a slot touching the top, the same text comes 3 pt from the top.
    [found] = sheet_edges([_sheet(_placed(100, A4.height - 182, -90))], {"f": FACE}, MARGIN)
    assert (found.side, found.distance) == ("top", pytest.approx(3))


def test_text_the_slot_does_not_show_is_not_counted() -> None:
    bled = FaceText((9, 9, 191, 261), ((1, 100, 8, 110),))  # in the bleed, left of the trim
    assert sheet_edges([_sheet(_placed(10, 300))], {"f": bled}, MARGIN) == []
    [found] = sheet_edges([_sheet(_placed(10, 300, shown=9))], {"f": bled}, MARGIN)  # the gap shows the bleed
    assert found.distance == pytest.approx(2)


def test_marks_circles_and_fold_lines_near_an_edge_are_found_once_per_sheet() -> None:
    marks = (
        Line(100, 5, 100, 20, 0.5),  # 5 pt from the bottom (marks end square at their end points)
        Line(100, MARGIN, 100, 60, 0.5),  # ends just at the margin: fine
        Line(mm(205), 400, mm(205) + 20, 400, 0.5),  # 20 pt to the right of a point 5 mm from the edge: past it
        Line(A4.width / 2, 0, A4.width / 2, A4.height, 0.5, dashed=True),
    )
    guides = (Circle(300, 300, 20, 0.35), Circle(30, 300, 20, 0.35))
    found = {f.what: f for f in sheet_edges([_sheet(marks=marks, guides=guides)], {}, MARGIN)}
    assert sorted(found) == ["crop marks", "cutting circles", "the fold line"]
    assert (found["crop marks"].side, found["crop marks"].distance) == ("right", pytest.approx(mm(5) - 20))  # the nearest of them
    assert found["the fold line"].distance == pytest.approx(0)
    assert (found["cutting circles"].side, found["cutting circles"].distance) == ("left", pytest.approx(30 - 20 - 0.175))
    assert "comes 0.0 mm from the bottom edge" in found["the fold line"].message(MARGIN)
    # A mark 5 mm from the edge, half its weight wider on either side, is still inside.
    assert sheet_edges([_sheet(marks=(Line(MARGIN, 300, MARGIN + 20, 300, 0.5), Line(300, MARGIN, 300, MARGIN + 10, 0.5)))], {}, MARGIN) == []


def test_findings_become_one_diagnostic_per_card_and_kind_with_every_page(tmp_path: Path) -> None:
    from pnp.errors import Level, Source

    sheets = [_sheet(_placed(10, 300), marks=(Line(100, 5, 100, 20, 0.5),)) for _ in range(3)]
    card = Source(tmp_path / "cards.yaml", 4, 5)
    out = edge_diagnostics(tmp_path / "x-home-a4.pdf", None, sheets, {"f": FACE}, {"f": ("cards/one front", card)}, MARGIN, False)
    assert [str(d).replace(str(tmp_path) + "/", "") for d in out] == [
        "x-home-a4.pdf: warning: pages 1, 2, 3: crop marks come 1.8 mm from the bottom edge of the paper; "
        "home printers print nothing nearer the edge than 5 mm",
        "cards.yaml:4:5: warning: cards/one front: on x-home-a4.pdf pages 1, 2, 3, text comes 4.6 mm from the left edge of the paper; "
        "home printers print nothing nearer the edge than 5 mm",
    ]
    assert all(d.level is Level.WARNING for d in out)
    strict = edge_diagnostics(tmp_path / "x.pdf", None, sheets, {"f": FACE}, {"f": ("cards/one front", card)}, MARGIN, True)
    assert [d.level for d in strict] == [Level.ERROR, Level.ERROR]


@pytest.mark.parametrize(("rotation", "side"), [(0, "left"), (90, "bottom"), (-90, "top")])
def test_the_text_found_is_where_the_sheet_prints_it(rotation: int, side: str, tmp_path: Path) -> None:
    """The check's geometry against a real imposed sheet, read by pdftotext."""
    html = f"""<style>@font-face {{ font-family: T; src: url({FONT.as_uri()}); }}
    @page {{ size: 63.5mm 88.9mm; margin: 0; bleed: 3mm; }} body {{ margin: 0; font: 10pt T; }}
    p {{ position: absolute; margin: 0; left: 1mm; top: 30mm; }}</style><p>Edgeword</p>"""
    face_pdf = lay_out(html).write_pdf()
    text = face_text([(face_pdf, ["f"])])
    width, height = (mm(63.5), mm(88.9)) if rotation == 0 else (mm(88.9), mm(63.5))
    # The trim 2 mm from the edge the face's left edge turns to: its text 1 mm inside it.
    x = mm(2) if rotation == 0 else mm(60)
    y = {0: mm(120), 90: mm(2), -90: A4.height - mm(2) - height}[rotation]
    slot = Rect(x, y, width, height)
    sheet = _sheet(Placement("f", slot, slot, rotation))
    [found] = sheet_edges([sheet], text, MARGIN)
    pdf = tmp_path / "sheet.pdf"
    impose_pdf([(face_pdf, ["f"])], None, [sheet], "t").save(pdf)
    words = subprocess.run([tool("pdftotext"), "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    [(x0, y0, x1, y1)] = [
        tuple(float(v) for v in m) for m in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">Edgeword<', words)
    ]
    # pdftotext measures from the top; the word box is the font's, a little taller than the glyphs.
    printed = {"left": x0, "right": A4.width - x1, "top": y0, "bottom": A4.height - y1}
    nearest = min(printed, key=printed.__getitem__)
    assert found.side == nearest == side
    assert found.distance == pytest.approx(printed[nearest], abs=1.5)
    assert to_mm(found.distance) == pytest.approx(3, abs=0.5)


def test_only_faces_shown_near_an_edge_have_their_text_read() -> None:
    """A face whose shown area (its clip, bleed included) stays the margin away
    from every edge cannot put text there, so the check reads only the others."""
    inside = Placement("inside", Rect(mm(10), mm(10), 182, 252), Rect(mm(5), mm(5), 182 + mm(10), 252 + mm(10)))
    bleeding = Placement("bleeding", Rect(mm(10), mm(150), 182, 252), Rect(mm(4.9), mm(150), 182 + mm(5.1), 252))
    top = Placement("top", Rect(mm(120), A4.height - 252 - mm(6), 182, 252), Rect(mm(120), A4.height - 252 - mm(6), 182, 252 + mm(1.5)))
    assert near_edge([_sheet(inside, bleeding, top)], MARGIN) == {"bleeding", "top"}
    assert near_edge([_sheet(inside)], MARGIN) == set()

"""Text and marks inside what a home printer can print: none nearer a sheet's
edge than the profile's ``printable_margin``.

Home printers leave a strip along every edge of the paper blank (about 5 mm
on most), so a word or a crop mark placed there is lost. :func:`face_text`
reads where each laid-out face's words are drawn (with PDFium, from the face
pages themselves); :func:`sheet_edges` carries them, with each sheet's marks
and cutting circles, onto the imposed sheets as numbers, before anything is
written; :func:`page_edges` does the same for pages printed as they are (the
printing instructions, rulebooks).

Geometry is in PDF points, origin at the sheet's bottom-left corner, as in
:mod:`pnp.imposition.geometry`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# Loaded with this module, while the renderer loads WeasyPrint, rather than
# when the first page is read, after the layout, when the build waits on it.
import pypdfium2 as pdfium

from pnp.errors import Diagnostic, Level, Source
from pnp.imposition.geometry import Rect, Sheet
from pnp.units import to_mm

Box = tuple[float, float, float, float]
"""(left, bottom, right, top), in points."""


@dataclass(frozen=True)
class FaceText:
    """Where a face's text is drawn on its own page."""

    trim: Box
    """The page's trim box: what imposition centres on a slot."""
    boxes: tuple[Box, ...]
    """Each run of text, as PDFium groups a page's characters."""


@dataclass(frozen=True)
class EdgeFinding:
    """Something printed nearer an edge of the paper than the printer reaches."""

    sheet: int
    """0-based index of the sheet (or page) in the sequence checked."""
    what: str
    """``crop marks``, ``cutting circles``, ``the fold line`` or ``text``."""
    face: str | None
    """For text on a sheet: the key of the face it belongs to."""
    distance: float
    """How far from the paper's edge it comes (points; negative: past it)."""
    side: str

    def message(self, margin: float) -> str:
        where = "past" if self.distance < 0 else "from"
        return (
            f"{self.what} {'come' if self.what.endswith('s') else 'comes'} {abs(to_mm(self.distance)):.1f} mm {where} the {self.side} edge "
            f"of the paper; home printers print nothing nearer the edge than {to_mm(margin):.0f} mm"
        )


_TURNS = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), -90: (0, -1, 1, 0)}
"""The a b c d of each quarter turn, as :mod:`pnp.pdf.place` draws a placement."""


def near_edge(sheets: Sequence[Sheet], margin: float) -> set[str]:
    """The faces placed where what they show (their clip) comes nearer a
    paper edge than ``margin``: only their text can, so only theirs is read."""
    return {
        p.face for sheet in sheets for p in sheet.placements
        if min(p.clip.x, p.clip.y, sheet.paper.width - p.clip.right, sheet.paper.height - p.clip.top) < margin - 1e-3
    }


def face_text(face_pdfs: Sequence[tuple[Path | bytes, Sequence[str | None]]], wanted: Collection[str] | None = None) -> dict[str, FaceText]:
    """Each face's text boxes, by face key, read from its laid-out page (only
    the ``wanted`` faces' when given)."""
    from pnp.pdf.place import face_document

    out: dict[str, FaceText] = {}
    for data, keys in face_pdfs:
        if wanted is not None and not any(key in wanted for key in keys):
            continue
        document = pdfium.PdfDocument(face_document(data))
        try:
            for index, key in enumerate(keys):
                if key is not None and key not in out and (wanted is None or key in wanted):
                    page = document[index]
                    out[key] = FaceText(tuple(page.get_trimbox()), _text_boxes(page))
        finally:
            document.close()
    return out


def _text_boxes(page: object) -> tuple[Box, ...]:
    text = page.get_textpage()  # type: ignore[attr-defined]
    try:
        return tuple(tuple(text.get_rect(i)) for i in range(text.count_rects()))
    finally:
        text.close()


def sheet_edges(sheets: Sequence[Sheet], text: Mapping[str, FaceText], margin: float) -> list[EdgeFinding]:
    """What each sheet prints nearer the paper's edge than ``margin``: its
    marks and cutting circles, and the text of each face where the face is
    placed (turned as placed, only what its slot shows). At most one finding
    per sheet and kind of mark, and per sheet and face: the nearest."""
    out: list[EdgeFinding] = []
    for number, sheet in enumerate(sheets):
        size = (sheet.paper.width, sheet.paper.height)
        lines = [m for m in sheet.marks if not m.dashed]
        folds = [m for m in sheet.marks if m.dashed]
        drawn: list[tuple[str, str | None, list[Box]]] = [
            ("crop marks", None, [_line_box(m.x1, m.y1, m.x2, m.y2, m.weight) for m in lines]),
            ("the fold line", None, [_line_box(m.x1, m.y1, m.x2, m.y2, m.weight) for m in folds]),
            ("cutting circles", None, [(g.cx - g.r - g.weight / 2, g.cy - g.r - g.weight / 2, g.cx + g.r + g.weight / 2, g.cy + g.r + g.weight / 2) for g in sheet.guides]),
        ]
        for placement in sheet.placements:
            face = text.get(placement.face)
            if face is not None:
                boxes = [_placed(box, face.trim, placement.slot, placement.rotation) for box in face.boxes]
                drawn.append(("text", placement.face, [b for b in (_clip(box, placement.clip) for box in boxes) if b is not None]))
        seen: set[tuple[str, str | None]] = set()
        for what, face_key, boxes in drawn:
            nearest = _nearest(boxes, size)
            if nearest is not None and nearest[0] < margin - 1e-3 and (what, face_key) not in seen:
                seen.add((what, face_key))
                out.append(EdgeFinding(number, what, face_key, nearest[0], nearest[1]))
    return out


def page_edges(pages: Sequence[tuple[tuple[float, float], Sequence[Box]]], margin: float) -> list[EdgeFinding]:
    """The same for pages printed as they are: ``(page size, text boxes)`` each."""
    out = []
    for number, (size, boxes) in enumerate(pages):
        nearest = _nearest(list(boxes), size)
        if nearest is not None and nearest[0] < margin - 1e-3:
            out.append(EdgeFinding(number, "text", None, nearest[0], nearest[1]))
    return out


def page_text(data: bytes) -> list[tuple[tuple[float, float], tuple[Box, ...]]]:
    """Each page of a PDF: its size and its text boxes (for :func:`page_edges`)."""
    document = pdfium.PdfDocument(data)
    try:
        return [(tuple(document[i].get_size()), _text_boxes(document[i])) for i in range(len(document))]
    finally:
        document.close()


def _line_box(x1: float, y1: float, x2: float, y2: float, weight: float) -> Box:
    """Where a line's ink goes: :mod:`pnp.pdf.place` strokes marks with butt
    caps, so the stroke ends at the end points and is half its weight wide on
    either side of the line."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    across_x, across_y = abs(y2 - y1) / length * weight / 2, abs(x2 - x1) / length * weight / 2
    return (min(x1, x2) - across_x, min(y1, y2) - across_y, max(x1, x2) + across_x, max(y1, y2) + across_y)


def _placed(box: Box, trim: Box, slot: Rect, rotation: int) -> Box:
    """``box`` of a face's page where the face is drawn on the sheet: turned
    about its trim's centre, the centre moved onto the slot's."""
    a, b, c, d = _TURNS[rotation]
    cx, cy = (trim[0] + trim[2]) / 2, (trim[1] + trim[3]) / 2
    tx = slot.x + slot.width / 2 - (a * cx + c * cy)
    ty = slot.y + slot.height / 2 - (b * cx + d * cy)
    xs = [a * x + c * y + tx for x in (box[0], box[2]) for y in (box[1], box[3])]
    ys = [b * x + d * y + ty for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(xs), min(ys), max(xs), max(ys))


def _clip(box: Box, clip: Rect) -> Box | None:
    out = (max(box[0], clip.x), max(box[1], clip.y), min(box[2], clip.right), min(box[3], clip.top))
    return out if out[0] < out[2] and out[1] < out[3] else None


def _nearest(boxes: Sequence[Box], size: tuple[float, float]) -> tuple[float, str] | None:
    """How near the paper's edge the boxes come, and which edge."""
    best: tuple[float, str] | None = None
    for box in boxes:
        for distance, side in ((box[0], "left"), (box[1], "bottom"), (size[0] - box[2], "right"), (size[1] - box[3], "top")):
            if best is None or distance < best[0]:
                best = (distance, side)
    return best


def edge_diagnostics(
    target: Path, front: bytes | None, sheets: Sequence[Sheet], text: Mapping[str, FaceText],
    cards: Mapping[str, tuple[str, Source]], margin: float, strict: bool,
) -> list[Diagnostic]:
    """Each finding in one file (pages printed as they are, then one page per
    sheet) as a diagnostic, the same finding on several pages once with every
    page: text of a card at the card (``cards``: face key -> its label and
    source), the rest at the file; warnings, or errors when ``strict``."""
    pages = page_text(front) if front is not None else []
    found: dict[tuple[str | None, str], list[int]] = {}
    for f in page_edges(pages, margin):
        found.setdefault((None, f.message(margin)), []).append(f.sheet + 1)
    for f in sheet_edges(sheets, text, margin):
        found.setdefault((f.face, f.message(margin)), []).append(len(pages) + f.sheet + 1)
    level = Level.ERROR if strict else Level.WARNING
    out = []
    for (face, message), numbers in found.items():
        where = f"page{'s' if len(numbers) > 1 else ''} {', '.join(str(n) for n in numbers)}"
        if face is not None and face in cards:
            label, source = cards[face]
            out.append(Diagnostic(source, "", f"{label}: on {target.name} {where}, {message}", level))
        else:
            out.append(Diagnostic(Source(target), "", f"{where}: {message}", level))
    return out

"""Peer: the poker deck (job.py) drawn with ReportLab, the floor for speed and size.

    python bench/poker/reportlab_peer.py OUT.pdf

Each icon is one form (svglib turns the SVG into ReportLab drawings) drawn
wherever it is used. Needs reportlab and svglib, pnp's ``bench`` extra (``pip install -c
constraints.txt -e '.[bench]'``; ``make bench``); without them it says so and
exits with status 3.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from job import BACK_COLOUR, CARD_H, CARD_W, CARDS, COLUMNS, FONT, MM, PAGE_H, PAGE_W, ROWS, crop_marks, icon_files, slots  # noqa: E402


def main() -> None:
    try:
        from reportlab.graphics import renderPDF
        from reportlab.lib.colors import HexColor
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont
        from reportlab.pdfgen import canvas
        from svglib.svglib import svg2rlg
    except ImportError as exc:
        print(f"reportlab peer skipped: {exc}", file=sys.stderr)
        raise SystemExit(3) from None
    pdfmetrics.registerFont(TTFont("EBGaramond", str(FONT)))
    page = canvas.Canvas(sys.argv[1], pagesize=(PAGE_W, PAGE_H))
    with tempfile.TemporaryDirectory() as tmp:
        icons = [svg2rlg(str(p)) for p in icon_files(Path(tmp)).values()]
    for n, drawing in enumerate(icons):  # each icon once, as a form
        page.beginForm(f"icon{n}")
        drawing.scale(12 * MM / drawing.width, 12 * MM / drawing.height)
        renderPDF.draw(drawing, page, 0, 0)
        page.endForm()
    per = COLUMNS * ROWS
    for start in range(0, len(CARDS), per):
        sheet = CARDS[start:start + per]
        for (title, line), (x, y) in zip(sheet, slots(False)):
            page.setFillColor(HexColor("#000000"))
            page.setFont("EBGaramond", 16)
            page.drawString(x + 4 * MM, y + CARD_H - 4 * MM - 16, title)
            page.setFont("EBGaramond", 10)
            page.drawString(x + 4 * MM, y + CARD_H - 12 * MM - 10, line)
            for n in range(len(icons)):
                page.saveState()
                page.translate(x + 4 * MM + n * 14 * MM, y + CARD_H - 32 * MM)
                page.doForm(f"icon{n}")
                page.restoreState()
        _marks(page)
        page.showPage()
        for _, (x, y) in zip(sheet, slots(True)):
            page.setFillColor(HexColor(BACK_COLOUR))
            page.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
            page.setFillColor(HexColor("#ffffff"))
            page.setFont("EBGaramond", 24)
            page.drawCentredString(x + CARD_W / 2, y + CARD_H - 34 * MM - 24, "Poker")
        _marks(page)
        page.showPage()
    page.save()


def _marks(page: object) -> None:
    page.setLineWidth(0.25)  # type: ignore[attr-defined]
    for x1, y1, x2, y2 in crop_marks():
        page.line(x1, y1, x2, y2)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()

"""Peer: the poker deck (job.py) as one plain HTML document printed by WeasyPrint.

    python bench/poker/naive_weasyprint.py OUT.pdf

What a person would write without pnp: every sheet a page, every card an
absolutely placed box, the icons as <img> elements, the crop marks as thin boxes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from job import BACK_COLOUR, CARD_H, CARD_W, CARDS, COLUMNS, FONT, PAGE_H, ROWS, crop_marks, icon_files, slots  # noqa: E402


def _card(x: float, y: float, inner: str, style: str = "") -> str:
    top = PAGE_H - y - CARD_H  # CSS y runs down from the page's top
    return f'<div class="card" style="left: {x:.2f}pt; top: {top:.2f}pt; {style}">{inner}</div>'


def html(icons: dict[str, Path]) -> str:
    marks = "".join(
        f'<div class="mark" style="left: {min(x1, x2):.2f}pt; top: {PAGE_H - max(y1, y2):.2f}pt; '
        f'width: {max(abs(x2 - x1), 0.25):.2f}pt; height: {max(abs(y2 - y1), 0.25):.2f}pt"></div>'
        for x1, y1, x2, y2 in crop_marks()
    )
    imgs = "".join(f'<img src="{p.as_uri()}">' for p in icons.values())
    pages = []
    per = COLUMNS * ROWS
    for start in range(0, len(CARDS), per):
        sheet = CARDS[start:start + per]
        fronts = "".join(_card(x, y, f"<h1>{t}</h1><p>{line}</p>{imgs}") for (t, line), (x, y) in zip(sheet, slots(False)))
        backs = "".join(_card(x, y, '<div class="back">Poker</div>', f"background: {BACK_COLOUR}") for _, (x, y) in zip(sheet, slots(True)))
        pages += [f'<section class="sheet">{fronts}{marks}</section>', f'<section class="sheet">{backs}{marks}</section>']
    return f"""<!doctype html><html><head><style>
@font-face {{ font-family: 'EB Garamond'; src: url({FONT.as_uri()}); }}
@page {{ size: A4; margin: 0; }}
body {{ margin: 0; font-family: 'EB Garamond'; }}
.sheet {{ position: relative; width: 210mm; height: 297mm; break-after: page; }}
.card {{ position: absolute; width: {CARD_W:.2f}pt; height: {CARD_H:.2f}pt; box-sizing: border-box; padding: 4mm; }}
.card h1 {{ font-size: 16pt; margin: 0 0 4mm; }} .card p {{ font-size: 10pt; margin: 0 0 4mm; }}
.card img {{ width: 12mm; margin-right: 2mm; }}
.back {{ color: #fff; text-align: center; font-size: 24pt; padding-top: 26mm; }}
.mark {{ position: absolute; background: #000; }}
</style></head><body>{"".join(pages)}</body></html>"""


def main() -> None:
    from weasyprint import HTML

    with tempfile.TemporaryDirectory() as tmp:
        HTML(string=html(icon_files(Path(tmp)))).write_pdf(sys.argv[1])


if __name__ == "__main__":
    main()

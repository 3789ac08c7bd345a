"""Peer: the least CPU WeasyPrint itself spends on one of the deck's faces.

    python bench/poker/face_floor.py FACES [--layout-only]

Lays out FACES distinct fronts of the poker deck (job.py: a title, a line
of text, three SVG icons, on a white bleed) as one WeasyPrint document, one
page per face at trim plus bleed, and writes it as a PDF; prints the CPU
time of that alone, per face. Everything a real build pays besides is left
out in the floor's favour: Python's and WeasyPrint's start-up, loading the
font and parsing the stylesheet (a two-face document is laid out first, in
the same process), per-document costs (one document holds every face), the
build stamp, imposition and checks. With ``--layout-only`` the document is
laid out but not written.

So no renderer that lays faces out with WeasyPrint can spend less CPU a face
than this on the same machine in the same minutes: measure.py's
``--floor`` runs it beside pnp's trees, so the ratio of a pnp tree's CPU per
distinct face to it is a figure of the same run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from job import FONT, cards, icon_files  # noqa: E402

BLEED_MM, SAFE_MM, TRIM_W_MM, TRIM_H_MM = 3, 3, 63, 88


def document(faces: list[tuple[str, str]], icons: dict[str, Path]) -> str:
    """The faces as one HTML document, each face a page, drawn as pnp's
    front template draws it (its rules inline, as the template has them)."""
    imgs = "".join(f'<img src="{p.as_uri()}" style="width: 12mm; margin-right: 2mm">' for p in icons.values())
    pages = "".join(
        '<section class="face"><div class="bleed"></div><div class="safe">'
        f'<h1 style="font-size: 16pt; margin: 0 0 4mm">{title}</h1>'
        f'<p style="font-size: 10pt; margin: 0 0 4mm">{text}</p>{imgs}</div></section>'
        for title, text in faces
    )
    w, h = TRIM_W_MM + 2 * BLEED_MM, TRIM_H_MM + 2 * BLEED_MM
    inset = BLEED_MM + SAFE_MM
    return f"""<!doctype html><html><head><style>
@font-face {{ font-family: 'EB Garamond'; src: url({FONT.as_uri()}); }}
@page {{ size: {w}mm {h}mm; margin: 0; }}
html, body {{ margin: 0; padding: 0; }}
* {{ box-sizing: border-box; }}
.face {{ position: relative; overflow: hidden; break-after: page; width: {w}mm; height: {h}mm; }}
.bleed {{ position: absolute; left: 0; top: 0; width: 100%; height: 100%; background: #fff; }}
.safe {{ position: absolute; left: {inset}mm; top: {inset}mm; width: {w - 2 * inset}mm; height: {h - 2 * inset}mm;
         font-family: 'EB Garamond'; }}
</style></head><body>{pages}</body></html>"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("faces", type=int)
    parser.add_argument("--layout-only", action="store_true", help="lay the document out, do not write it")
    args = parser.parse_args()
    from weasyprint import HTML

    with tempfile.TemporaryDirectory() as tmp:
        icons = icon_files(Path(tmp))
        HTML(string=document(cards(2), icons)).write_pdf()  # fonts, images and stylesheets warm
        html = document(cards(args.faces), icons)
        started = time.process_time()
        laid = HTML(string=html).render()
        if not args.layout_only:
            laid.write_pdf()
        spent = time.process_time() - started
    print(f"floor {1000 * spent / args.faces:.3f} ms per face ({'laid out' if args.layout_only else 'laid out and written'}, {args.faces} faces)")


if __name__ == "__main__":
    main()

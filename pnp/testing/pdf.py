"""Small wrappers around independent PDF tools (poppler, qpdf, pikepdf): a
build read back by something other than pnp; and a plain PDF made without
pnp, for a stage that takes PDFs (:func:`filled_pdf`)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Collection
from pathlib import Path


def tool(name: str) -> str:
    """An independent checking tool's path (poppler's pdftotext, qpdf ...)."""
    path = shutil.which(name)
    assert path, f"{name} is not installed (Debian: poppler-utils, qpdf)"
    return path


def pdfinfo_pages(pdf: Path) -> list[tuple[float, float]]:
    """(width, height) in points of every page, as poppler reads them."""
    out = subprocess.run([tool("pdfinfo"), "-f", "1", "-l", "100000", str(pdf)], capture_output=True, text=True, check=True).stdout
    return [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", out)]


def pdffonts(pdf: Path) -> list[dict[str, str]]:
    out = subprocess.run([tool("pdffonts"), str(pdf)], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()[2:]
    fonts = []
    for line in lines:
        parts = line.split()
        # name type... encoding emb sub uni object ID
        fonts.append({"name": parts[0], "emb": parts[-5], "sub": parts[-4]})
    return fonts


def pdftotext(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    args = [tool("pdftotext"), "-layout"]
    if first:
        args += ["-f", str(first)]
    if last:
        args += ["-l", str(last)]
    return subprocess.run([*args, str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def prose(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    """A PDF's text as one line of words: a word hyphenated at a line's end
    (U+2010, which only the line breaker adds) is joined again."""
    text = re.sub(r"\u2010[ \t]*\n\s*", "", pdftotext(pdf, first, last))
    return " ".join(text.split())


def prose_in(pdf: Path, page: int, left: float, right: float) -> str:
    """The words of one page between ``left`` and ``right`` (points from the
    page's left edge), as :func:`prose` joins them: one column of several."""
    height = pdfinfo_pages(pdf)[page - 1][1]
    args = [tool("pdftotext"), "-f", str(page), "-l", str(page), "-x", str(int(left)), "-y", "0", "-W", str(int(right - left)), "-H", str(int(height) + 1)]
    text = subprocess.run([*args, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(re.sub(r"\u2010[ \t]*\n\s*", "", text).split())


def setup_columns(pdf: Path, page: int = 1) -> tuple[str, str]:
    """Page 1's What you need and Putting the pieces together, each read as
    its own column: side by side, halves of the width the page's 15 mm
    margins leave (instructions.css).
    poppler joins a word hyphenated at a line's end, so compare without hyphens."""
    width = pdfinfo_pages(pdf)[page - 1][0]
    mm = 72 / 25.4
    split = width / 2
    return prose_in(pdf, page, 0, split), prose_in(pdf, page, split, width - 15 * mm + 1)


def qpdf_check(pdf: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([tool("qpdf"), "--check", str(pdf)], capture_output=True, text=True)


def circles_drawn(pdf: Path, page: int) -> list[tuple[float, float, float]]:
    """(cx, cy, r) of each circle drawn as a move and four Bezier arcs, the first
    arc from (cx + r, cy) to (cx, cy + r), read back with pikepdf."""
    found = []
    ops = operations(pdf, page, ("m", "c", "S", "l", "re"))
    for i, (op, args) in enumerate(ops[:-5]):
        if op == "m" and [o for o, _ in ops[i + 1 : i + 6]] == ["c", "c", "c", "c", "S"]:
            _, y0 = args
            cx, top = ops[i + 1][1][4], ops[i + 1][1][5]
            found.append((cx, y0, top - y0))
    return found


def marks_drawn(pdf: Path, page: int) -> list[tuple[float, float, float, float, bool]]:
    """(x1, y1, x2, y2, cased) of each black straight line stroked on
    ``page`` (crop marks and cut ticks), cased when a white line is stroked
    along the same points first, read back with pikepdf."""
    ops = operations(pdf, page, ("G", "m", "l", "S", "c"))
    grey, lines = 0.0, []
    for i, (op, args) in enumerate(ops):
        if op == "G":
            grey = args[0]
        elif op == "m" and i + 2 < len(ops) and ops[i + 1][0] == "l" and ops[i + 2][0] == "S":
            lines.append((grey, (*args, *ops[i + 1][1])))
    white = {points for g, points in lines if g == 1}
    return [(x1, y1, x2, y2, (x1, y1, x2, y2) in white) for g, (x1, y1, x2, y2) in lines if g == 0]


def operations(pdf: Path, page: int, wanted: Collection[str]) -> list[tuple[str, list[float]]]:
    """Each drawing operation the sheet on ``page`` (1-based) draws itself
    whose operator is one of ``wanted``, with its numbers, in order, read
    with pikepdf: its marks and how it places each face, not what a face
    draws (two saved graphics states deep, in its form or in place: see
    :func:`pnp.pdf.place.impose_pdf`)."""
    import pikepdf

    found = []
    depth = 0
    with pikepdf.open(pdf) as document:
        for instruction in pikepdf.parse_content_stream(document.pages[page - 1]):
            operator = str(instruction.operator)
            depth -= operator == "Q"
            if depth < 2 and operator in wanted:
                found.append((operator, [float(value) for value in instruction.operands]))
            depth += operator == "q"
    return found


def filled_pdf(rgb: str, line: bool = False) -> bytes:
    """A one-page PDF, an inch square, filled with the RGB colour ``rgb``
    (``"1 0 0"`` is red), made with pikepdf; with ``line``, a mid-grey
    diagonal stroked over the fill (a grey, which CMYK conversion gives to
    black ink alone)."""
    import pikepdf

    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(72, 72))
    grey = " 0.5 G 0 0 m 72 72 l S" if line else ""
    page.Contents = pdf.make_stream(f"q {rgb} rg 0 0 72 72 re f{grey} Q\n".encode())
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()

"""Which font file each glyph in a PDF was drawn from: the text operators'
glyph ids, matched outline for outline against font files (a game's and
pnp's own), so a test can prove no machine font slipped into a build."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pikepdf
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont

from pnp.model import Game
from pnp.paths import OWN


def font_files(game: Game) -> list[Path]:
    """Every font file a build of ``game`` may embed: those it declares, and
    pnp's own (its default font, the floor font)."""
    own = (p for p in (OWN / "fonts").rglob("*") if p.suffix.lower() in (".ttf", ".otf"))
    return sorted({*(font.file for font in game.fonts), *own})


@cache
def _font(path: Path) -> TTFont:
    return TTFont(path)


@cache
def _outline(path: Path, glyph: str) -> tuple[object, ...]:
    font = _font(path)
    pen = DecomposingRecordingPen(font.getGlyphSet())
    font.getGlyphSet()[glyph].draw(pen)
    return tuple(pen.value)


def drawn_glyphs(pdf: pikepdf.Pdf) -> dict[tuple[int, int], tuple[pikepdf.Object, set[int]]]:
    """Every font drawn with on any page or in any form XObject on it, and the
    glyph ids its text operators show (Identity-H: two bytes per glyph id)."""
    drawn: dict[tuple[int, int], tuple[pikepdf.Object, set[int]]] = {}
    walked: set[tuple[int, int]] = set()

    def walk(owner: pikepdf.Object) -> None:
        resources = owner.get("/Resources") or pikepdf.Dictionary()
        fonts = resources.get("/Font") or pikepdf.Dictionary()
        xobjects = resources.get("/XObject") or pikepdf.Dictionary()
        font = None
        for instruction in pikepdf.parse_content_stream(owner):
            op, operands = str(instruction.operator), instruction.operands
            if op == "Tf":
                font = fonts[str(operands[0])]
            elif op in ("Tj", "'", '"', "TJ"):
                assert font is not None and font.Encoding == "/Identity-H", "text shown without a two-byte font"
                strings = [o for o in operands[-1] if isinstance(o, pikepdf.String)] if op == "TJ" else [operands[-1]]
                gids = drawn.setdefault(font.objgen, (font, set()))[1]
                for string in strings:
                    raw = bytes(string)
                    gids.update(int.from_bytes(raw[i : i + 2], "big") for i in range(0, len(raw), 2))
            elif op == "Do":
                xobject = xobjects[str(operands[0])]
                if xobject.get("/Subtype") == "/Form" and xobject.objgen not in walked:
                    walked.add(xobject.objgen)
                    walk(xobject)

    for page in pdf.pages:
        walk(page.obj)
    return drawn


def source_of(program: bytes, gids: set[int], files: Sequence[Path]) -> Path:
    """The one font file of ``files`` every glyph drawn from an embedded
    (subset) font program comes from: WeasyPrint keeps glyph ids when it
    subsets, so each drawn glyph id must have the very outline of that id in
    the file (:func:`font_files`: a game's own and pnp's)."""
    subset = TTFont(io.BytesIO(program))
    order = subset.getGlyphOrder()
    glyphs = subset.getGlyphSet()
    outlines = {}
    for gid in gids:
        pen = DecomposingRecordingPen(glyphs)
        glyphs[order[gid]].draw(pen)
        outlines[gid] = tuple(pen.value)
    matches = [
        path for path in files
        if len(_font(path).getGlyphOrder()) >= len(order)
        and all(_outline(path, _font(path).getGlyphOrder()[gid]) == outline for gid, outline in outlines.items())
    ]
    assert len(matches) == 1, f"{len(gids)} drawn glyphs match {matches or 'none of the font files'}"
    return matches[0]

"""Font files a game declares: what they are and which characters they draw.

A declared font must be a font WeasyPrint can use (TrueType or OpenType, bare
or as WOFF/WOFF2) with a Unicode character map: a file that is not one would
leave text with no font at all. Loading a game checks each file's structure
(:func:`check_font`, a few hundred bytes read, so every build stays quick);
laying pages out reads its character map with fontTools, which WeasyPrint
itself uses to embed fonts (:func:`coverage`).
"""

from __future__ import annotations

import struct
from pathlib import Path

_SIGNATURES = {b"\x00\x01\x00\x00": "TrueType", b"true": "TrueType", b"OTTO": "OpenType", b"wOFF": "WOFF", b"wOF2": "WOFF2"}
_COVERAGE: dict[tuple[str, int, int], frozenset[int]] = {}


class FontRefused(Exception):
    """The file is not a font pnp can set text in."""


def check_font(path: Path) -> None:
    """Raise :class:`FontRefused` unless ``path`` looks like a whole font: a
    known signature, and (for TrueType and OpenType) a table directory whose
    tables all lie inside the file and include a character map and glyphs."""
    with path.open("rb") as file:
        head = file.read(12)
        size = path.stat().st_size
        if head[:4] not in _SIGNATURES:
            kind = "a font collection (.ttc), which WeasyPrint cannot choose a font from" if head[:4] == b"ttcf" else "no font file"
            raise FontRefused(f"{kind}: expected TrueType, OpenType, WOFF or WOFF2")
        kind = _SIGNATURES[head[:4]]
        if kind.startswith("WOFF"):
            if len(head) < 12 or struct.unpack(">I", head[8:12])[0] != size:
                raise FontRefused(f"a damaged {kind} font (its header gives another length than the file's)")
            return
        count = struct.unpack(">H", head[4:6])[0] if len(head) >= 6 else 0
        records = file.read(16 * count)
    if count == 0 or len(records) < 16 * count:
        raise FontRefused(f"a damaged {kind} font (its table directory is cut short)")
    tables = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", records[16 * index : 16 * index + 16])
        if offset + length > size:
            raise FontRefused(f"a damaged {kind} font (table {tag.decode('latin-1')!r} lies past the end of the file)")
        tables[tag] = length
    missing = [t.decode() for t in (b"cmap", b"head", b"hmtx") if t not in tables]
    if not ({b"glyf", b"CFF ", b"CFF2"} & tables.keys()):
        missing.append("glyf or CFF")
    if missing:
        raise FontRefused(f"a damaged {kind} font (no {', '.join(missing)} table)")


def coverage(path: Path) -> frozenset[int]:
    """Every code point ``path``'s font has a glyph for (read once per process
    and file version). Raises :class:`FontRefused` for a file that is no usable font."""
    stat = path.stat()
    memo = (str(path), stat.st_mtime_ns, stat.st_size)
    found = _COVERAGE.get(memo)
    if found is None:
        found = _read(path)
        _COVERAGE[memo] = found
    return found


def _read(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont, TTLibError

    with path.open("rb") as file:
        head = file.read(4)
    if head not in _SIGNATURES:
        kind = "a font collection (.ttc), which WeasyPrint cannot choose a font from" if head == b"ttcf" else "no font file"
        raise FontRefused(f"{kind}: expected TrueType, OpenType, WOFF or WOFF2")
    try:
        with TTFont(path, lazy=True) as font:
            cmap = font.getBestCmap()
    except (TTLibError, KeyError, ValueError, AssertionError, EOFError, OSError) as exc:
        raise FontRefused(f"a damaged {_SIGNATURES[head]} font ({exc})") from None
    if not cmap:
        raise FontRefused("the font has no Unicode character map, so no text can be set in it")
    return frozenset(cmap)

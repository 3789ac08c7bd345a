"""Font files a game declares: what they are and which characters they draw.

A declared font must be a font WeasyPrint can use (TrueType or OpenType, bare
or as WOFF/WOFF2) with a Unicode character map: a file that is not one would
leave text with no font at all. Read with fontTools, which WeasyPrint itself
uses to embed fonts.
"""

from __future__ import annotations

from pathlib import Path

_SIGNATURES = {b"\x00\x01\x00\x00": "TrueType", b"true": "TrueType", b"OTTO": "OpenType", b"wOFF": "WOFF", b"wOF2": "WOFF2"}
_COVERAGE: dict[tuple[str, int, int], frozenset[int]] = {}


class FontRefused(Exception):
    """The file is not a font pnp can set text in."""


def check_font(path: Path) -> None:
    """Raise :class:`FontRefused` unless ``path`` is a usable font."""
    coverage(path)


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

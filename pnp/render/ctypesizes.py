"""WeasyPrint's font subsetting without a C parser run per document.

Subsetting a font (``weasyprint.pdf.fonts``) makes its arrays of glyph ids
as ``ffi.new(f"hb_codepoint_t[{n}]", items)``: a C type named with its
length, which cffi parses with pycparser the first time it sees that text
(2-7 ms), and the length differs with each document's glyphs, so every
document paid two or three parses (about 9 ms a document, 13 % of the poker
deck's layout time). The same array made as ``hb_codepoint_t[]`` from the
same items holds the same values, and its type is parsed once per process.
"""

from __future__ import annotations

import re
from types import ModuleType

_SIZED = re.compile(r"(hb_codepoint_t)\[(\d+)\]")


class _OneArrayType:
    """``ffi`` as ``weasyprint.pdf.fonts`` sees it: ``hb_codepoint_t[n]``
    made from ``n`` items is made as ``hb_codepoint_t[]`` from them."""

    def __init__(self, ffi: object):
        self._ffi = ffi

    def new(self, cdecl: str, init: object = None) -> object:
        sized = _SIZED.fullmatch(cdecl)
        if sized is not None and isinstance(init, (list, tuple)) and len(init) == int(sized.group(2)):
            cdecl = f"{sized.group(1)}[]"
        return self._ffi.new(cdecl, init)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._ffi, name)


def install(weasyprint: ModuleType) -> None:
    """Give WeasyPrint's font subsetting :class:`_OneArrayType` (once per process)."""
    fonts = weasyprint.pdf.fonts
    if not isinstance(fonts.ffi, _OneArrayType):
        fonts.ffi = _OneArrayType(fonts.ffi)

"""The versions of the system libraries WeasyPrint lays text out with.

Pango, HarfBuzz, fontconfig and FreeType come from the operating system, not
from pip, and a new release of any of them can move a glyph; the render cache
keys on their versions. They are read with ctypes, without importing
WeasyPrint, so a build whose pages are all cached stays quick. The library
names are the ones WeasyPrint opens first on Linux.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache

_LIBRARIES: dict[str, tuple[str, Callable[[ctypes.CDLL], str]]] = {}


def _pango(lib: ctypes.CDLL) -> str:
    lib.pango_version_string.restype = ctypes.c_char_p
    return str(lib.pango_version_string().decode())


def _harfbuzz(lib: ctypes.CDLL) -> str:
    lib.hb_version_string.restype = ctypes.c_char_p
    return str(lib.hb_version_string().decode())


def _fontconfig(lib: ctypes.CDLL) -> str:
    number = int(lib.FcGetVersion())
    return f"{number // 10000}.{number // 100 % 100}.{number % 100}"


def _freetype(lib: ctypes.CDLL) -> str:
    handle = ctypes.c_void_p()
    if lib.FT_Init_FreeType(ctypes.byref(handle)) != 0:
        return "unknown"
    major, minor, patch = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    try:
        lib.FT_Library_Version(handle, ctypes.byref(major), ctypes.byref(minor), ctypes.byref(patch))
    finally:
        lib.FT_Done_FreeType(handle)
    return f"{major.value}.{minor.value}.{patch.value}"


_LIBRARIES.update(
    {
        "pango": ("libpango-1.0.so.0", _pango),
        "harfbuzz": ("libharfbuzz.so.0", _harfbuzz),
        "fontconfig": ("libfontconfig.so.1", _fontconfig),
        "freetype": ("libfreetype.so.6", _freetype),
    }
)


@cache
def library_versions() -> dict[str, str]:
    """``{"pango": "1.50.12", ...}``; "unknown" where a library cannot be opened."""
    found = {}
    for name, (filename, read) in _LIBRARIES.items():
        try:
            found[name] = read(ctypes.CDLL(filename))
        except (OSError, AttributeError):
            found[name] = "unknown"
    return found

"""Font embedding: a font drawn with must carry its program (FontFile, FontFile2 or
FontFile3 in its descriptor, or its descendant's for Type0). Type3 fonts are drawn by
their glyph procedures, which the content walk follows instead."""

from __future__ import annotations

import pikepdf


def not_embedded(font: pikepdf.Dictionary, name: str, subtype: str) -> str | None:
    """Why font resource ``name`` (of ``subtype``, without its slash) is not embedded, or None."""
    described: pikepdf.Object = font
    if subtype == "Type0":
        descendants = font.get("/DescendantFonts")
        described = descendants[0] if isinstance(descendants, pikepdf.Array) and len(descendants) else font
    descriptor = described.get("/FontDescriptor") if isinstance(described, pikepdf.Dictionary) else None
    embedded = isinstance(descriptor, pikepdf.Dictionary) and any(
        k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
    )
    if embedded:
        return None
    base = str(font.get("/BaseFont", pikepdf.Name("/unnamed")))[1:]
    return f"font {name} ({base}, {subtype}) is not embedded"

"""Build pnp/resources/fonts/pnp-floor.ttf: a font with no glyph but a space.

WeasyPrint lays text out with Pango, which crashes the process when a font
configuration holds no font at all; pnp's holds none of the machine's
(pnp/render/fontconfig.py), so every layout also gets this font, under a
family name no document uses. It can draw nothing, so it never stands in for
a character the declared fonts lack. Made for pnp with fontTools; CC0.

Run: python scripts/build-floor-font.py
"""

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

TARGET = Path(__file__).resolve().parent.parent / "pnp" / "resources" / "fonts" / "pnp-floor.ttf"


def main() -> None:
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "space"])
    builder.setupCharacterMap({0x20: "space"})
    empty = TTGlyphPen(None).glyph()
    builder.setupGlyf({".notdef": empty, "space": TTGlyphPen(None).glyph()})
    builder.setupHorizontalMetrics({".notdef": (500, 0), "space": (250, 0)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "pnp floor", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.font["head"].created = builder.font["head"].modified = 0  # the same bytes on every run
    builder.save(TARGET)


if __name__ == "__main__":
    main()

"""What every document pnp lays out holds besides its body: pnp's own rules,
the game's fonts, palette and stylesheets.

A face's identity (:class:`pnp.render.faces.FaceIdentity`) hashes the frame
its component's faces are laid out in, so whatever in it changes a face's
pixels (a stylesheet rule, a font file, a colour) changes the face's key.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.render.scope import DEFAULT_FAMILY, Font, document_fonts

if TYPE_CHECKING:
    from pnp.model import Game

STAMP_TYPE = 4.5
"""The build stamp's type size, in points; its line height is :data:`STAMP_LINE`."""
STAMP_LINE = 1.2
STAMP_BAND = "pnp-stamp-band"
"""The class of a stamp set in the band between trim and safe line, which the safe-zone check leaves alone."""

BASE_CSS = f"""
html, body {{ margin: 0; padding: 0; }}
html {{ font-family: "{DEFAULT_FAMILY}"; }}
* {{ box-sizing: border-box; }}
.pnp-face {{ position: relative; overflow: hidden; break-after: page; margin: 0; }}
.pnp-face > .bleed {{ position: absolute; left: 0; top: 0; width: 100%; height: 100%; }}
.pnp-face > .trim, .pnp-face > .safe {{ position: absolute; }}
.pnp-stamp {{ position: absolute; right: 0; bottom: 0; font-family: "{DEFAULT_FAMILY}"; font-size: {STAMP_TYPE}pt; line-height: {STAMP_LINE};
             font-style: normal; font-weight: normal; letter-spacing: 0; color: #3a3a3a;
             background: rgba(255, 255, 255, 0.8); padding: 0 0.5mm; border-radius: 0.5mm; white-space: nowrap;
             font-variant-numeric: lining-nums; }}
.{STAMP_BAND} {{ right: auto; left: 50%; transform: translateX(-50%); }}
.pnp-icon {{ height: 1em; width: auto; vertical-align: -0.15em; }}
"""
"""Every document's own rules. Text is set in pnp's default font unless the
game's stylesheets say otherwise; the build stamp always is."""


def font_css(fonts: Sequence[Font]) -> str:
    rules = []
    for font in fonts:
        rules.append(
            "@font-face { font-family: %s; src: url(%s); font-style: %s; font-weight: %d; }"
            % (_css_string(font.family), _css_string(font.file.as_uri()), font.style, font.weight)
        )
    return "\n".join(rules)


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _style_links(paths: Sequence[Path]) -> str:
    seen: list[Path] = []
    for path in paths:
        if path not in seen:
            seen.append(path)
    return "\n".join(f'<link rel="stylesheet" href="{escape(p.as_uri())}">' for p in seen)


def palette_css(game: Game) -> str:
    """The game's palette as CSS custom properties: ``var(--ink)``."""
    if not game.palette:
        return ""
    return ":root { " + " ".join(f"--{name}: {swatch.screen};" for name, swatch in game.palette.items()) + " }\n"


def frame(game: Game, styles: Sequence[Path], extra_css: str = "", body: str = "") -> str:
    """A document of ``game``'s linking the game's stylesheets and ``styles``;
    with no body, the frame a face's identity hashes besides the face."""
    return page_document(game.language, document_fonts(game.fonts), [*game.styles, *styles], palette_css(game) + extra_css, body)


def page_document(language: str, fonts: Sequence[Font], styles: Sequence[Path], extra_css: str, body: str) -> str:
    """An HTML document: the fonts declared, pnp's own rules and ``extra_css``,
    then ``styles`` linked in order."""
    return (
        f"<!DOCTYPE html>\n<html lang='{language}'><head><meta charset='utf-8'>\n"
        f"<style>\n{font_css(fonts)}\n{BASE_CSS}\n{extra_css}\n</style>\n"
        f"{_style_links(styles)}\n</head><body>\n{body}\n</body></html>"
    )

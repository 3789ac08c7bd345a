"""The HTML documents WeasyPrint lays out: one page per face, or front matter.

Rendering never reads YAML: it gets a loaded game and planned faces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path

from pnp.model import FontFace, Game
from pnp.render.faces import STAMP_BAND, STAMP_LINE, STAMP_TYPE, Face
from pnp.render.scope import DEFAULT_FAMILY, document_fonts
from pnp.units import css

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


def font_css(fonts: Sequence[FontFace]) -> str:
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


def faces_html(game: Game, faces: Sequence[Face], styles: Sequence[Path]) -> str:
    """One page per face, each exactly its trim plus bleed."""
    sizes: dict[tuple[float, float, float, float], int] = {}
    for face in faces:
        sizes.setdefault((face.trim_width, face.trim_height, face.bleed, face.safe), len(sizes))
    size_css = []
    for (tw, th, bleed, safe), index in sizes.items():
        w, h = tw + 2 * bleed, th + 2 * bleed
        size_css.append(
            f"@page pnp-size-{index} {{ size: {css(w)} {css(h)}; margin: 0; }}\n"
            f".pnp-size-{index} {{ page: pnp-size-{index}; width: {css(w)}; height: {css(h)}; }}\n"
            f".pnp-size-{index} > .trim {{ left: {css(bleed)}; top: {css(bleed)}; width: {css(tw)}; height: {css(th)}; }}\n"
            f".pnp-size-{index} > .safe {{ left: {css(bleed + safe)}; top: {css(bleed + safe)}; "
            f"width: {css(tw - 2 * safe)}; height: {css(th - 2 * safe)}; }}"
        )
    body = []
    for face in faces:
        index = sizes[(face.trim_width, face.trim_height, face.bleed, face.safe)]
        body.append(
            f'<section class="pnp-face pnp-size-{index} pnp-component-{face.component}{" pnp-ink-saver" if face.ink_saver else ""}" '
            f'data-face="{face.key}">{face.html}</section>'
        )
    return _document(
        game.language, document_fonts(game.fonts), [*game.styles, *styles], palette_css(game) + "\n".join(size_css), "\n".join(body)
    )


_PAGE_SIZE = re.compile(r"(@page pnp-size-\d+ \{ size: \S+ )(\d+(?:\.\d+)?)pt;")


def taller(html: str, factor: float) -> str:
    """A document of :func:`faces_html` with each page ``factor`` times as tall
    and its faces unchanged: text that runs past a face's page is laid out to
    its end there, not dropped, so it can be measured."""
    head, body, rest = html.partition("<body>")
    return _PAGE_SIZE.sub(lambda m: f"{m.group(1)}{float(m.group(2)) * factor:.4f}pt;", head) + body + rest


def pages_html(game: Game, body: str, styles: Sequence[Path]) -> str:
    """A document of the game's own pages (a rulebook): the game's
    stylesheets, then ``styles``, and its palette."""
    return _document(game.language, document_fonts(game.fonts), [*game.styles, *styles], palette_css(game), body)


def own_pages_html(game: Game, body: str, styles: Sequence[Path]) -> str:
    """A document of pnp's own pages (the printing instructions, the
    registration test): pnp's ``styles`` only, never the game's, so no rule
    of a game's stylesheet (an ``h1``, a ``body`` font) reaches them. The
    fonts are still the game's documents' fonts, the ones every layout's
    font check holds text to (pnp's own unless the game declares its family)."""
    return _document(game.language, document_fonts(game.fonts), styles, "", body)


def palette_css(game: Game) -> str:
    """The game's palette as CSS custom properties: ``var(--ink)``."""
    if not game.palette:
        return ""
    return ":root { " + " ".join(f"--{name}: {swatch.screen};" for name, swatch in game.palette.items()) + " }\n"


def _document(language: str, fonts: Sequence[FontFace], styles: Sequence[Path], extra_css: str, body: str) -> str:
    return (
        f"<!DOCTYPE html>\n<html lang='{language}'><head><meta charset='utf-8'>\n"
        f"<style>\n{font_css(fonts)}\n{BASE_CSS}\n{extra_css}\n</style>\n"
        f"{_style_links(styles)}\n</head><body>\n{body}\n</body></html>"
    )

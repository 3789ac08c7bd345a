"""The HTML documents WeasyPrint lays out: one page per face, or front matter.

Rendering never reads YAML: it gets a loaded game and planned faces. What
every document holds besides its body is :mod:`pnp.render.frame`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.render.frame import frame, page_document
from pnp.render.scope import document_fonts
from pnp.units import css

if TYPE_CHECKING:  # annotations: the renderer, which reads this module, never loads faces (nor jinja2 with them), nor the model
    from pnp.model import Game
    from pnp.render.faces import Face


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
    return frame(game, styles, "\n".join(size_css), "\n".join(body))


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
    return frame(game, styles, body=body)


def own_pages_html(game: Game, body: str, styles: Sequence[Path]) -> str:
    """A document of pnp's own pages (the printing instructions, the
    registration test): pnp's ``styles`` only, never the game's, so no rule
    of a game's stylesheet (an ``h1``, a ``body`` font) reaches them. The
    fonts are still the game's documents' fonts, the ones every layout's
    font check holds text to (pnp's own unless the game declares its family)."""
    return page_document(game.language, document_fonts(game.fonts), styles, "", body)

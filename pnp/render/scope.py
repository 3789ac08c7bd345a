"""What a game's documents may draw with: the files the renderer may read,
and the fonts their text may be set in.

A build's glyphs come only from font files the game declares in its
game.yaml (``fonts:``) and from pnp's own default font; the machine's fonts
are never seen (:mod:`pnp.render.fontconfig`). Text that asks for any other
family, or holds a character none of these fonts can draw, is an error
(:mod:`pnp.render.fontcheck`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pnp.paths import OWN, readable

if TYPE_CHECKING:
    from pnp.model import Game


class Font(Protocol):
    """A font face as documents declare it: a game's (:class:`pnp.model.FontFace`)
    or pnp's own (:class:`ScopeFont`)."""

    @property
    def family(self) -> str: ...
    @property
    def file(self) -> Path: ...
    @property
    def style(self) -> str: ...
    @property
    def weight(self) -> int: ...


@dataclass(frozen=True)
class ScopeFont:
    """A font face a document may set text in. A :class:`Scope` holds these,
    not the game model's, so the renderer process that receives one never
    loads the model and its schema (some 35 ms before its first layout)."""

    family: str
    file: Path
    style: str = "normal"
    weight: int = 400

    @classmethod
    def of(cls, font: Font) -> ScopeFont:
        return cls(font.family, font.file, font.style, font.weight)

DEFAULT_FAMILY = "EB Garamond"
"""pnp's own font: its instruction pages and the build stamp are set in it, and
so is any text a game's templates give no font family of their own."""

DEFAULT_FONTS = (
    ScopeFont(DEFAULT_FAMILY, OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf", "normal", 400),
    ScopeFont(DEFAULT_FAMILY, OWN / "fonts" / "ebgaramond" / "EBGaramond12-Italic.ttf", "italic", 400),
)

GENERIC_FAMILIES = frozenset(
    {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "emoji", "math", "fangsong",
     "ui-serif", "ui-sans-serif", "ui-monospace", "ui-rounded"}
)
"""CSS generic families: names of no font in particular. Text may list one after
a declared family, never instead of one."""


@dataclass(frozen=True)
class Scope:
    """What one game's documents may use while they are laid out."""

    roots: tuple[Path, ...]
    """Folders whose files the renderer may read: the game folder first."""
    fonts: tuple[ScopeFont, ...]
    """Every font face text may be set in (declared ones, then pnp's own)."""

    @property
    def families(self) -> frozenset[str]:
        return frozenset(font.family for font in self.fonts)


def document_fonts(declared: Sequence[Font]) -> tuple[Font, ...]:
    """The fonts of a game's documents: the ones it declares, and pnp's own
    default unless the game declares a family of that name itself."""
    families = {font.family for font in declared}
    return (*declared, *(font for font in DEFAULT_FONTS if font.family not in families))


def scope_for(game: Game) -> Scope:
    """What ``game``'s documents may read and which fonts they may use."""
    return Scope(readable(game.root, game.shared), tuple(ScopeFont.of(font) for font in document_fonts(game.fonts)))

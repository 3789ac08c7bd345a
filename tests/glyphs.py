"""Which shipped font file each glyph in a PDF was drawn from
(:mod:`pnp.testing.fonts`), matched against every font file in the repository."""

from __future__ import annotations

from pathlib import Path

from pnp.paths import OWN
from pnp.testing.fonts import drawn_glyphs, source_of as _source_of
from tests.conftest import ROOT

SHIPPED_FONTS = sorted(
    p for folder in (OWN / "fonts", *(ROOT / "card_data").glob("*/fonts"))
    for p in folder.rglob("*") if p.suffix.lower() in (".ttf", ".otf")
)
EB_GARAMOND_SC = ROOT / "card_data" / "garamond" / "fonts" / "ebgaramond" / "EBGaramondSC12-Regular.ttf"

__all__ = ["EB_GARAMOND_SC", "SHIPPED_FONTS", "drawn_glyphs", "source_of"]


def source_of(program: bytes, gids: set[int]) -> Path:
    """The shipped font file (of :data:`SHIPPED_FONTS`) the glyphs come from."""
    return _source_of(program, gids, SHIPPED_FONTS)

"""Text may be set only in declared fonts, and only in characters they have.

A build's font configuration holds no font but the ones declared in the
game's ``fonts:`` (and pnp's own default), so nothing else can be drawn; these
checks turn what would silently be another font, or an empty box, into an
error that names the element, the family or the character. They run on the
laid-out box tree (:mod:`pnp.render.inspect` calls :func:`text_problems` for
every piece of visible text).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pnp import fontfiles
from pnp.render.scope import GENERIC_FAMILIES, Scope


@dataclass(frozen=True)
class FontRules:
    """What text in one document may use."""

    families: frozenset[str]
    """Declared family names, case-folded (CSS matches them regardless of case)."""
    shown: tuple[str, ...]
    """The declared family names as written, for messages."""
    coverage: frozenset[int]
    """Every code point at least one declared font has a glyph for."""


def rules_for(scope: Scope) -> FontRules:
    """The font rules of ``scope``'s documents (each font file read once per process)."""
    families = sorted({font.family for font in scope.fonts})
    coverage: set[int] = set()
    for path in dict.fromkeys(font.file for font in scope.fonts):
        coverage |= fontfiles.coverage(path)  # FontRefused: the renderer names the file
    return FontRules(frozenset(f.casefold() for f in families), tuple(families), frozenset(coverage))


def text_problems(families: Sequence[str], text: str, rules: FontRules) -> list[tuple[str, str]]:
    """``(key, message)`` for each way text set in ``families`` (its CSS
    font-family list) breaks the rules: a family that is not declared, a list
    that starts with a generic family, a character no declared font has."""
    problems = []
    named = [f for f in families if f.casefold() not in GENERIC_FAMILIES]
    for family in named:
        if family.casefold() not in rules.families:
            problems.append(
                (f"family {family.casefold()}",
                 f"font-family {family!r} is not a declared font; declared in game.yaml (fonts:): {_listed(rules.shown)}")
            )
    if families and families[0].casefold() in GENERIC_FAMILIES:
        problems.append(
            (f"generic {families[0]}",
             f"font-family starts with {families[0]!r}, which names no font; start it with a declared one: {_listed(rules.shown)}")
        )
    for char in _undrawable(text, rules.coverage):
        problems.append(
            (f"char {ord(char)}",
             f"no declared font has {_char(char)}; declare a font that has it (fonts: in game.yaml) or draw it as art")
        )
    return problems


def _undrawable(text: str, coverage: frozenset[int]) -> Iterable[str]:
    seen = set()
    for char in text:
        if char in seen or ord(char) in coverage or _invisible(char):
            continue
        seen.add(char)
        yield char


def _invisible(char: str) -> bool:
    """Spaces, controls and format characters: drawn as no glyph, or as a space."""
    code = ord(char)
    return unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp") or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _char(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"the character {char!r} (U+{ord(char):04X}{' ' + name if name else ''})"


def _listed(families: Sequence[str]) -> str:
    return ", ".join(families) or "none"

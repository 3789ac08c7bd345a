"""Counts and lists in the words a reader expects: "1 card", "2 cards",
"1 copy"; "rings and hearts"."""

from __future__ import annotations

from collections.abc import Sequence

_IRREGULAR = {"copy": "copies", "was": "were"}


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, singular for exactly one, plural otherwise (``plural``,
    or the noun with an s, or a known irregular form)."""
    return f"{n} {number(n, noun, plural)}"


def number(n: int, noun: str, plural: str | None = None) -> str:
    """``noun`` as ``n`` of it reads, without the figure: "card" or "cards"."""
    if n == 1:
        return noun
    return plural or _IRREGULAR.get(noun) or noun + "s"


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

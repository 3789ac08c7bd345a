"""Counts in the words a reader expects: "1 card", "2 cards", "1 copy"."""

from __future__ import annotations

_IRREGULAR = {"copy": "copies"}


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, singular for exactly one, plural otherwise (``plural``,
    or the noun with an s, or a known irregular form)."""
    if n == 1:
        return f"{n} {noun}"
    return f"{n} {plural or _IRREGULAR.get(noun) or noun + 's'}"

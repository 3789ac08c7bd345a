"""Seeded draws an engine deals and decides with: each draws from a
``random.Random`` exactly what CPython 3.11's own method draws (by rejection
from ``getrandbits``), written out so that a seed deals the same cards
whichever Python runs it, with fewer Python-level calls. Exported from
:mod:`pnp.engine.api` too, where docs/engine.md names them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place, drawing from ``rng`` exactly as
    ``random.Random.shuffle`` does in CPython 3.11 (Fisher-Yates from the last
    item, each index drawn by rejection from ``getrandbits``), written out so
    that a seed deals the same cards whichever Python runs it, and without a
    Python-level call per item."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (``n`` at least 1) drawn exactly as CPython 3.11
    draws it (by rejection from ``getrandbits``, as :func:`shuffle`), in one
    Python-level call instead of three; ``seq[below(rng, len(seq))]`` is
    ``rng.choice(seq)``."""
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def sample(population: Sequence[T], k: int, rng: random.Random) -> list[T]:
    """``rng.sample(population, k)`` drawn exactly as CPython 3.11 draws it
    for a population of at most 21 items (its pool method; a larger one goes
    to ``rng.sample`` itself), written out like :func:`shuffle`."""
    n = len(population)
    if n > 21 or not 0 <= k <= n:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    result = []
    for i in range(n, n - k, -1):
        b = i.bit_length()
        j = getrandbits(b)
        while j >= i:
            j = getrandbits(b)
        result.append(pool[j])
        pool[j] = pool[i - 1]  # the vacancy takes the last item not yet chosen
    return result

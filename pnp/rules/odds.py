"""Exact odds that a random hand satisfies a goal card, by dynamic programming.

The question: a hand of ``size`` cards is dealt uniformly at random from a
deck. Each card carries signed symbols ({symbol: +1 or -1}). A goal card
names signed symbols; a symbol *matches* when the hand's total for it has the
desired sign (strictly). How likely is it that at least ``need`` match?

Only the goal card's symbols matter, so each card reduces to a small vector
of -1/0/+1 (its sign on each desired symbol, times the desired sign). Cards
with the same vector are interchangeable: the DP runs over vector types, with
binomial weights for how many of each are dealt, over an integer array indexed
by (cards dealt, total of each desired symbol). Counts are exact integers, and
the result is an exact :class:`fractions.Fraction`, never a sample.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.commit import read_record, write_record

if TYPE_CHECKING:
    import numpy as np

Signs = Mapping[str, int]


def _vector(card: Signs, goal: Signs) -> tuple[int, ...]:
    return tuple(sign * card.get(symbol, 0) for symbol, sign in goal.items())


def hand_distribution(deck: Sequence[Signs], goal: Signs, size: int) -> np.ndarray:
    """Counts of hands of up to ``size`` cards by their (desire-signed) totals.

    Returns an array of shape (size+1,) + (2*size+1,) * n, n = len(goal):
    entry [k, t1+size, ..., tn+size] is the number of k-card hands with those
    totals. One run answers every hand size up to ``size``.
    """
    import numpy as np  # here, not at the top: a game without odds rules never pays for loading it

    n = len(goal)
    if not 0 <= size <= len(deck):
        raise ValueError(f"cannot deal {size} cards from a deck of {len(deck)}")
    width = 2 * size + 1
    big = comb(len(deck), size) >= 2**62
    dtype = object if big else np.int64
    table = np.zeros((size + 1,) + (width,) * n, dtype=dtype)
    table[(0,) + (size,) * n] = 1
    for vector, count in Counter(_vector(card, goal) for card in deck).items():
        new = np.zeros_like(table)
        for taken in range(0, min(count, size) + 1):
            weight = comb(count, taken)
            source = [slice(0, size + 1 - taken)]
            target = [slice(taken, size + 1)]
            for v in vector:
                shift = v * taken
                if shift >= 0:
                    source.append(slice(0, width - shift))
                    target.append(slice(shift, width))
                else:
                    source.append(slice(-shift, width))
                    target.append(slice(0, width + shift))
            new[tuple(target)] += weight * table[tuple(source)]
        table = new
    return table


def satisfied_counts(deck: Sequence[Signs], goal: Signs, sizes: Sequence[int], need: int) -> dict[int, int]:
    """For each hand size, how many hands match at least ``need`` desired signs."""
    import numpy as np

    largest = max(sizes)
    table = hand_distribution(deck, goal, largest)
    n = len(goal)
    positive = np.arange(-largest, largest + 1) > 0
    patterns = [p for p in itertools.product((False, True), repeat=n) if sum(p) >= need]
    out = {}
    for size in sizes:
        dist = table[size]
        out[size] = sum(
            int(dist[np.ix_(*(positive if hit else ~positive for hit in pattern))].sum()) for pattern in patterns
        )
    return out


def profile(deck: Sequence[Signs], goal: Signs) -> tuple[tuple[tuple[int, ...], int], ...]:
    """What the odds depend on: how many cards of each vector type the deck
    holds, with the desired symbols put in a canonical order. Desires cards
    with the same profile have the same odds, so the DP runs once for them."""
    counts = Counter(_vector(card, goal) for card in deck)
    n = len(goal)
    return min(
        tuple(sorted((tuple(v[i] for i in order), c) for v, c in counts.items()))
        for order in itertools.permutations(range(n))
    )


class OddsCache:
    """Exact probabilities, computed once per distinct profile; with a
    ``store`` (a JSON file, such as ``output/<game>/.cache/odds.json``) kept
    from one run to the next, so an unchanged deck's odds cost neither the
    dynamic programming nor loading numpy. The store is read as untrusted:
    an entry that is not a count of hands for each size asked, each at most
    the number of hands there are, is worked out again."""

    def __init__(self, store: Path | None = None) -> None:
        self._done: dict[tuple[object, ...], dict[int, Fraction]] = {}
        self._store = store
        self._kept = read_record(store) if store is not None else {}
        self._new = False

    def probabilities(self, deck: Sequence[Signs], goal: Signs, sizes: Sequence[int], need: int) -> dict[int, Fraction]:
        key = (profile(deck, goal), tuple(sorted(sizes)), need)
        if key not in self._done:
            name = hashlib.sha256(repr((STORE_VERSION, key)).encode()).hexdigest()
            counts = _sound(self._kept.get(name), len(deck), key[1])
            if counts is None:
                counts = satisfied_counts(deck, goal, sizes, need)
                self._kept[name] = {str(size): count for size, count in counts.items()}
                self._new = True
            self._done[key] = {size: Fraction(count, comb(len(deck), size)) for size, count in counts.items()}
        return self._done[key]

    def save(self) -> None:
        """Write the store, if this run worked out anything new."""
        if self._store is not None and self._new:
            write_record(json.dumps(self._kept, sort_keys=True).encode(), self._store)
            self._new = False

    @property
    def runs(self) -> int:
        return len(self._done)


STORE_VERSION = 1
"""Part of every stored entry's name: a change to what :func:`profile`
means, or to how counts are made, bumps it."""


def _sound(entry: object, cards: int, sizes: tuple[int, ...]) -> dict[int, int] | None:
    """A stored entry's counts per size, when it is one for exactly ``sizes``
    and each count could be one; else None."""
    if not isinstance(entry, dict) or sorted(entry) != sorted(str(size) for size in sizes):
        return None
    counts = {size: entry[str(size)] for size in sizes}
    if not all(type(n) is int and 0 <= n <= comb(cards, size) for size, n in counts.items()):
        return None
    return counts


def probabilities(deck: Sequence[Signs], goal: Signs, sizes: Sequence[int], need: int) -> dict[int, Fraction]:
    """Exact probabilities, per hand size, that a random hand satisfies ``goal``."""
    counts = satisfied_counts(deck, goal, sizes, need)
    return {size: Fraction(count, comb(len(deck), size)) for size, count in counts.items()}


def probability(deck: Sequence[Signs], goal: Signs, size: int, need: int) -> Fraction:
    """The exact probability that a uniformly random hand satisfies ``goal``."""
    return probabilities(deck, goal, [size], need)[size]


def brute_force(deck: Sequence[Signs], goal: Signs, size: int, need: int) -> Fraction:
    """The same by listing every hand: for tests on small decks."""
    hits = 0
    hands = 0
    for hand in itertools.combinations(deck, size):
        hands += 1
        matched = 0
        for symbol, sign in goal.items():
            if sign * sum(card.get(symbol, 0) for card in hand) > 0:
                matched += 1
        hits += matched >= need
    return Fraction(hits, hands)


def at_least_of_kind(total: int, matching: int, hand: int, need: int) -> Fraction:
    """Exact hypergeometric tail: the chance that ``hand`` cards dealt from
    ``total`` include at least ``need`` of the ``matching`` ones."""
    if hand > total:
        raise ValueError(f"cannot deal {hand} cards from a deck of {total}")
    hits = sum(comb(matching, x) * comb(total - matching, hand - x) for x in range(need, min(hand, matching) + 1))
    return Fraction(hits, comb(total, hand))

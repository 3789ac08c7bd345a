"""Persuasion B04's shortcuts for speed give exactly what the plain counts give."""

from __future__ import annotations

import random

from pnp.testing import engine, game_folder

B04, GAME = engine(game_folder(__file__))
agents = B04.agents
DECK = B04.prepare(GAME, dict(GAME.engine.options))


def _at_least_by_counting(chances: list[float], need: int) -> float:
    """The chance that ``need`` of independent events happen, every way counted."""
    ways = [1.0] + [0.0] * len(chances)
    for p in chances:
        ways = [ways[0] * (1 - p)] + [ways[k] * (1 - p) + ways[k - 1] * p for k in range(1, len(ways))]
    return sum(ways[need:])


def _odds_plainly(desires: int, size: int, known: frozenset[int]) -> float:
    """The odds as the known cards' sums and :func:`_tails` give them, one symbol at a time."""
    sums = [sum(DECK.vectors[card][symbol] for card in known) for symbol in range(len(DECK.symbols))]
    unknown = size - len(known)
    chances = []
    for symbol, sign in enumerate(DECK.vectors[desires]):
        if sign:
            row = agents._tails(DECK, symbol, sign)[unknown]
            at = unknown - sign * sums[symbol]
            chances.append(0.0 if at >= len(row) else 1.0 if at < 0 else row[at])
    return _at_least_by_counting(chances, agents.NEED)


def test_b04_two_of_three_written_out_is_the_count_bit_for_bit() -> None:
    rng = random.Random(1)
    cases = [[rng.random() for _ in range(3)] for _ in range(2000)] + [[0.0, 1.0, 0.5], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    for chances in cases:
        assert agents._at_least(chances, 2) == _at_least_by_counting(chances, 2), chances
    for chances in ([0.3, 0.6], [0.1, 0.2, 0.3, 0.4]):
        assert agents._at_least(chances, 2) == _at_least_by_counting(chances, 2)


def test_b04_odds_from_packed_sums_are_the_plain_odds() -> None:
    """Every hand size, and known cards from none to a whole hand, agreeing and not."""
    rng = random.Random(2)
    memo: dict[object, object] = {}
    cards = range(len(DECK.ids))
    for size in sorted(set(DECK.hand_size.values())):
        for _ in range(300):
            desires = rng.choice(cards)
            known = frozenset(rng.sample(cards, rng.randint(0, size)))
            assert agents._odds(memo, DECK, desires, size, known) == _odds_plainly(desires, size, known), (desires, size, known)

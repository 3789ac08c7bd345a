"""Persuasion B04's shortcuts for speed give exactly what the plain counts give."""

from __future__ import annotations

import random
from typing import Any

import pytest

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


def _mail_afresh(state: Any) -> Any:
    """The public mail worked out from the letterboxes themselves."""
    p, n = state._pending, state.n
    if not p:
        return B04.views.Mail(((),) * n, ((),) * n, frozenset(), frozenset(), frozenset(), (), (), (0,) * n)
    inbox = p.get("inbox") or [{"invite": [], "propose": []}] * n
    return B04.views.Mail(
        tuple(tuple(s for s, _ in box["invite"]) for box in inbox), tuple(tuple(s for s, _ in box["propose"]) for box in inbox),
        frozenset(p["touched"]), frozenset(p["refused"]), frozenset(p["received"]), tuple(p["turns"]), tuple(p.get("reflecting", ())),
        tuple(len(state.away & set(hand)) for hand in state.hands),
    )


@pytest.mark.parametrize("players", [3, 4, 6, 8])
def test_b04_mail_kept_up_to_date_is_the_mail_worked_out_afresh(players: int) -> None:
    """The public mail and each seat's cards away, at every decision of many
    games, and in states dealt for a search."""
    for g in range(60):
        seed = f"5:{g}"
        rng = random.Random(seed)
        state = B04.state.B04State(DECK, players, random.Random(seed))
        agents = [B04.agents.AGENTS["heuristic" if (g + s) % 2 else "random"]() for s in range(players)]
        while (decision := state.decision()) is not None:
            obs = state.observation(decision.seat)
            assert obs.mail == _mail_afresh(state), (seed, decision)
            assert obs.lent == state.away.intersection(state.hands[decision.seat]), (seed, decision)
            if g % 10 == 0:
                dealt = B04.determinize(DECK, obs, decision, rng)
                assert dealt.observation(decision.seat).mail == obs.mail == _mail_afresh(dealt), (seed, decision)
                assert dealt._lent == [dealt.away.intersection(hand) for hand in dealt.hands], (seed, decision)
                assert dealt.observation(decision.seat).lent == obs.lent, (seed, decision)
            state.apply(agents[decision.seat](obs, decision, rng))

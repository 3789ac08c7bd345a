"""Persuasion B04's cards and matrimony: the trait deck as the engine uses it,
symbol totals, and :func:`judge`, the one scorer of B04 (the engine's outcome
and ``pnp score``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pnp.engine.api import EngineError

AVAILABLE, ENGAGED, INDEPENDENT = "available", "engaged", "independent"
NEED = 2
"""Matching dominant symbols a desires card needs."""


@dataclass(frozen=True)
class Deck:
    """The trait deck as the engine uses it: ids, and each card's signs as a vector."""

    ids: tuple[str, ...]
    symbols: tuple[str, ...]
    vectors: tuple[tuple[int, ...], ...]
    hand_size: Mapping[int, int]
    crests: tuple[str, ...] = ()
    """The families' crest ids (for reading a real table); empty: any name."""
    round_cap: int = 60
    """Rounds after which a stalled game goes to matrimony (``engine.options.round_cap``)."""

    @classmethod
    def from_cards(
        cls, cards: Sequence[tuple[str, Mapping[str, int]]], symbols: Sequence[str], hand_size: Mapping[int, int],
        crests: Sequence[str] = (), round_cap: int = 60,
    ) -> Deck:
        vectors = tuple(tuple(int(signs.get(s, 0)) for s in symbols) for _, signs in cards)
        return cls(tuple(card_id for card_id, _ in cards), tuple(symbols), vectors, MappingProxyType(dict(hand_size)), tuple(crests), round_cap)


def totals(deck: Deck, hand: Sequence[int]) -> list[int]:
    """Each symbol's sum of signs over ``hand``."""
    if not hand:
        return [0] * len(deck.symbols)
    vectors = deck.vectors
    return [sum(column) for column in zip(*[vectors[card] for card in hand])]


def matches(desires: Sequence[int], hand_totals: Sequence[int]) -> int:
    """How many of the desires card's signed symbols are dominant, with that sign."""
    return sum(1 for want, have in zip(desires, hand_totals) if want and want * have > 0)


@dataclass(frozen=True)
class Verdict:
    wins: bool
    why: str


def judge(
    names: Sequence[str], wants: Sequence[Sequence[int]], sums: Sequence[Sequence[int]], status: Sequence[str], fiance: Sequence[int],
    words: bool = True,
) -> list[Verdict]:
    """Matrimony by the B04 rules, the one scorer of B04 (the engine's outcome
    and ``pnp score``): ``wants`` are the desires cards' signs, ``sums`` each
    hand's symbol totals, ``names`` how to call each player in the reasons
    (``words`` False: no reasons, as a simulated game never reads them)."""
    out = []
    for seat, kind in enumerate(status):
        if kind == ENGAGED:
            partner = fiance[seat]
            got = matches(wants[seat], sums[partner])
            why = f"{got} of the desired signs are dominant in {names[partner]}'s hand (needs {NEED})" if words else ""
            out.append(Verdict(got >= NEED, why))
        elif kind == INDEPENDENT:
            won = all(matches(wants[seat], sums[p]) < NEED for p in range(len(status)) if p != seat)
            why = ""
            if words:
                best = max(((matches(wants[seat], sums[p]), names[p]) for p in range(len(status)) if p != seat), default=(0, "nobody"))
                why = f"no other hand has {NEED} of the desired signs (best: {best[1]} with {best[0]})" if won else f"{best[1]}'s hand has {best[0]} of the desired signs"
            out.append(Verdict(won, why))
        elif kind == AVAILABLE:
            out.append(Verdict(False, "still available at matrimony" if words else ""))
        else:
            raise EngineError(f"unknown status {kind!r}")
    return out


def winners(deck: Deck, desires: Sequence[int], hands: Sequence[Sequence[int]], status: Sequence[str], fiance: Sequence[int]) -> list[bool]:
    """Matrimony: who wins, by the B04 rules (:func:`judge` on the engine's cards)."""
    sums = [totals(deck, hand) for hand in hands]
    wants = [deck.vectors[d] for d in desires]
    return [v.wins for v in judge((), wants, sums, status, fiance, words=False)]


def deck_from_game(game: Any, options: Mapping[str, Any]) -> Deck:
    """The trait deck of a loaded game, as the engine options in game.yaml name it."""
    component = game.component(options["deck"])
    field = options["field"]
    symbols = [e.id for e in game.sets[options["symbols"]]]
    cards = [(card.id, dict(card.fields[field])) for card in component.cards for _ in range(card.copies)]
    table = {int(k): int(v) for k, v in game.rules[options["hand"]].items()}
    crests = tuple(e.id for e in game.sets.get(options.get("crests", "crests"), ()))
    return Deck.from_cards(cards, symbols, table, crests, int(options.get("round_cap", 60)))

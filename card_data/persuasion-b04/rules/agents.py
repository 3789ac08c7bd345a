"""Agents for Persuasion B04. Each decides from its own observation only.

- ``random``: a uniformly random legal option at every decision.
- ``heuristic``: works out, from the cards it knows to be in each hand, the
  chance that the hand will show enough of its desires (each unknown card
  drawn, as it were, from the deck); declares independence when the chance
  that no hand does is high enough, proposes to the suitor whose chance is
  high enough, settles for less as rounds pass and as fewer players remain
  available (a player left over cannot win), and otherwise invites the
  suitor it knows least about.
- restricted variants of the heuristic: ``never-propose``, ``never-independent``,
  ``share-best`` (always shows its card that best fits its own desires).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from operator import mul
from typing import Any

from pnp.engine.api import Agent, Decision
from .deck import AVAILABLE, NEED, Deck
from .views import Answers, Observation


_FACTS: dict[int, dict[Any, Any]] = {}
"""Per deck (by id, each entry dropped when its deck is collected, so a later
deck at the same address never reads it): what the heuristic works out from
the deck alone (tables, and odds under "odds"), kept across games and out of
reach of any observation."""
_ODDS_MAX = 1 << 16
"""Odds kept per deck (one per desires card, hand size and set of known cards) before they are dropped."""


def _facts(deck: Deck) -> dict[Any, Any]:
    """The deck's facts (:data:`_FACTS`); its odds memo, under "odds", is
    emptied by :func:`_odds` when it outgrows :data:`_ODDS_MAX`."""
    found = _FACTS.get(id(deck))
    if found is None:
        found = _FACTS[id(deck)] = {"odds": {}}
        weakref.finalize(deck, _FACTS.pop, id(deck), None)
    return found


def warm(deck: Deck) -> None:
    """Work out what the heuristic reads from the deck alone (each card's fit
    and odds plan, for every hand size) before any game, so no game pays for it."""
    for desires in range(len(deck.ids)):
        _fits(deck, desires)
        for size in set(deck.hand_size.values()):
            _plan(deck, desires, size)


def _fits(deck: Deck, desires: int) -> list[int]:
    """How well each card fits ``desires`` (sum of agreeing signs)."""
    key = ("fit", desires)
    found: list[int] | None = _facts(deck).get(key)
    if found is None:
        want = deck.vectors[desires]
        found = _facts(deck)[key] = [sum(map(mul, want, vector)) for vector in deck.vectors]
    return found


def _fit(obs: Observation) -> list[int]:
    """How well each card fits the seat's desires (:func:`_fits`)."""
    return _fits(obs.deck, obs.desires)


def _pick(rng: random.Random, count: int) -> int:
    """A uniform index below ``count``: random() is several times cheaper than randrange()."""
    return int(rng.random() * count)


def random_agent(obs: Observation, decision: Decision, rng: random.Random) -> Any:
    return decision.options[_pick(rng, len(decision.options))]


def _tails(deck: Deck, symbol: int, sign: int) -> list[list[float]]:
    """``[u][m]``: the chance that ``u`` cards drawn from the deck sum, on
    ``symbol`` times ``sign``, to more than ``m - u`` (the deck taken as an
    urn with replacement); computed once per deck and symbol."""
    memo = _facts(deck)
    key = ("tails", symbol, sign)
    found: list[list[float]] | None = memo.get(key)
    if found is None:
        values = [sign * vector[symbol] for vector in deck.vectors]
        step = {v: values.count(v) / len(values) for v in (-1, 0, 1)}
        found, dist = [], {0: 1.0}
        for u in range(max(deck.hand_size.values()) + 1):
            found.append([sum(p for total, p in dist.items() if total > m - u) for m in range(2 * u + 1)])
            grown: dict[int, float] = {}
            for total, p in dist.items():
                for v, q in step.items():
                    grown[total + v] = grown.get(total + v, 0.0) + p * q
            dist = grown
        memo[key] = found
    return found


def _chances(deck: Deck, symbol: int, sign: int, size: int) -> list[list[float]]:
    """``[unknown][digit]``: the chance that a hand of ``size`` cards, ``unknown``
    of them unknown, has ``symbol`` dominant with ``sign`` when its known cards
    make ``digit`` (:func:`_plan`): the sum its unknown cards need being
    ``size - digit`` whatever is unknown (:func:`_tails`)."""
    key = ("chances", symbol, sign, size)
    found: list[list[float]] | None = _facts(deck).get(key)
    if found is None:
        tails = _tails(deck, symbol, sign)
        found = _facts(deck)[key] = [
            [0.0 if size - digit >= len(tails[unknown]) else 1.0 if size - digit < 0 else tails[unknown][size - digit] for digit in range(2 * size + 1)]
            for unknown in range(size + 1)
        ]
    return found


def _plan(deck: Deck, desires: int, size: int) -> tuple[int, list[int], list[tuple[int, list[list[float]]]]]:
    """How :func:`_odds` reads a hand of ``size`` cards for ``desires``, made
    once per deck: each card's signs on the desired symbols (agreeing +1 as 2,
    none as 1, against as 0) packed into one number, a symbol a digit, so that
    the known cards' numbers add up to every symbol's count at once (digit =
    sum + cards known); a digit's mask, and per desired symbol its digit's
    shift and :func:`_chances`."""
    key = ("plan", desires, size)
    found: tuple[int, list[int], list[tuple[int, list[list[float]]]]] | None = _facts(deck).get(key)
    if found is None:
        width = (2 * size + 1).bit_length()
        signed = [(symbol, sign) for symbol, sign in enumerate(deck.vectors[desires]) if sign]
        packed = [0] * len(deck.vectors)
        for i, (symbol, sign) in enumerate(signed):
            packed = [number + ((sign * vector[symbol] + 1) << (width * i)) for number, vector in zip(packed, deck.vectors)]
        rows = [(width * i, _chances(deck, symbol, sign, size)) for i, (symbol, sign) in enumerate(signed)]
        found = _facts(deck)[key] = ((1 << width) - 1, packed, rows)
    return found


def _odds(memo: dict[Any, Any], deck: Deck, desires: int, size: int, known: frozenset[int]) -> float:
    """The chance that a hand of ``size`` cards holding ``known`` (the rest
    unknown, each drawn as from the deck) has NEED of ``desires``' signs
    dominant. It depends on the deck alone, so it is kept in the deck's memo
    (:func:`_facts`)."""
    key = (desires, size, known)
    found: float | None = memo.get(key)
    if found is None:
        mask, packed, rows = _facts(deck).get(("plan", desires, size)) or _plan(deck, desires, size)
        unknown = size - len(known)
        digits = sum(map(packed.__getitem__, known))
        each = []
        for shift, chances in rows:  # a loop, not a comprehension: no call of its own
            each.append(chances[unknown][digits >> shift & mask])
        if len(memo) >= _ODDS_MAX:
            memo.clear()
        found = memo[key] = _at_least(each, NEED)
    return found


def _at_least(chances: list[float], need: int) -> float:
    """The chance that at least ``need`` of independent events happen (2 of 3,
    every B04 desires card's case, written out: the same arithmetic)."""
    if need == 2 and len(chances) == 3:
        p1, p2, p3 = chances
        both = p1 * p2
        return both * (1 - p3) + (p1 * (1 - p2) + (1 - p1) * p2) * p3 + both * p3
    ways = [1.0] + [0.0] * len(chances)
    for seen, p in enumerate(chances, 1):
        q = 1 - p
        for k in range(seen, 0, -1):  # above ``seen`` events every way is still 0.0
            ways[k] = ways[k] * q + ways[k - 1] * p
        ways[0] *= q
    return sum(ways[need:])


@dataclass(frozen=True)
class Heuristic:
    propose_at: float = 0.8
    """Chance that a suitor's hand suits, to propose or accept early on."""
    independent_at: float = 0.8
    """Chance that no other hand suits, to declare independence early on."""
    settle: float = 0.06
    """How much lower both bars go each round."""
    crowded: float = 0.1
    """How much lower both bars lie when three players or fewer are available."""
    keen: float = 0.25
    """How much lower the bar to accept a proposal lies than the bar to make one."""
    can_propose: bool = True
    can_go_independent: bool = True
    share_best: bool = False

    def __call__(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        decide: Callable[[Heuristic, Observation, Decision, random.Random], Any] = _BY_KIND[decision.kind]
        return decide(self, obs, decision, rng)

    # what the agent believes

    def _odds(self, obs: Observation, seat: int) -> float:
        """The chance that ``seat``'s hand has NEED of this seat's desired signs
        dominant, from the cards known to be in it."""
        return _odds(_facts(obs.deck)["odds"], obs.deck, obs.desires, obs.hand_sizes[seat], obs.known[seat])

    def _bar(self, obs: Observation, base: float) -> float:
        """A bar that falls as rounds pass, and lies low when this seat may be left over."""
        return self._bars(obs, obs.status.count(AVAILABLE), base, base)[0]

    def _bars(self, obs: Observation, available: int, one: float, other: float) -> tuple[float, float]:
        """:meth:`_bar` for two bases, ``available`` players being available."""
        if obs.last_round or available <= 2:
            return 0.0, 0.0
        fall = self.settle * (obs.round - 1)
        if available <= 3:
            return one - fall - self.crowded, other - fall - self.crowded
        return one - fall, other - fall

    def _best_card(self, obs: Observation, cards: Any) -> int:
        """The card that best fits this seat's own desires."""
        fit = _fit(obs)
        best: int = max(cards, key=fit.__getitem__)
        return best

    # decisions

    def _intention(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        me, status, desires, sizes, deck = obs.seat, obs.status, obs.desires, obs.hand_sizes, obs.deck
        memo = _facts(deck)["odds"]
        odds = [0.0] * len(status)  # :func:`_odds` for every other seat's hand
        alone = 1.0
        suitors = []
        for p, known in enumerate(obs.known):
            if p != me:
                chance = memo.get((desires, sizes[p], known))  # the memo read inline: the common case
                if chance is None:
                    chance = _odds(memo, deck, desires, sizes[p], known)
                odds[p] = chance
                alone *= 1 - chance
                if status[p] == AVAILABLE:
                    suitors.append(p)
        if not suitors:
            return ("independent",)
        start = int(rng.random() * len(suitors))  # a random rotation: ties favour no seat (_pick written out)
        suitors = suitors[start:] + suitors[:start]
        best = max(suitors, key=odds.__getitem__)
        propose_bar, independent_bar = self._bars(obs, len(suitors) + 1, self.propose_at, self.independent_at)
        propose = self.can_propose and odds[best] >= propose_bar
        independent = self.can_go_independent and alone >= independent_bar
        if independent and (not propose or alone >= odds[best]):
            return ("independent",)
        if propose or obs.last_round:
            return ("propose", best, self._best_card(obs, obs.hand))
        target = min(suitors, key=list(map(len, obs.known)).__getitem__)  # the suitor it knows least about
        hand = obs.hand
        card = self._best_card(obs, hand) if self.share_best else hand[int(rng.random() * len(hand))]  # _pick
        return ("invite", target, card)

    def _proposal(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        offers = decision.context["offers"]
        start = _pick(rng, len(offers))  # a random rotation: ties favour no proposer
        suitors = [s for s, _ in offers[start:] + offers[:start]]
        best = max(suitors, key=lambda s: self._odds(obs, s))
        return ("accept", best) if self._odds(obs, best) >= self._bar(obs, self.propose_at) - self.keen else "refuse"

    def _invitation(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        sender = decision.context["from"]
        if len(obs.known[sender]) >= obs.hand_sizes[sender]:
            return "refuse"
        free = decision.options.hand if isinstance(decision.options, Answers) else [o[1] for o in decision.options if o != "refuse"]
        return ("accept", self._best_card(obs, free) if self.share_best else free[int(rng.random() * len(free))])  # _pick

    def _give(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return self._best_card(obs, decision.options)

    def _sort(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return decision.options[0]  # invitations first, in sender order: learn what you can before a proposal

    def _mutual(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        """Both proposed: accept too, giving the fiance the card that best fits this seat's desires."""
        return self._best_card(obs, [c for c in decision.options if c != "refuse"])

    def _draw(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return "draw"

    def _reflect(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        """Keep the drawn card in place of the card that fits this seat's desires
        least, if it fits better: a better card to give a fiance."""
        fit = _fit(obs)
        worst = min(obs.hand, key=fit.__getitem__)
        return ("swap", worst) if fit[decision.context["drawn"]] > fit[worst] else "keep"


_BY_KIND: dict[str, Any] = {
    kind: getattr(Heuristic, "_" + kind)
    for kind in ("intention", "proposal", "invitation", "give", "sort", "mutual", "draw", "reflect")
}
"""Each kind of decision's method, looked up once."""

AGENTS: dict[str, Callable[[], Agent[Observation]]] = {
    "random": lambda: random_agent,
    "heuristic": lambda: Heuristic(),
    "never-propose": lambda: Heuristic(can_propose=False),
    "never-independent": lambda: Heuristic(can_go_independent=False),
    "share-best": lambda: Heuristic(share_best=True),
}

"""Agents for Persuasion B04. Each decides from its own observation only.

- ``random``: a uniformly random legal option at every decision.
- ``heuristic``: estimates, from the cards it has seen, how well each suitor's
  hand answers its desires; proposes when a suitor looks right and enough of
  their hand is known, goes independent when everyone is known and no one
  fits, and otherwise invites the suitor it knows least about.
- restricted variants of the heuristic: ``never-propose``, ``never-independent``,
  ``share-best`` (always shows its card that best fits its own desires).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnp.engine.api import Agent, Decision
from .state import AVAILABLE, NEED, Answers, Observation


_PACKED: dict[tuple[int, int], tuple[list[int], int]] = {}
_DECODED: dict[tuple[int, int, int], int] = {}
"""Packed total and card count -> matching symbols, shared by every game."""
_BASE = 64
"""Digits of a packed vector: a hand of up to 31 cards cannot carry between them."""


def _packed(obs: Observation) -> tuple[list[int], int]:
    """Every card's signs on the desired symbols, times the desired sign (so a
    positive total is a match), packed one base-64 digit a symbol with +1
    added, so summing ints sums vectors; computed once per deck and desires."""
    key = (id(obs.deck), obs.desires)
    found = _PACKED.get(key)
    if found is None:
        want = obs.deck.vectors[obs.desires]
        wanted = [i for i, w in enumerate(want) if w]
        packed = [
            sum((want[i] * vector[i] + 1) * _BASE**j for j, i in enumerate(wanted)) for vector in obs.deck.vectors
        ]
        if len(_PACKED) > 4096:
            _PACKED.clear()
        found = _PACKED[key] = (packed, len(wanted))
    return found


_FIT: dict[tuple[int, int], list[int]] = {}


def _fit(obs: Observation) -> list[int]:
    """How well each card fits the seat's desires (sum of agreeing signs)."""
    key = (id(obs.deck), obs.desires)
    found = _FIT.get(key)
    if found is None:
        want = obs.deck.vectors[obs.desires]
        if len(_FIT) > 4096:
            _FIT.clear()
        found = _FIT[key] = [sum(w * v for w, v in zip(want, vector)) for vector in obs.deck.vectors]
    return found


def _pick(rng: random.Random, count: int) -> int:
    """A uniform index below ``count``: random() is several times cheaper than randrange()."""
    return int(rng.random() * count)


def random_agent(obs: Observation, decision: Decision, rng: random.Random) -> Any:
    return decision.options[_pick(rng, len(decision.options))]


@dataclass(frozen=True)
class Heuristic:
    propose_at: float = 0.4
    """Share of a suitor's hand that must be known before proposing."""
    independent_at: float = 0.5
    """Share of every suitor's hand that must be known before going independent."""
    can_propose: bool = True
    can_go_independent: bool = True
    share_best: bool = False
    patience: int = 8
    """After this many rounds one matching symbol is enough to propose or accept;
    after twice as many, any proposal is accepted and the best-known suitor courted."""

    def __call__(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        kind = decision.kind
        if kind == "intention":
            return self._intention(obs, decision, rng)
        if kind == "invitation":
            return self._invitation(obs, decision, rng)
        return getattr(self, "_" + kind)(obs, decision, rng)  # proposal, give, sort, mutual, draw, reflect

    # what the agent believes

    def _estimate(self, obs: Observation, seat: int) -> tuple[int, float]:
        """(matching dominant symbols seen so far, share of the hand seen).

        What a seat has seen of a suitor only grows, so the estimate is kept in
        the seat's notebook until another card is seen."""
        known = obs.seen[seat]
        count = len(known)
        notes = obs.notes
        noted = notes.get(seat)
        if noted is not None and noted[0] == count:
            return noted[1]  # type: ignore[no-any-return]
        packing = notes.get("packed")
        if packing is None:
            packing = notes["packed"] = _packed(obs)
        packed, width = packing
        total = sum([packed[card] for card in known])
        matched = _DECODED.get((total, count, width))
        if matched is None:
            matched, rest = 0, total
            for _ in range(width):
                rest, digit = divmod(rest, _BASE)
                if digit > count:  # the symbol's total is positive
                    matched += 1
            if len(_DECODED) > 100_000:
                _DECODED.clear()
            _DECODED[(total, count, width)] = matched
        result = (matched, count / obs.hand_sizes[seat])
        notes[seat] = (count, result)
        return result

    def _best_card(self, obs: Observation, cards: Any) -> int:
        """The card that best fits this seat's own desires."""
        fit = _fit(obs)
        best: int = max(cards, key=fit.__getitem__)
        return best

    # decisions

    def _intention(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        me, status, last = obs.seat, obs.status, obs.last_round
        need = self._need(obs)
        known_enough = need < NEED or last
        best: tuple[int, float] | None = None
        target = -1
        everyone_known = nobody_fits = True
        least = 2.0
        fewest: list[int] = []
        notes, seen, estimate = obs.notes, obs.seen, self._estimate
        independent_at, propose_at = self.independent_at, self.propose_at
        players = len(status)
        start = _pick(rng, players)  # suitors in a random rotation: ties favour no seat
        for k in range(players):
            p = (start + k) % players
            if p == me:
                continue
            noted = notes.get(p)
            view = noted[1] if noted is not None and noted[0] == len(seen[p]) else estimate(obs, p)
            matched, share = view
            if share < independent_at:
                everyone_known = False
            if matched >= NEED:
                nobody_fits = False
            if status[p] != AVAILABLE:
                continue
            if matched >= need and (known_enough or share >= propose_at) and (best is None or view > best):
                best, target = view, p
            if share < least:
                least, fewest = share, [p]
            elif share == least:
                fewest.append(p)
        if best is not None and self.can_propose:
            return ("propose", target, self._best_card(obs, obs.hand))
        if self.can_go_independent and ((everyone_known and nobody_fits) or last):
            return ("independent",)
        if not fewest:
            return ("independent",)
        if last and self.can_propose:
            chosen = max(fewest, key=lambda p: self._estimate(obs, p))
            return ("propose", chosen, self._best_card(obs, obs.hand))
        chosen = fewest[_pick(rng, len(fewest))] if len(fewest) > 1 else fewest[0]
        hand = obs.hand
        card = self._best_card(obs, hand) if self.share_best else hand[_pick(rng, len(hand))]
        return ("invite", chosen, card)

    def _need(self, obs: Observation) -> int:
        """Matches the agent settles for: fewer as the game drags on."""
        if obs.last_round or obs.round > 2 * self.patience:
            return 0
        return NEED - 1 if obs.round > self.patience else NEED

    def _proposal(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        best: Any = "refuse"
        best_view = (-1, -1.0)
        need = self._need(obs)
        offers = decision.context["offers"]
        start = _pick(rng, len(offers))  # in a random rotation: ties favour no proposer
        for k in range(len(offers)):
            s = offers[(start + k) % len(offers)][0]
            view = self._estimate(obs, s)
            if view[0] >= need and view > best_view:
                best, best_view = ("accept", s), view
        return best

    def _invitation(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        sender = decision.context["from"]
        noted = obs.notes.get(sender)
        share = noted[1][1] if noted is not None and noted[0] == len(obs.seen[sender]) else self._estimate(obs, sender)[1]
        if share >= 1:
            return "refuse"
        free = decision.options.hand if isinstance(decision.options, Answers) else [o[1] for o in decision.options if o != "refuse"]
        return ("accept", self._best_card(obs, free) if self.share_best else free[_pick(rng, len(free))])

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
        return "keep"


AGENTS: dict[str, Callable[[], Agent]] = {
    "random": lambda: random_agent,
    "heuristic": lambda: Heuristic(),
    "never-propose": lambda: Heuristic(can_propose=False),
    "never-independent": lambda: Heuristic(can_go_independent=False),
    "share-best": lambda: Heuristic(share_best=True),
}

"""Agents for Partisan. Each decides from its own :class:`View` only.

- ``random``: a uniformly random legal option at every decision.
- ``heuristic``: reads the table as if the game ended now. It raises the card
  whose suits it can still win, gathers chips from topics that score for
  others (else from the supply), keeps a chip as a partisan while its group is
  close, and otherwise moves it to a topic that scores for itself; in the last
  round it pushes each chip where the table, scored now, gains it most.
- ``partisan-first``: the heuristic without the last round's scoring
  (partisans while a group is close, to the very end).
- ``lookahead`` (:mod:`.lookahead`): plays candidate options out to the end
  in guessed deals of the hidden cards; about two hundred times slower.
- ``partisan-only`` and ``topics-only``: the heuristic that always makes every
  pushed chip a partisan, or never does (for the designer's "what if").
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from pnp.engine.api import Decision, Product

from .scoring import Won, control
from .state import PARTY, STAY
from .table import SUPPLY, Card, Public, View, won_groups


def _parts(decision: Decision) -> tuple[Sequence[Any], ...]:
    """The parts of a gather or push decision (one per suit, one per chip)."""
    options = decision.options
    assert isinstance(options, Product)
    return options.parts


def _pick(rng: random.Random, count: int) -> int:
    return int(rng.random() * count)


def random_agent(view: View, decision: Decision, rng: random.Random) -> Any:
    return decision.options[_pick(rng, len(decision.options))]


def margin(table: Public, seat: int, suit: int) -> int:
    """My partisans of ``suit`` less the most any other seat holds."""
    mine, best = table.partisans[seat][suit], table.best[suit]
    return mine - (best if mine < best or table.at_best[suit] > 1 else table.second[suit])


@dataclass(frozen=True)
class Heuristic:
    keep_within: int = 1
    """Make a chip a partisan while my margin in its group is at most this (and the group is winnable)."""
    give_up_below: int = -3
    """A group I trail by more than this is not worth partisans."""
    always_party: bool = False
    never_party: bool = False
    wanted: tuple[float, float] = field(init=False, repr=False, compare=False)
    """(low, high): a margin in low < margin <= high makes a chip a partisan
    (every margin with ``always_party``, none with ``never_party``)."""

    def __post_init__(self) -> None:
        wanted = (-math.inf, math.inf) if self.always_party else (0, 0) if self.never_party else (self.give_up_below, self.keep_within)
        object.__setattr__(self, "wanted", wanted)

    def __call__(self, view: View, decision: Decision, rng: random.Random) -> Any:
        kind = decision.kind
        if kind == "gather":
            return self.gather(view, decision)
        if kind == "push":
            return self.push(view, decision)
        if kind == "raise":
            return self.raise_(view, decision, rng)
        return self.settle(view, decision)

    def raise_(self, view: View, decision: Decision, rng: random.Random) -> Card:
        """The card whose suits I would most make partisans of (a wanted suit
        1, another 0.6, a tenth at random to break ties)."""
        table = view.table
        mine, top, at_top, second = table.partisans[view.seat], table.best, table.at_best, table.second
        low, high = self.wanted
        cards: Sequence[Card] = decision.options
        best, choice = -1.0, cards[0]
        for card in cards:
            value = rng.random() * 0.1
            for s in card.suits:  # margin(), inlined: the hottest loop
                m = mine[s] - (top[s] if mine[s] < top[s] or at_top[s] > 1 else second[s])
                value += 1.0 if low < m <= high else 0.6
            if value > best:
                best, choice = value, card
        return choice

    def gather(self, view: View, decision: Decision) -> tuple[Any, ...]:
        """For each suit of the new topic (the parts of the options) a source:
        a topic that scores for another seat if any, else the supply, else a
        topic nobody takes; never one that scores for me."""
        seat, won, topics = view.seat, view.table.won, view.table.topics
        picks = []
        for options in _parts(decision):
            best, choice = 0.0, None
            for option in options:
                if option is None:
                    continue
                source = option[0]
                if source is SUPPLY:  # the engine's own options: its constant
                    value = 0.5
                elif won:
                    who = control(topics[source], won)
                    if who is not None and who != seat and who != -1:
                        choice = option  # scores for another seat: nothing is worth more
                        break
                    value = -0.5 if who == seat else 0.3
                else:  # no group won yet: no topic scores for anyone
                    value = 0.3
                if value > best:
                    best, choice = value, option
            picks.append(choice)
        return tuple(picks)

    def push(self, view: View, decision: Decision) -> tuple[Any, ...]:
        """A place for each chip on the new topic (the parts of the options):
        a partisan while its group is close (always the leader); otherwise
        onto the biggest topic the chip makes or keeps mine (:meth:`onto`); else left."""
        table, seat = view.table, view.seat
        low, high = self.wanted
        winning = seat in table.owners  # no topic can be mine while I win no group
        places = []
        for suit, lead in decision.context["chips"]:
            if lead or low < margin(table, seat, suit) <= high:
                places.append(PARTY)
            else:
                places.append(self.onto(table, seat, suit) if winning else STAY)
        return tuple(places)

    def onto(self, table: Public, seat: int, suit: int) -> Any:
        """The biggest topic a chip of ``suit`` makes or keeps mine (one it
        makes mine first), else :data:`STAY`. The topics a chip may move to
        are every one but the last, raised this turn (read from the table:
        no lookup of each place's card)."""
        won = table.won
        counts = table.owners[suit] is not None  # a chip of a group nobody wins changes no topic's owner
        best = 0.0
        choice: Any = STAY
        for card, chips in islice(table.topics.items(), len(table.topics) - 1):
            if counts:
                after = list(chips)
                after[suit] += 1
                then = control(after, won)
            else:
                then = control(chips, won)  # the same owner before and after
            if then == seat:
                was_mine = control(chips, won) == seat if counts else True
                value = 1.0 + 0.1 * (sum(chips) + 1) - (0.5 if was_mine else 0.0)
                if value > best:
                    best, choice = value, card
        return choice

    def settle(self, view: View, decision: Decision) -> int:
        """Pick, among the tied seats, the one with the fewest partisans in all (the least threat)."""
        table = view.table
        seats: Sequence[int] = decision.options
        return min(seats, key=lambda s: (sum(table.partisans[s]), s))


def _net(chips: Sequence[int], won: Won, seat: int) -> int:
    """What a topic is worth to ``seat`` now: its chips if ``seat`` would take
    it, minus them if another seat would (a split counts as nobody's)."""
    who = control(chips, won)
    if who is None or who == -1:
        return 0
    return sum(chips) if who == seat else -sum(chips)


@dataclass(frozen=True)
class Greedy(Heuristic):
    """The heuristic until the last ``endgame`` rounds; then each pushed chip
    goes where the table, scored as if the game ended now, gains most for
    this seat against the others (a partisan also counts ``contest`` while
    its group is close)."""

    contest: float = 2.0
    endgame: float = 1.0

    def push(self, view: View, decision: Decision) -> tuple[Any, ...]:
        """The heuristic's push until the endgame; then each chip by
        :meth:`greedy_place`, given what each topic is worth to this seat now
        (the same for every chip: the table does not change while the seat decides)."""
        table, seat = view.table, view.seat
        if table.deck_left > self.endgame * table.players:
            return Heuristic.push(self, view, decision)
        won = table.won
        base = {}
        for card, chips in table.topics.items():
            base[card] = _net(chips, won, seat)
        places = []
        for (suit, _lead), options in zip(decision.context["chips"], _parts(decision)):
            places.append(self.greedy_place(base, table, seat, suit, options))
        return tuple(places)

    def greedy_place(self, base: dict[Card, int], table: Public, seat: int, suit: int, places: Sequence[Any]) -> Any:
        """The place for a chip of ``suit`` that gains ``seat`` most on the
        table scored now (the leader or not: its worth is its group's);
        ``base``: each topic's worth now, by its card."""
        owners, won = table.owners, table.won
        topics = table.topics
        new = next(reversed(topics))  # the card of the topic raised this turn
        new_after = list(topics[new])
        new_after[suit] -= 1
        left = _net(new_after, won, seat) - base[new]
        best = 0.0
        choice: Any = STAY
        for option in places:
            if option == STAY:
                continue
            gain: float
            if option == PARTY:
                m = margin(table, seat, suit)
                gain = left
                if m >= 0 and owners[suit] != seat:  # the partisan wins me the group: topics holding it may change hands
                    after = list(owners)
                    after[suit] = seat
                    won_after = won_groups(after)
                    gain = _net(new_after, won_after, seat) - base[new]
                    for card, chips in topics.items():
                        if chips[suit] and card is not new:
                            gain += _net(chips, won_after, seat) - base[card]
                low, high = self.wanted
                if low < m <= high:
                    gain += self.contest
            else:
                moved = list(topics[option])
                moved[suit] += 1
                gain = left + _net(moved, won, seat) - base[option]
            if gain > best:
                best, choice = gain, option
        return choice

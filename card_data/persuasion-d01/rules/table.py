"""The D01 table: where every item lies, what each seat has seen of it, and
the moves every stage of a day makes (drawing, showing, handing letters on).

:class:`Table` holds the state; the stages build on it, each in its module:
``powers.py`` (letter powers), ``evening.py`` (the post and matrimony) and
``state.py`` (setup and the morning).
"""

from __future__ import annotations

import functools
import operator
import random
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from pnp.engine.api import Agent, Decision, EngineError, IllegalMove, NoEnd, Outcome, QueuedState, decision_of

from .cards import Desire, Letter, Pack, Score
from .views import EMPTY, Observation, Public

class PackFacts(NamedTuple):
    """What the engine asks of a pack again and again, worked out once per pack."""

    protectors: dict[str, tuple[int, ...]]
    """Per power kind stopped ("peek", "trade"): the letters that protect against it."""
    growers: tuple[tuple[int, int], ...]
    """(letter, delta) for each letter that changes its owner's hand size."""
    by_kind: tuple[dict[str, list[Mapping[str, Any]]], ...]
    """Per letter: its powers by kind."""
    morning: frozenset[int]
    """The letters with a morning power (an owner's or a holder's)."""
    letters_of: dict[str, tuple[int, ...]]
    """Per suit: its letters, by number."""
    desires_of: dict[str, tuple[Desire, ...]]
    """Per suit: its desires cards."""
    receipt: frozenset[int]
    """The letters with an on-receipt power."""


AT_SUPPLY, AT_DISCARDS, AT_SCORNED = Public._fields.index("supply"), Public._fields.index("discards"), Public._fields.index("scorned")
"""Where :meth:`Table._public_changed` puts the parts that change most often alone."""
_INDEXES: dict[int, tuple[Pack, PackFacts]] = {}
Step = Callable[[], None]
_new = tuple.__new__


def _index(pack: Pack) -> PackFacts:
    """The pack's :class:`PackFacts`, worked out on first asking."""
    cached = _INDEXES.get(id(pack))
    if cached is not None and cached[0] is pack:
        return cached[1]
    letters = pack.letters
    protectors = {
        kind: tuple(i for i, L in enumerate(letters) for p in L.powers if p["effect"]["type"] == "protect" and p["effect"]["against"] in (kind, "all"))
        for kind in ("peek", "trade")
    }
    growers = tuple((i, int(p["effect"]["delta"])) for i, L in enumerate(letters) for p in L.powers if p["effect"]["type"] == "hand-size")
    by_kind: list[dict[str, list[Mapping[str, Any]]]] = [{} for _ in letters]
    for i, L in enumerate(letters):
        for p in L.powers:
            by_kind[i].setdefault(p["kind"], []).append(p)
    morning = frozenset(i for i, kinds in enumerate(by_kind) if "owner-morning" in kinds or "holder-morning" in kinds)
    letters_of = {suit: tuple(i for i, L in enumerate(letters) if L.suit == suit) for suit in pack.suits}
    desires_of = {suit: tuple(d for d in pack.desires if d.suit == suit) for suit in pack.suits}
    receipt = frozenset(i for i, kinds in enumerate(by_kind) if "on-receipt" in kinds)
    index = PackFacts(protectors, growers, tuple(by_kind), morning, letters_of, desires_of, receipt)
    _INDEXES[id(pack)] = (pack, index)
    return index


@functools.cache
def _suitors(players: int) -> tuple[tuple[int, ...], ...]:
    """Per seat: every other seat, in seat order."""
    return tuple(tuple(p for p in range(players) if p != seat) for seat in range(players))


class Table(QueuedState):
    """Every item of a D01 game and each seat's knowledge of it, with nothing dealt."""

    __slots__ = (  # some sixty attributes, read at every step: slots, not a dict past CPython's shared keys
        'pack', 'n', 'rng', 'day_cap', 'check_moves', 'deck', 'box', 'discards', 'owner', 'hands', 'desires',
        'supply', 'received', 'ring', 'fiance', 'committed', 'day', 'stage', 'over', 'capped', 'actions', 'powers',
        'log', 'record', 'fronts', 'scores', '_queue', '_steps', '_letters', '_rings', '_later', '_opened',
        '_scorned', '_morning', '_gifts', '_trade', '_pending_letter', '_protectors', '_growers', '_by_kind',
        '_morning_cards', '_letters_of', '_desires_of', '_receipt_cards', '_suitors', '_known', '_owners', '_places',
        '_placed', '_known_view', '_owners_view', '_places_view', '_seen_suits', '_peeked', '_deck_seen', '_notes',
        '_pub', '_back', '_posted', '_post_seen', '_tail', '_handlers',
    )

    def __init__(self, pack: Pack, players: int, rng: random.Random, day_cap: int = 80, check_moves: bool = True):
        if players not in pack.deck_per_suit:
            raise EngineError(f"the deck table has no entry for {players} players")
        self.pack, self.n, self.rng, self.day_cap = pack, players, rng, day_cap
        self.check_moves = check_moves
        self.deck: list[int] = []
        """The letter deck; its top is the end of the list."""
        self.box: list[int] = []
        self.discards: list[int] = []
        self.owner = [-1] * len(pack.letters)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.desires: list[Desire] = []
        self.supply = [pack.hearts] * players
        self.received: list[list[int]] = [[] for _ in range(players)]
        self.ring = list(range(players))
        """Where each seat's ring is: its own seat (home), the seat holding it, or -1 - recipient in the post."""
        self.fiance = [-1] * players
        self.committed: dict[int, int] = {}
        """Committed letters and the player they lie in front of."""
        self.day = 0
        self.stage = "start"
        """Where the day stands (public): start, morning, reveal, evening or matrimony."""
        self.over = False
        self.capped = False
        self.actions: dict[str, int] = {}
        self.powers: dict[str, int] = {}
        """How often each letter's power was used (or, for a rule change, made a difference)."""
        self.log: list[str] = []
        """What happened, in words, for playthroughs (only when ``record`` is set)."""
        self.record = False
        self.fronts: list[list[int]] = []
        self.scores: list[Score] = []
        self._queue: list[Decision] = []
        self._steps: list[Step] = []
        self._letters: list[tuple[int, int, int]] = []  # (recipient, sender, letter) in the post
        self._posted: tuple[tuple[int, int, int], ...] = ()
        """(recipient, sender, seal) for each letter in ``_letters``, in its order (public)."""
        self._post_seen: list[tuple[tuple[int, int, int], ...]] = [()] * players
        """Per seat: (recipient, sender, letter) for the letters of today's post it sent or opened."""
        self._rings: list[tuple[int, int]] = []  # (recipient, proposer) waiting for an answer
        self._later: list[tuple[Any, ...]] = []  # revealed morning actions still to resolve (public)
        self._opened = False  # the evening's letterboxes are open: each recipient has seen its post
        self._scorned: list[int] = []
        self._morning: dict[int, tuple[Any, ...]] = {}
        self._gifts: dict[int, list[int]] = {}
        self._trade: dict[str, int] = {}
        self._pending_letter = (-1, -1, -1)
        (self._protectors, self._growers, self._by_kind, self._morning_cards, self._letters_of, self._desires_of,
         self._receipt_cards) = _index(pack)
        self._suitors = _suitors(players)
        self._known: list[dict[int, Letter]] = [{} for _ in range(players)]
        self._owners: list[dict[int, int]] = [{} for _ in range(players)]
        self._places: list[dict[int, int]] = [{} for _ in range(players)]
        self._placed: set[int] = set()
        """Every letter some seat may know the place of (``_places``): more, never fewer."""
        self._known_view: list[Mapping[int, Letter] | None] = [EMPTY] * players
        self._owners_view: list[Mapping[int, int]] = [EMPTY] * players
        self._places_view: list[Mapping[int, int] | None] = [EMPTY] * players
        self._seen_suits: list[tuple[tuple[str, ...], ...]] = [((),) * players for _ in range(players)]
        self._peeked: list[dict[int, Desire]] = [{} for _ in range(players)]
        self._deck_seen: list[tuple[int, ...]] = [()] * players
        self._notes: list[dict[Any, Any]] = [{} for _ in range(players)]
        self._tail: list[tuple[Any, ...] | None] = [None] * players
        """Per seat: its observation's seldom-changing end (seat, players, desires,
        peeked desires, deck seen, commits, notes), made when first asked after
        one of them changed: whatever changes one sets the seat's to None."""
        self._pub: Public | None = None
        self._back: list[tuple[int, ...]] = [()] * players
        """Per seat: the seals on the backs of its hand, sorted (public; kept up to date)."""

    # -- what a seat sees --------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        known = self._known_view[seat]
        if known is None:  # made when first asked after the seat learnt something (dict.copy: cheaper than dict())
            known = self._known_view[seat] = MappingProxyType(self._known[seat].copy())
            self._owners_view[seat] = MappingProxyType(self._owners[seat].copy())
        places = self._places_view[seat]
        if places is None:
            places = self._places_view[seat] = MappingProxyType(self._places[seat].copy())
        return _new(Observation, (  # tuple.__new__: no Python frame for the named tuple's own __new__
            self.day, self.stage, len(self.deck), tuple(self.hands[seat]), known, self._owners_view[seat],
            self._seen_suits[seat], self._pub or self._public(), tuple(self._back), self._posted,
            self._post_seen[seat], places,
        ) + (self._tail[seat] or self._tail_of(seat)))

    def _tail_of(self, seat: int) -> tuple[Any, ...]:
        """``seat``'s observation from ``seat`` on (the fields that seldom change), kept."""
        peeked = self._peeked[seat]
        tail = self._tail[seat] = (
            seat, self.n, self.desires[seat], MappingProxyType(peeked.copy()) if peeked else EMPTY, self._deck_seen[seat],
            tuple([c for c, s in self.committed.items() if s == seat]), self._notes[seat],
        )
        return tail

    def _back_of(self, seat: int) -> None:
        """``seat``'s hand changed: the seals on its backs again (a letter keeps
        its seal while in a hand: only a draw sets one). The table's own moves
        add or take one seal instead, keeping the tuple sorted."""
        self._back[seat] = tuple(sorted(map(self.owner.__getitem__, self.hands[seat])))

    def _backs_again(self) -> None:
        """Every hand's backs again, after hands were set from outside the
        table's own moves (a deal made up for a search, the end of the game)."""
        self._back = [tuple(sorted(map(self.owner.__getitem__, hand))) for hand in self.hands]

    def _public(self) -> Public:
        """What every seat sees of hearts, rings, discards and the day's
        revealed business (kept, and shared by every seat's observations,
        until it changes: whatever changes it sets ``_pub`` to None)."""
        self._pub = _new(Public, (
            tuple(self.supply), tuple(map(tuple, self.received)), tuple(self.fiance),
            tuple(map(operator.eq, self.ring, range(self.n))), tuple(self.discards),
            tuple(self._rings), tuple(self._later), tuple(self._scorned),
        ))
        return self._pub

    def _public_changed(self, start: int, *parts: tuple[Any, ...]) -> None:
        """Fields ``start`` on of the public part changed, to ``parts``: the
        kept :class:`Public` gets them (if one is kept: it is up to date, as
        every other change drops it), rather than being made afresh."""
        pub = self._pub
        if pub is not None:
            self._pub = _new(Public, pub[:start] + parts + pub[start + len(parts):])

    def _unpost(self, letter: tuple[int, int, int]) -> None:
        """``letter`` (recipient, sender, letter) leaves the post."""
        at = self._letters.index(letter)
        del self._letters[at]
        self._posted = self._posted[:at] + self._posted[at + 1:]

    def all_letters(self) -> list[int]:
        return [c for hand in self.hands for c in hand] + self.deck + self.box + self.discards + [c for (_, _, c) in self._letters]

    # -- rules in force ------------------------------------------------------------

    def in_play(self, letter: int) -> bool:
        """A letter with a seal that has not been discarded: its rule changes apply."""
        return self.owner[letter] >= 0 and letter not in self.discards

    def protector(self, seat: int, against: str) -> int | None:
        """The rule-change letter ``seat`` owns that keeps suitors' ``against`` powers off them, if any."""
        return next((c for c in self._protectors[against] if self.owner[c] == seat and self.in_play(c)), None)

    def protected(self, seat: int, against: str) -> bool:
        return self.protector(seat, against) is not None

    def hand_limit(self, seat: int) -> int:
        return self.pack.hand + sum(d for c, d in self._growers if self.owner[c] == seat and self.in_play(c))

    # -- moving letters and learning them ---------------------------------------

    def _note(self, text: str) -> None:
        if self.record:
            self.log.append(text)

    def _learn(self, seat: int, letter: int) -> None:
        """``seat`` sees ``letter`` (its face and its seal)."""
        owner = self.owner[letter]
        if self._owners[seat].get(letter, -2) == owner:
            return
        self._known[seat][letter] = self.pack.letters[letter]
        self._owners[seat][letter] = owner
        self._known_view[seat] = None

    def _show(self, seat: int, letter: int) -> None:
        """``seat`` is shown ``letter`` by someone: it learns the letter and, if
        the letter is another player's own, that player's suit."""
        owner = self.owner[letter]
        owners = self._owners[seat]
        if owners.get(letter, -2) != owner:  # _learn, without a call
            self._known[seat][letter] = self.pack.letters[letter]
            owners[letter] = owner
            self._known_view[seat] = None
        if owner >= 0 and owner != seat:
            seen = self._seen_suits[seat]
            self._seen_suits[seat] = seen[:owner] + (seen[owner] + (self.pack.letters[letter].suit,),) + seen[owner + 1:]

    def _place(self, seat: int, letter: int, holder: int) -> None:
        """``seat`` knows that ``holder`` now holds ``letter``."""
        if seat != holder:
            self._places[seat][letter] = holder
            self._places_view[seat] = None
            self._placed.add(letter)

    def _draw(self, seat: int) -> int | None:
        if not self.deck:
            return None
        card = self.deck.pop()
        self.owner[card] = seat
        self.hands[seat].append(card)
        backs = self._back[seat]  # one back more, sealed ``seat`` (_back_of, a step at a time)
        at = bisect_right(backs, seat)
        self._back[seat] = backs[:at] + (seat,) + backs[at:]
        self._learn(seat, card)
        if any(self._deck_seen):
            for other, top in enumerate(self._deck_seen):  # whoever saw it on top sees who drew it
                if top and top[0] == card:
                    self._deck_seen[other] = top[1:]
                    self._tail[other] = None
                    self._learn(other, card)
                    self._place(other, card, seat)
        return card

    def _put(self, seat: int, letter: int) -> None:
        """``letter`` joins ``seat``'s hand (the seat has seen it, or it is its own)."""
        self.hands[seat].append(letter)
        backs, seal = self._back[seat], self.owner[letter]  # one back more (_back_of, a step at a time)
        at = bisect_right(backs, seal)
        self._back[seat] = backs[:at] + (seal,) + backs[at:]

    def _give(self, seat: int, letter: int) -> None:
        self._put(seat, letter)
        self._learn(seat, letter)

    def _take(self, seat: int, letter: int) -> None:
        """``letter`` leaves ``seat``'s hand: whoever knew it was there no longer knows where it is."""
        self.hands[seat].remove(letter)
        backs = self._back[seat]  # one back fewer (_back_of, a step at a time)
        at = backs.index(self.owner[letter])
        self._back[seat] = backs[:at] + backs[at + 1:]
        if letter in self._placed:
            self._placed.discard(letter)
            for seat, places in enumerate(self._places):
                if places.pop(letter, None) is not None:
                    self._places_view[seat] = None

    def _discard(self, letter: int) -> None:
        self.discards.append(letter)
        self._public_changed(AT_DISCARDS, tuple(self.discards))
        owner, face = self.owner[letter], self.pack.letters[letter]
        for seat, owners in enumerate(self._owners):  # the discard pile is public: _learn, for every seat
            if owners.get(letter, -2) != owner:
                self._known[seat][letter] = face
                owners[letter] = owner
                self._known_view[seat] = None

    def _used(self, letter: int) -> None:
        name = self.pack.letters[letter].id
        self.powers[name] = self.powers.get(name, 0) + 1

    def _powers(self, card: int, kind: str) -> Sequence[Mapping[str, Any]]:
        return self._by_kind[card].get(kind, ())

    def _ask(self, seat: int, kind: str, options: Sequence[Any], context: dict[str, Any] | None = None) -> None:
        self._queue.append(decision_of((seat, kind, tuple(options) if isinstance(options, list) else options, MappingProxyType(context) if context else EMPTY)))

    def decision(self) -> Decision | None:
        """The next decision: queued steps run until one asks it (or the game
        ends). ``QueuedState.decision`` with its stage written in (two calls
        less a decision)."""
        queue = self._queue
        if not queue:
            steps = self._steps
            while not queue and not self.over:
                if not steps:
                    raise EngineError("the game has nothing left to do but is not over")
                steps.pop(0)()
        return queue[0] if queue else None

    def apply(self, choice: Any) -> None:
        """``QueuedState.apply``, written out (one call less a decision)."""
        decision = self._queue.pop(0)
        if self.check_moves and choice not in decision.options:
            raise IllegalMove(f"seat {decision.seat}: {choice!r} is not a legal {decision.kind}")
        self._handlers[decision.kind](decision, choice)

    def play_out(self, agents: Sequence[Agent[Observation]], rngs: Sequence[random.Random], max_decisions: int = 100_000) -> Outcome:
        """``pnp.engine.api.play`` for this table: :meth:`decision`, the
        seat's observation and :meth:`apply` written into one loop."""
        queue, steps, observation, handlers, check = self._queue, self._steps, self.observation, self._handlers, self.check_moves
        for _ in range(max_decisions):
            while not queue:
                if self.over:
                    return self.outcome()
                if not steps:
                    raise EngineError("the game has nothing left to do but is not over")
                steps.pop(0)()
            decision = queue[0]
            seat = decision[0]
            choice = agents[seat](observation(seat), decision, rngs[seat])
            del queue[0]
            if check and choice not in decision[2]:
                raise IllegalMove(f"seat {seat}: {choice!r} is not a legal {decision.kind}")
            handlers[decision[1]](decision, choice)
        raise NoEnd(f"no end after {max_decisions} decisions")

    def outcome(self) -> Outcome:
        raise NotImplementedError

    def _then(self, *steps: Step) -> None:
        """Run ``steps`` next, before anything already queued."""
        self._steps[0:0] = steps

    # -- moves more than one stage makes ------------------------------------------

    def _reflect(self, seat: int, giver: int | None) -> None:
        if giver is not None and giver in self.received[seat]:
            self.received[seat].remove(giver)
            self.supply[giver] += 1
            self._pub = None
        drawn = self._draw(seat)
        if drawn is not None:
            options = ["drawn"] + [c for c in self.hands[seat] if c != drawn and self.owner[c] == seat]
            self._ask(seat, "keep", options, {"drawn": drawn})

    def _on_keep(self, decision: Decision, choice: Any) -> None:
        # Keep the hand's size: discard the drawn letter or the one it replaces.
        victim = decision.context["drawn"] if choice == "drawn" else choice
        self._take(decision.seat, victim)
        self._discard(victim)

    def _ring_home(self, seat: int) -> None:
        self.ring[seat] = seat
        self._pub = None

    def _engage(self, a: int, b: int) -> None:
        self.fiance[a], self.fiance[b] = b, a
        self.ring[a], self.ring[b] = b, a
        self._pub = None

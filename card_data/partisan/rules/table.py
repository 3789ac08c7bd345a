"""The pieces of a Partisan game everyone can see: cards, topics, the table
(supply, partisans, where each leader is, who leads each group), and a
seat's view of it. The rules that move them are in :mod:`.state`."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, cast

SUPPLY = "supply"


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card of the draw deck (a double deck has two of each id):
    equal only to itself, so finding it in a hand costs no field comparison."""

    index: int
    id: str
    suits: tuple[int, ...]

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        """Shared by every copy of a game (frozen and public), so options
        naming it compare equal in a copy and in a guessed deal."""
        return self


@dataclass(frozen=True)
class Pack:
    """Everything a game needs from the data, checked once by ``prepare``."""

    suits: tuple[str, ...]
    cards: tuple[Card, ...]
    chips: int
    """Chips of each suit in the supply at the start."""
    topics: int
    hand: int
    leaders: bool
    players: tuple[int, int]
    turn_cap: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Pack:
        return self


class Topic:
    """A card face up in play and the chips on it, by suit."""

    __slots__ = ("card", "chips")

    def __init__(self, card: Card, chips: list[int]):
        self.card = card
        self.chips = chips

    def __repr__(self) -> str:
        return f"Topic({self.card.id}, {self.chips})"


class _ReadOnly:
    """A record an agent can read but not set. The engine sets a field that
    agents read often through the slot's own setter (:func:`_setter`); one
    that changes often and is read seldom (a hand, the supply, the turn) it
    keeps in a dict of its own that the record shows through a read-only
    mapping (``_live``), which costs the engine a dict store, not a setter call."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: {name} cannot be deleted")


def _setter(klass: type, name: str) -> Callable[[Any, Any], None]:
    """How the engine sets a read-only record's field: the slot's own setter
    (a C call; an agent's ``record.field = ...`` raises)."""
    put: Callable[[Any, Any], None] = cast(Any, klass.__dict__[name]).__set__
    return put


def _filler(klass: type) -> Callable[..., None]:
    """``fill(record, *values)``: every field of a new read-only record of ``klass``, in the order of its slots."""
    setters = [_setter(klass, name) for name in cast(Any, klass).__slots__]

    def fill(record: Any, *values: Any) -> None:
        for put, value in zip(setters, values):
            put(record, value)

    return fill


class Public(_ReadOnly):
    """The table as every seat sees it, read-only and always current (the
    engine replaces what changes; nothing in it leads back to the engine's
    :class:`Table`): the table's fields, each count a tuple
    (``partisans[seat][suit]``, ``supply[suit]``, ``best[suit]``...), and
    ``topics`` each topic's chips by suit, by its card, in table order (the
    one raised this turn last). ``draws``: the cards in the deck after the
    deal (the first ``draws`` turns end with a draw), from which the turn's
    other numbers follow."""

    __slots__ = ("players", "draws", "topics", "partisans", "leader", "owners", "won", "best", "at_best", "second", "picks", "_live")
    players: int
    draws: int
    topics: MappingProxyType[Card, tuple[int, ...]]
    partisans: tuple[tuple[int, ...], ...]
    leader: tuple[object, ...] | None
    owners: tuple[int | None, ...]
    won: tuple[tuple[int, int], ...]
    best: tuple[int, ...]
    at_best: tuple[int, ...]
    second: tuple[int, ...]
    picks: Mapping[int, int]
    _live: Mapping[str, Any]
    """``supply``, ``discards`` and ``turn``, as the engine keeps them (read-only)."""

    @property
    def supply(self) -> tuple[int, ...]:
        supply: tuple[int, ...] = self._live["supply"]
        return supply

    @property
    def discards(self) -> tuple[Card, ...]:
        discards: tuple[Card, ...] = self._live["discards"]
        return discards

    @property
    def turn(self) -> int:
        """Turns played."""
        turn: int = self._live["turn"]
        return turn

    @property
    def active(self) -> int:
        """The seat whose turn it is."""
        return self.turn % self.players

    @property
    def deck_left(self) -> int:
        left: int = self.draws - self._live["turn"]
        return left if left > 0 else 0

    @property
    def last_round(self) -> bool:
        """The deck has run out: this round is the last."""
        turn: int = self._live["turn"]
        return turn >= self.draws


_fill_public = _filler(Public)
_BEST, _AT_BEST, _SECOND, _OWNERS = 1, 2, 4, 8
"""What :func:`gain` changed (``Table._moved``), for :meth:`Table.show_partisans` to show."""
_show_partisans, _show_leader, _show_owners, _show_won, _show_best, _show_at_best, _show_second = (
    _setter(Public, name) for name in ("partisans", "leader", "owners", "won", "best", "at_best", "second")
)


class Table:
    """Everything public, as the engine keeps it. ``topics``: each topic by
    its card, in table order (the one raised this turn last). ``leader[s]`` is
    where suit ``s``'s leader is: the supply, a topic's card, or the seat
    holding it as a partisan (None without the Leaders variant). ``picks``: at
    the end of a game in the Leaders variant, the seat each tied group's
    leader's holder picked, by suit. ``public``: what every seat sees of it
    (:class:`Public`), made by :meth:`show` once the deal is done; the engine
    keeps it current as it moves pieces (the ``show_`` methods, :func:`gain`)."""

    __slots__ = (
        "players", "topics", "supply", "partisans", "leader", "owners", "won", "best", "at_best", "second",
        "deck_left", "active", "turn", "last_round", "discards", "picks", "draws", "public", "shown", "live", "_held", "_moved",
    )

    def __init__(self, players: int, suits: int, chips: int, leaders: bool, deck_left: int):
        self.players = players
        self.topics: dict[Card, Topic] = {}
        self.supply = [chips] * suits
        self.partisans = [[0] * suits for _ in range(players)]
        self.leader: list[object] | None = [SUPPLY] * suits if leaders else None
        self.owners: list[int | None] = [None] * suits
        """Per suit, who would win the group if the game ended now (a tie no
        leader breaks: None): public, kept up to date as partisans are made."""
        self.won: list[tuple[int, int]] = []
        """(suit, seat) for each group some seat would win now, by suit: what
        decides who would take a topic."""
        self.best = [0] * suits
        """Per suit, the most partisans any seat holds; ``at_best``: how many
        seats hold that many; ``second``: the most held by a seat below it."""
        self.at_best = [players] * suits
        self.second = [0] * suits
        self.deck_left = self.draws = deck_left
        self.active = 0
        self.turn = 0
        self.last_round = False
        self.discards: list[Card] = []
        self.picks: dict[int, int] = {}
        self.shown: dict[Card, tuple[int, ...]] = {}

    def show(self) -> None:
        """What every seat sees of the table made afresh (:class:`Public`):
        ``shown``, each topic's chips as seen, and ``live``, the fields seen
        through ``Public._live``, are the engine's to keep current."""
        self._show(
            {card: tuple(t.chips) for card, t in self.topics.items()},
            {"supply": tuple(self.supply), "discards": tuple(self.discards), "turn": self.turn},
            [tuple(p) for p in self.partisans], None if self.leader is None else tuple(self.leader),
            (tuple(self.owners), tuple(self.won), tuple(self.best), tuple(self.at_best), tuple(self.second)),
        )

    def _show_as(self, public: Public) -> None:
        """What every seat sees of this table, which is what ``public`` shows:
        its tuples shared (they never change), its mappings copied."""
        self._show(dict(public.topics), dict(public._live), list(public.partisans), public.leader, (public.owners, public.won, public.best, public.at_best, public.second))

    def _show(
        self, shown: dict[Card, tuple[int, ...]], live: dict[str, Any], held: list[tuple[int, ...]], leader: tuple[object, ...] | None,
        standings: tuple[Any, ...],
    ) -> None:
        self.shown, self.live, self._held, self._moved = shown, live, held, 0
        self.public = public = object.__new__(Public)
        _fill_public(
            public, self.players, self.draws, MappingProxyType(shown), tuple(held), leader, *standings, MappingProxyType(self.picks), MappingProxyType(live),
        )

    @classmethod
    def showing(cls, public: Public) -> Table:
        """A table of its own that shows what ``public`` shows (the cards shared: they never change)."""
        table = cls.__new__(cls)
        table.players = public.players
        table.topics = {card: Topic(card, list(chips)) for card, chips in public.topics.items()}
        table.supply, table.partisans = list(public.supply), [list(p) for p in public.partisans]
        table.leader = None if public.leader is None else list(public.leader)
        table.owners, table.won = list(public.owners), list(public.won)
        table.best, table.at_best, table.second = list(public.best), list(public.at_best), list(public.second)
        table.deck_left, table.active, table.turn, table.last_round = public.deck_left, public.active, public.turn, public.last_round
        table.draws, table.discards, table.picks = public.draws, list(public.discards), dict(public.picks)
        table._show_as(public)
        return table

    def copy(self) -> Table:
        """A table of its own, the same (the cards, and what seats see, shared: they never change)."""
        twin = Table.__new__(Table)
        twin.players = self.players
        twin.topics = {card: Topic(card, list(t.chips)) for card, t in self.topics.items()}
        twin.supply, twin.partisans = list(self.supply), [list(p) for p in self.partisans]
        twin.leader = None if self.leader is None else list(self.leader)
        twin.owners, twin.won, twin.best, twin.at_best, twin.second = list(self.owners), list(self.won), list(self.best), list(self.at_best), list(self.second)
        twin.deck_left, twin.active, twin.turn, twin.last_round = self.deck_left, self.active, self.turn, self.last_round
        twin.draws, twin.discards, twin.picks = self.draws, list(self.discards), dict(self.picks)
        twin._show_as(self.public)
        return twin

    def raise_topic(self, card: Card) -> Topic:
        """``card`` face up as the last topic, without chips."""
        suits = len(self.supply)
        topic = self.topics[card] = Topic(card, [0] * suits)
        self.shown[card] = (0,) * suits
        return topic

    def show_partisans(self, seat: int) -> None:
        """Every seat sees ``seat``'s partisans as they now are, and each
        standing :func:`gain` has changed since (once a turn: each is a new tuple)."""
        public, held, moved = self.public, self._held, self._moved
        held[seat] = tuple(self.partisans[seat])
        _show_partisans(public, tuple(held))
        if moved & _BEST:
            _show_best(public, tuple(self.best))
        if moved & _AT_BEST:
            _show_at_best(public, tuple(self.at_best))
        if moved & _SECOND:
            _show_second(public, tuple(self.second))
        if moved & _OWNERS:
            _show_owners(public, tuple(self.owners))
            _show_won(public, tuple(self.won))
        self._moved = 0

    def move_leader(self, suit: int, where: object) -> None:
        """Suit ``suit``'s leader is now at ``where`` (Leaders variant), as every seat sees."""
        leader = self.leader
        assert leader is not None
        leader[suit] = where
        _show_leader(self.public, tuple(leader))

    def discard_empty(self) -> None:
        """Every topic without chips to the discards, in table order."""
        discards = self.discards
        before = len(discards)
        for topic in list(self.topics.values()):
            if not any(topic.chips):
                del self.topics[topic.card], self.shown[topic.card]
                discards.append(topic.card)
        if len(discards) != before:
            self.live["discards"] = tuple(discards)


def gain(table: Table, seat: int, suit: int) -> None:
    """``seat`` has just made one more partisan of ``suit``: the suit's
    standings brought up to date in a step (the top count, how many seats
    share it, the runner-up count, and who would win the group now: a tie
    goes to nobody unless a tied seat holds the leader). Each standing it
    changes is marked for :meth:`Table.show_partisans`."""
    mine, best = table.partisans[seat][suit], table.best[suit]
    if mine > best:  # one above the old top: this seat leads alone
        if table.at_best[suit] > 1:
            table.second[suit] = best
            table._moved |= _SECOND
        table.best[suit], table.at_best[suit] = mine, 1
        table._moved |= _BEST | _AT_BEST
        _own(table, suit, seat)
    elif mine < best:  # still below the top: nobody's standing at the top changes
        if mine > table.second[suit]:
            table.second[suit] = mine
            table._moved |= _SECOND
    else:  # joins the top: a tie, which only the leader's holder, if tied, wins
        table.at_best[suit] += 1
        table._moved |= _AT_BEST
        if mine > 1 and mine - 1 == table.second[suit]:  # it may have been the only one just below (at 0, all below are at 0)
            second = 0
            for held in table.partisans:
                if second < held[suit] < best:
                    second = held[suit]
            table.second[suit] = second
            table._moved |= _SECOND
        holder = table.leader[suit] if table.leader is not None else None
        _own(table, suit, holder if isinstance(holder, int) and table.partisans[holder][suit] == best else None)


def _own(table: Table, suit: int, who: int | None) -> None:
    """``who`` would now win ``suit``'s group: ``owners`` and ``won`` (kept in suit order) follow."""
    was = table.owners[suit]
    if was == who:
        return
    table.owners[suit] = who
    won = table.won
    at = bisect_left(won, (suit,))  # where the suit's entry is, or goes: (suit,) sorts before (suit, seat)
    if who is None:
        del won[at]
    elif was is None:
        won.insert(at, (suit, who))
    else:
        won[at] = (suit, who)
    table._moved |= _OWNERS


def won_groups(owners: list[int | None]) -> list[tuple[int, int]]:
    """(suit, seat) for each group a seat would win, given who wins each group."""
    return [(s, o) for s, o in enumerate(owners) if o is not None]


class View(_ReadOnly):
    """What one seat knows: its own hand, the public table, and the pack (the
    printed cards and the numbers of the game, which every player knows).
    Read-only and always current: ``live`` is the engine's dict of what only
    this seat sees (``hand``, a tuple), shown read-only."""

    __slots__ = ("seat", "table", "pack", "_live")
    seat: int
    table: Public
    pack: Pack
    _live: Mapping[str, Any]

    def __init__(self, seat: int, table: Public, pack: Pack, live: dict[str, Any]):
        _view_seat(self, seat)
        _view_table(self, table)
        _view_pack(self, pack)
        _view_live(self, MappingProxyType(live))

    @property
    def hand(self) -> tuple[Card, ...]:
        hand: tuple[Card, ...] = self._live["hand"]
        return hand


_view_seat, _view_table, _view_pack, _view_live = (_setter(View, name) for name in View.__slots__)

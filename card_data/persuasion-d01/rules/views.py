"""What a Persuasion D01 seat sees: its observation, and the gift options."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple, cast, overload

from pnp.engine.api import ReadOnly

from .cards import Desire, Letter


# -- what a seat sees ----------------------------------------------------------------


class Public(NamedTuple):
    """What every seat sees alike of hearts, rings, discards and the day's
    revealed business: one value the table shares among every seat's
    observations until one of these changes (then it makes a new one)."""

    supply: tuple[int, ...]
    """Each player's hearts in hand."""
    received: tuple[tuple[int, ...], ...]
    """Per player: the suitors whose hearts lie by their letterbox."""
    fiances: tuple[int, ...]
    """Per player: their fiance, or -1 (rings lie by letterboxes)."""
    rings_home: tuple[bool, ...]
    """Per player: is their ring by their own letterbox."""
    discards: tuple[int, ...]
    """The discard pile."""
    rings_sent: tuple[tuple[int, int], ...]
    """Rings on letterboxes waiting for an answer: (recipient, proposer)."""
    pending: tuple[tuple[Any, ...], ...]
    """The revealed morning actions still to resolve, clockwise from the host:
    (seat, "reflect", giver) or (seat, "power", letter, power index)."""
    scorned: tuple[int, ...]
    """Players whose letterbox got nothing this morning, still to be offered a reflection."""


class Observation(NamedTuple):
    """A frozen snapshot of what one seat knows, made afresh for each decision.

    It holds no reference to the game state: only this seat's own cards, the
    letters it has been shown (with the seal each bore), where it knows some
    are, and public facts (``public``: hearts, rings, discards, the day's
    revealed business, shared by every seat's observations; how many letters
    are left, the backs of every hand and of the post, ``posted``): all that
    ``determinize`` needs to deal a game it cannot tell from the true one.
    ``notes`` is the seat's agent's own notebook, kept between its
    decisions; the engine never reads it.
    """

    day: int
    stage: str
    """Where the day stands: start (at-start powers), morning (actions being
    chosen), reveal (revealed actions resolving), evening (the post), matrimony."""
    deck_left: int
    hand: tuple[int, ...]
    """The letters this seat holds."""
    known: Mapping[int, Letter]
    """Every letter this seat has seen, by letter number."""
    owners: Mapping[int, int]
    """The seal each known letter bore when this seat last saw it (-1: none)."""
    seen_suits: tuple[tuple[str, ...], ...]
    """Per player: the suits of that player's own letters this seat has been shown."""
    public: Public
    """Hearts, rings, discards and the day's revealed business (the same value for every seat)."""
    backs: tuple[tuple[int, ...], ...]
    """Per player: the seals on the backs of the letters in their hand, sorted (public)."""
    posted: tuple[tuple[int, int, int], ...]
    """Letters in the post: (recipient, sender, seal), public (the same value for every seat)."""
    post_seen: tuple[tuple[int, int, int], ...]
    """(recipient, sender, letter) for each letter of today's post this seat
    sent or has opened, some perhaps answered since: :attr:`post` pairs them
    with :attr:`posted` (a sender posts one letter a day)."""
    places: Mapping[int, int]
    """Letters in suitors' hands whose holder this seat knows (it sent, traded or was shown them there)."""
    # From here on the fields seldom change: the table keeps them per seat as one tuple (Table._tail).
    seat: int
    players: int
    desires: Desire
    peeked_desires: Mapping[int, Desire]
    """Desires cards this seat has seen through a power, by seat."""
    deck_seen: tuple[int, ...]
    """The letters last seen on top of the deck, top first (a power)."""
    commits: tuple[int, ...]
    """The letters this seat has committed at matrimony."""
    notes: dict[Any, Any]

    @property
    def post(self) -> tuple[tuple[int, int, int, int], ...]:
        """Letters in the post: (recipient, sender, seal, letter), the letter -1
        unless this seat sent it or has opened it. Worked out when read (few
        agents read it): the table keeps only :attr:`posted` and :attr:`post_seen`."""
        if not self.posted:
            return ()
        seen = {(r, s): c for r, s, c in self.post_seen}
        return tuple([(r, s, seal, seen.get((r, s), -1)) for r, s, seal in self.posted])

    def letter(self, letter: int) -> Letter:
        return self.known[letter]

    def owner(self, letter: int) -> int:
        return self.owners[letter]

    @property
    def supply(self) -> tuple[int, ...]:
        return self.public.supply

    @property
    def received(self) -> tuple[tuple[int, ...], ...]:
        return self.public.received

    @property
    def fiances(self) -> tuple[int, ...]:
        return self.public.fiances

    @property
    def rings_home(self) -> tuple[bool, ...]:
        return self.public.rings_home

    @property
    def discards(self) -> tuple[int, ...]:
        return self.public.discards

    @property
    def rings_sent(self) -> tuple[tuple[int, int], ...]:
        return self.public.rings_sent

    @property
    def pending(self) -> tuple[tuple[Any, ...], ...]:
        return self.public.pending

    @property
    def scorned(self) -> tuple[int, ...]:
        return self.public.scorned

    @property
    def hearts(self) -> int:
        return self.public.supply[self.seat]

    @property
    def suitor_hearts(self) -> tuple[int, ...]:
        return self.public.received[self.seat]

    @property
    def fiance(self) -> int:
        return self.public.fiances[self.seat]

    @property
    def ring_home(self) -> bool:
        return self.public.rings_home[self.seat]

    def engaged(self, seat: int) -> bool:
        return self.public.fiances[seat] >= 0


EMPTY: Mapping[Any, Any] = MappingProxyType({})


class MorningOptions(ReadOnly, Sequence[tuple[Any, ...]]):
    """A seat's legal morning actions, without building them all, in this
    order: ("write", suitor, letter) for each letter in hand (each suitor in
    turn), ("reflect", giver) for each giver (sorted), ("propose", suitor)
    for each suitor, ("break",), ("power", letter) for each usable morning
    power in hand order (one per power), and ("rest",) only when there is
    nothing else. ``len``, indexing and ``in`` cost a few steps each."""

    __slots__ = ("hand", "suitors", "reflects", "proposes", "breaks", "powers")
    hand: tuple[int, ...]
    suitors: tuple[int, ...]
    reflects: tuple[int, ...]
    proposes: bool
    breaks: bool
    powers: tuple[int, ...]
    """The letters whose morning power may be used, once per power."""

    def __init__(self, hand: tuple[int, ...], suitors: tuple[int, ...], reflects: tuple[int, ...], proposes: bool, breaks: bool, powers: tuple[int, ...]):
        for name, value in zip(self.__slots__, (hand, suitors, reflects, proposes, breaks, powers)):
            object.__setattr__(self, name, value)

    def _parts(self) -> tuple[int, int, int, int, int]:
        """How many options of each kind: write, reflect, propose, break, power."""
        return (len(self.hand) * len(self.suitors), len(self.reflects), len(self.suitors) if self.proposes else 0,
                1 if self.breaks else 0, len(self.powers))

    def __len__(self) -> int:
        size = sum(self._parts())
        return size or 1  # ("rest",)

    @overload
    def __getitem__(self, index: int) -> tuple[Any, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[Any, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[Any, ...] | list[tuple[Any, ...]]:
        size = len(self)
        if isinstance(index, slice):  # a Sequence slices (the search agent looks at the first few)
            return [self[i] for i in range(*index.indices(size))]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        writes, reflects, proposes, breaks, _ = self._parts()
        if index < writes:
            letter, suitor = divmod(index, len(self.suitors))
            return ("write", self.suitors[suitor], self.hand[letter])
        index -= writes
        if index < reflects:
            return ("reflect", self.reflects[index])
        index -= reflects
        if index < proposes:
            return ("propose", self.suitors[index])
        index -= proposes
        if index < breaks:
            return ("break",)
        index -= breaks
        return ("power", self.powers[index]) if self.powers else ("rest",)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for letter in self.hand:
            for suitor in self.suitors:
                yield ("write", suitor, letter)
        for giver in self.reflects:
            yield ("reflect", giver)
        if self.proposes:
            for suitor in self.suitors:
                yield ("propose", suitor)
        if self.breaks:
            yield ("break",)
        for letter in self.powers:
            yield ("power", letter)
        if not any(self._parts()):
            yield ("rest",)

    def __contains__(self, choice: object) -> bool:
        if not isinstance(choice, tuple) or not choice:
            return False
        kind, size = choice[0], len(choice)
        if kind == "write":
            return size == 3 and choice[1] in self.suitors and choice[2] in self.hand
        if kind == "reflect":
            return size == 2 and choice[1] in self.reflects
        if kind == "propose":
            return size == 2 and self.proposes and choice[1] in self.suitors
        if kind == "power":
            return size == 2 and choice[1] in self.powers
        if kind == "break":
            return size == 1 and self.breaks
        return choice == ("rest",) and not any(self._parts())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MorningOptions) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, k) for k in self.__slots__))

    def __repr__(self) -> str:
        return f"MorningOptions({list(self)!r})"


_SETTERS = tuple(cast(Any, MorningOptions.__dict__[name]).__set__ for name in MorningOptions.__slots__)


def morning_options(hand: tuple[int, ...], suitors: tuple[int, ...], reflects: tuple[int, ...], proposes: bool, breaks: bool, powers: tuple[int, ...]) -> MorningOptions:
    """``MorningOptions(...)`` made without its ``__init__`` (one is made per seat each morning)."""
    made = object.__new__(MorningOptions)
    set_hand, set_suitors, set_reflects, set_proposes, set_breaks, set_powers = _SETTERS
    set_hand(made, hand)
    set_suitors(made, suitors)
    set_reflects(made, reflects)
    set_proposes(made, proposes)
    set_breaks(made, breaks)
    set_powers(made, powers)
    return made


class Subsets(ReadOnly, Sequence[tuple[int, ...]]):
    """Every subset of some letters, as tuples in the letters' order, without
    building them all (the matrimony gift: which of your letters to give)."""

    __slots__ = ("items",)
    items: tuple[int, ...]

    def __init__(self, items: Sequence[int]):
        object.__setattr__(self, "items", tuple(items))

    def __len__(self) -> int:
        return 1 << len(self.items)

    @overload
    def __getitem__(self, index: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        if isinstance(index, slice):  # a Sequence slices (the search agent looks at the first few)
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return tuple(c for bit, c in enumerate(self.items) if index >> bit & 1)

    def __contains__(self, choice: object) -> bool:
        return isinstance(choice, tuple) and len(set(choice)) == len(choice) and all(c in self.items for c in choice)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Subsets) and other.items == self.items

    def __hash__(self) -> int:
        return hash(self.items)

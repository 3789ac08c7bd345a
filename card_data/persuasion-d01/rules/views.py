"""What a Persuasion D01 seat sees: its observation, and the gift options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple, overload

from pnp.engine.api import ReadOnly

from .cards import Desire, Letter


# -- what a seat sees ----------------------------------------------------------------


class Observation(NamedTuple):
    """A frozen snapshot of what one seat knows, made afresh for each decision.

    It holds no reference to the game state: only this seat's own cards, the
    letters it has been shown (with the seal each bore), where it knows some
    are, and public facts (hearts, rings, discards, how many letters are left,
    the backs of every hand and of the post, the day's revealed business):
    all that ``determinize`` needs to deal a game it cannot tell from the
    true one. ``notes`` is the
    seat's agent's own notebook, kept between its decisions; the engine never
    reads it.
    """

    seat: int
    players: int
    day: int
    stage: str
    """Where the day stands: start (at-start powers), morning (actions being
    chosen), reveal (revealed actions resolving), evening (the post), matrimony."""
    deck_left: int
    hand: tuple[int, ...]
    """The letters this seat holds."""
    desires: Desire
    known: Mapping[int, Letter]
    """Every letter this seat has seen, by letter number."""
    owners: Mapping[int, int]
    """The seal each known letter bore when this seat last saw it (-1: none)."""
    seen_suits: tuple[tuple[str, ...], ...]
    """Per player: the suits of that player's own letters this seat has been shown."""
    peeked_desires: Mapping[int, Desire]
    """Desires cards this seat has seen through a power, by seat."""
    deck_seen: tuple[int, ...]
    """The letters last seen on top of the deck, top first (a power)."""
    supply: tuple[int, ...]
    """Each player's hearts in hand (public)."""
    received: tuple[tuple[int, ...], ...]
    """Per player: the suitors whose hearts lie by their letterbox (public)."""
    fiances: tuple[int, ...]
    """Per player: their fiance, or -1 (rings lie by letterboxes: public)."""
    rings_home: tuple[bool, ...]
    """Per player: is their ring by their own letterbox (public)."""
    discards: tuple[int, ...]
    """The discard pile (public)."""
    backs: tuple[tuple[int, ...], ...]
    """Per player: the seals on the backs of the letters in their hand, sorted (public)."""
    post: tuple[tuple[int, int, int, int], ...]
    """Letters in the post: (recipient, sender, seal, letter), the letter -1
    unless this seat sent it or has opened it (the backs are public)."""
    rings_sent: tuple[tuple[int, int], ...]
    """Rings on letterboxes waiting for an answer: (recipient, proposer) (public)."""
    pending: tuple[tuple[Any, ...], ...]
    """The revealed morning actions still to resolve, clockwise from the host:
    (seat, "reflect", giver) or (seat, "power", letter, power index) (public)."""
    scorned: tuple[int, ...]
    """Players whose letterbox got nothing this morning, still to be offered a reflection (public)."""
    places: Mapping[int, int]
    """Letters in suitors' hands whose holder this seat knows (it sent, traded or was shown them there)."""
    commits: tuple[int, ...]
    """The letters this seat has committed at matrimony."""
    notes: dict[Any, Any]

    def letter(self, letter: int) -> Letter:
        return self.known[letter]

    def owner(self, letter: int) -> int:
        return self.owners[letter]

    @property
    def hearts(self) -> int:
        return self.supply[self.seat]

    @property
    def suitor_hearts(self) -> tuple[int, ...]:
        return self.received[self.seat]

    @property
    def fiance(self) -> int:
        return self.fiances[self.seat]

    @property
    def ring_home(self) -> bool:
        return self.rings_home[self.seat]

    def engaged(self, seat: int) -> bool:
        return self.fiances[seat] >= 0


EMPTY: Mapping[Any, Any] = MappingProxyType({})


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

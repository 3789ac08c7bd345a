"""What a B04 seat is shown: the options of its decisions, computed lazily,
and its observation, a frozen snapshot holding no reference to the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from pnp.engine.api import ReadOnly

from .deck import Deck

KINDS = ("invite", "propose", "independent")
"""Every kind of intention (B04's actions, as ``Outcome.actions`` counts them)."""


class Intentions(ReadOnly, Sequence[tuple[Any, ...]]):
    """Every legal intention, without building them all: ("independent",), then
    ("invite", target, card) and ("propose", target, card) for each pair."""

    KINDS = ("invite", "propose")
    __slots__ = ("seat", "available", "cards", "_targets")

    seat: int
    available: tuple[int, ...]
    cards: tuple[int, ...]
    _targets: tuple[int, ...] | None

    def __init__(self, seat: int, available: tuple[int, ...], cards: tuple[int, ...]):
        _set_seat(self, seat)  # the slots' own setters: no loop, no object.__setattr__ per slot
        _set_available(self, available)
        _set_cards(self, cards)
        _set_targets(self, None)

    @property
    def targets(self) -> tuple[int, ...]:
        if self._targets is None:
            object.__setattr__(self, "_targets", tuple(p for p in self.available if p != self.seat))
        assert self._targets is not None
        return self._targets

    @property
    def _per_kind(self) -> int:
        return (len(self.available) - 1) * len(self.cards)

    def __len__(self) -> int:
        return 1 + 2 * self._per_kind

    def __getitem__(self, index: int) -> tuple[Any, ...]:  # type: ignore[override]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index == 0:
            return ("independent",)
        kind, rest = divmod(index - 1, self._per_kind)
        target, card = divmod(rest, len(self.cards))
        return (self.KINDS[kind], self.targets[target], self.cards[card])

    def __contains__(self, choice: object) -> bool:
        if choice == ("independent",):
            return True
        return (
            isinstance(choice, tuple) and len(choice) == 3 and choice[0] in self.KINDS
            and choice[1] != self.seat and choice[1] in self.available and choice[2] in self.cards
        )


_set_seat, _set_available, _set_cards, _set_targets = (
    cast(Any, Intentions.__dict__[name]).__set__ for name in ("seat", "available", "cards", "_targets")
)


class Answers(ReadOnly, Sequence[Any]):
    """The answers to an invitation: "refuse", or ("accept", card) with the
    reply card from the recipient's hand, without building them all."""

    __slots__ = ("hand",)
    hand: tuple[int, ...]

    def __init__(self, hand: Sequence[int]):
        _set_hand(self, tuple(hand))

    def __len__(self) -> int:
        return 1 + len(self.hand)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return "refuse" if index == 0 else ("accept", self.hand[index - 1])

    def __contains__(self, choice: object) -> bool:
        return choice == "refuse" or (
            isinstance(choice, tuple) and len(choice) == 2 and choice[0] == "accept" and choice[1] in self.hand
        )


_set_hand = cast(Any, Answers.__dict__["hand"]).__set__


class Mail(NamedTuple):
    """The round's mail as the whole table sees it (who sent what kind of card
    to whom, what is still waiting, who was refused), without the cards'
    identities: the same for every seat."""

    invites: tuple[tuple[int, ...], ...]
    """Per letterbox: the senders of the invitations still waiting on it."""
    proposals: tuple[tuple[int, ...], ...]
    """Per letterbox: the senders of the proposals still waiting on it."""
    touched: frozenset[int]
    """Players who received an invitation or a proposal this round."""
    refused: frozenset[int]
    """Players whose invitation or proposal was refused this round."""
    received: frozenset[int]
    """Players who were sent a reply or became engaged this round."""
    turns: tuple[int, ...]
    """Whose turn of correspondence comes next, in order."""
    reflecting: tuple[int, ...]
    """Players still to reflect (ignored and refused), in order."""
    out: tuple[int, ...]
    """Per player: how many of its cards lie on other letterboxes."""


class Observation(NamedTuple):
    """A frozen snapshot of what one seat knows, made for each decision.

    It holds no reference to the game: the seat's own hand and desires, the
    cards it has seen of each player, what it knows of where cards are, and
    public facts. ``notes`` is the seat's agent's own notebook (memory between
    its decisions); the engine never reads it.
    """

    seat: int
    round: int
    last_round: bool
    hand: tuple[int, ...]
    desires: int
    seen: tuple[frozenset[int], ...]
    """Per player: the cards of theirs this seat has seen (its own: its hand)."""
    status: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    deck: Deck
    """The card catalogue (public: every card's symbols), not the draw pile."""
    notes: dict[Any, Any]
    known: tuple[frozenset[int], ...]
    """Per player: the cards this seat knows to be in their hand now (seen
    there, and their hand not changed unseen since; its own: its hand)."""
    discarded: frozenset[int]
    """The cards this seat discarded itself (the discard pile is face down)."""
    pile: int
    """Cards left in the draw pile (public)."""
    fiance: tuple[int, ...]
    """Per player: its fiance's seat, or -1 (public)."""
    intention: tuple[Any, ...]
    """This seat's own intention this round, card included, once chosen; () before."""
    lent: frozenset[int]
    """This seat's own cards lying on other letterboxes this round."""
    lying: frozenset[int]
    """Other players' cards this seat has seen lying on a letterbox this round."""
    offers: tuple[tuple[int, int], ...]
    """The proposals on this seat's letterbox, (sender, card), peeked at as they arrive."""
    mail: Mail
    """The round's public mail."""

"""The pieces of a Partisan game everyone can see: cards, topics, the table
(supply, partisans, where each leader is, who leads each group), and a
seat's view of it. The rules that move them are in :mod:`.state`."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

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


class Table:
    """Everything public. ``topics``: each topic by its card, in table order
    (the one raised this turn last). ``leader[s]`` is where suit ``s``'s
    leader is: the supply, a topic's card, or the seat holding it as a
    partisan (None without the Leaders variant). ``picks``: at the end of a
    game in the Leaders variant, the seat each tied group's leader's holder picked, by suit."""

    __slots__ = (
        "players", "topics", "supply", "partisans", "leader", "owners", "won", "best", "at_best", "second",
        "deck_left", "active", "turn", "last_round", "discards", "picks",
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
        self.deck_left = deck_left
        self.active = 0
        self.turn = 0
        self.last_round = False
        self.discards: list[Card] = []
        self.picks: dict[int, int] = {}

    def copy(self) -> Table:
        """A table of its own, the same (the cards shared: they never change)."""
        twin = Table.__new__(Table)
        twin.players = self.players
        twin.topics = {card: Topic(card, list(t.chips)) for card, t in self.topics.items()}
        twin.supply, twin.partisans = list(self.supply), [list(p) for p in self.partisans]
        twin.leader = None if self.leader is None else list(self.leader)
        twin.owners, twin.won, twin.best, twin.at_best, twin.second = list(self.owners), list(self.won), list(self.best), list(self.at_best), list(self.second)
        twin.deck_left, twin.active, twin.turn, twin.last_round = self.deck_left, self.active, self.turn, self.last_round
        twin.discards, twin.picks = list(self.discards), dict(self.picks)
        return twin

    def raise_topic(self, card: Card) -> Topic:
        """``card`` face up as the last topic, without chips."""
        topic = self.topics[card] = Topic(card, [0] * len(self.supply))
        return topic

    def discard_empty(self) -> None:
        """Every topic without chips to the discards, in table order."""
        for topic in list(self.topics.values()):
            if not any(topic.chips):
                del self.topics[topic.card]
                self.discards.append(topic.card)


def gain(table: Table, seat: int, suit: int) -> None:
    """``seat`` has just made one more partisan of ``suit``: the suit's
    standings brought up to date in a step (the top count, how many seats
    share it, the runner-up count, and who would win the group now: a tie
    goes to nobody unless a tied seat holds the leader)."""
    mine, best = table.partisans[seat][suit], table.best[suit]
    if mine > best:  # one above the old top: this seat leads alone
        if table.at_best[suit] > 1:
            table.second[suit] = best
        table.best[suit], table.at_best[suit] = mine, 1
        _own(table, suit, seat)
    elif mine < best:  # still below the top: nobody's standing at the top changes
        if mine > table.second[suit]:
            table.second[suit] = mine
    else:  # joins the top: a tie, which only the leader's holder, if tied, wins
        table.at_best[suit] += 1
        if mine > 1 and mine - 1 == table.second[suit]:  # it may have been the only one just below (at 0, all below are at 0)
            second = 0
            for held in table.partisans:
                if second < held[suit] < best:
                    second = held[suit]
            table.second[suit] = second
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


def won_groups(owners: list[int | None]) -> list[tuple[int, int]]:
    """(suit, seat) for each group a seat would win, given who wins each group."""
    return [(s, o) for s, o in enumerate(owners) if o is not None]


class View:
    """What one seat knows: its own hand, the public table, and the pack (the
    printed cards and the numbers of the game, which every player knows)."""

    __slots__ = ("seat", "hand", "table", "pack")

    def __init__(self, seat: int, hand: list[Card], table: Table, pack: Pack):
        self.seat, self.hand, self.table, self.pack = seat, hand, table, pack

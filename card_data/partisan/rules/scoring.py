"""Partisan's four scoring steps, shared by the engine and the table scorer.

The supply is already off the table (step 1) when these run. Readings of the
rules (RULES-NOTES.md): a group nobody holds a partisan of is won by nobody; a
topic on which no won group has a chip goes to nobody; a topic tie between
groups won by different players gives each tied *group* an equal share (its
winner takes it), the remainder discarded; tied groups all won by one player
give that player the whole topic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

Settle = Callable[[int, int, tuple[int, ...]], int]
"""(suit, holder of the leader, tied seats) -> the seat the holder picks."""
Won = Sequence[tuple[int, int]]
"""(suit, seat) for each group a seat wins, by suit: what decides who takes a topic."""


class GroupResult(NamedTuple):
    """Who wins one interest group (named tuples: a game makes one per suit and per topic)."""

    suit: int
    winner: int | None
    tied: tuple[int, ...]
    """Seats tied for most partisans (empty unless two or more tied)."""
    how: str
    """majority, leader (the holder was tied), settled (the holder picked), tie (nobody), none (no partisans)."""


@dataclass(frozen=True)
class TopicResult:
    """Who takes one topic's chips."""

    index: int
    shares: tuple[int, ...]
    """Chips each seat takes from the topic."""
    owner: int | None
    """The seat that takes the card (None when split or unclaimed)."""
    split: tuple[int, ...]
    """Suits tied for control between different players' groups (empty otherwise)."""
    discarded: int
    """Chips that leave the game: the remainder of a split, or an unclaimed topic's chips."""


@dataclass(frozen=True)
class Scored:
    groups: tuple[GroupResult, ...]
    topics: tuple[TopicResult, ...]
    scores: tuple[int, ...]

    @property
    def winners(self) -> tuple[bool, ...]:
        """The highest score wins; equal highest scores share; 0 points never wins."""
        best = max(self.scores)
        return tuple(s == best and best > 0 for s in self.scores)


def win_groups(partisans: Sequence[Sequence[int]], leader_holder: Sequence[int | None] | None, settle: Settle | None) -> tuple[GroupResult, ...]:
    """Step 2: who wins each interest group. ``leader_holder[s]`` is the seat
    holding suit ``s``'s leader as a partisan (Leaders variant; None for the
    rules as printed)."""
    results = []
    for suit in range(len(partisans[0]) if partisans else 0):
        best, most = -1, []  # the most partisans held, and the seats holding that many
        for seat, held in enumerate(partisans):
            count = held[suit]
            if count > best:
                best, most = count, [seat]
            elif count == best:
                most.append(seat)
        if best == 0:
            results.append(GroupResult(suit, None, (), "none"))
            continue
        if len(most) == 1:
            results.append(GroupResult(suit, most[0], (), "majority"))
            continue
        tied = tuple(most)
        holder = leader_holder[suit] if leader_holder is not None else None
        if holder is None:
            results.append(GroupResult(suit, None, tied, "tie"))
        elif holder in tied:
            results.append(GroupResult(suit, holder, tied, "leader"))
        else:
            if settle is None:
                raise ValueError(f"suit {suit}: the leader's holder must pick among {tied}")
            pick = settle(suit, holder, tied)
            if pick not in tied:
                raise ValueError(f"suit {suit}: {pick} is not one of the tied seats {tied}")
            results.append(GroupResult(suit, pick, tied, "settled"))
    return tuple(results)


def control(chips: Sequence[int], won: Won) -> int | None:
    """Step 3 for one topic with these chips: the seat that takes it (the
    winner of the won group with the most chips on it), -1 when won groups of
    different seats tie for that, None when no won group has a chip on it.
    The agents ask it of the table as it stands."""
    best, who = 0, None
    for s, owner in won:
        c = chips[s]
        if not c or c < best:
            continue
        if c > best:
            best, who = c, owner
        elif who != owner:
            who = -1
    return who


def claim_topics(topics: Sequence[Sequence[int]], groups: Sequence[GroupResult], players: int) -> tuple[TopicResult, ...]:
    """Step 3: each topic's chips go to the winner of the won group with the
    most chips on it; a tie between different winners' groups shares them out."""
    won: list[tuple[int, int]] = []
    for g in groups:
        if g.winner is not None:
            won.append((g.suit, g.winner))
    results = []
    for index, chips in enumerate(topics):
        total = sum(chips)
        shares = [0] * players
        who = control(chips, won)
        if who is None:
            results.append(TopicResult(index, tuple(shares), None, (), total))
        elif who >= 0:
            shares[who] = total
            results.append(TopicResult(index, tuple(shares), who, (), 0))
        else:  # split: each tied group's winner takes an equal share
            best = max(chips[suit] for suit, _ in won)
            top = [(suit, seat) for suit, seat in won if chips[suit] == best]
            each = total // len(top)
            for _, seat in top:
                shares[seat] += each
            results.append(TopicResult(index, tuple(shares), None, tuple(suit for suit, _ in top), total - each * len(top)))
    return tuple(results)


def score(
    partisans: Sequence[Sequence[int]], topics: Sequence[Sequence[int]],
    leader_holder: Sequence[int | None] | None = None, settle: Settle | None = None,
) -> Scored:
    """Steps 2 to 4 for ``partisans[seat][suit]`` and each topic's ``chips[suit]``."""
    groups = win_groups(partisans, leader_holder, settle)
    claimed = claim_topics(topics, groups, len(partisans))
    scores = [0] * len(partisans)
    for t in claimed:
        for seat, taken in enumerate(t.shares):
            scores[seat] += taken
    return Scored(groups, claimed, tuple(scores))

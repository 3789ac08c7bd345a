"""The pieces of "I am thou, thou art I": the numbers, each seat's record and
what a seat is shown.

A visit's target is a number: ``0`` to ``21`` an NPC (its Major Arcana
number), ``PLAYER + seat`` another player, ``STOP`` no more visits. Each
seat's record (:class:`Mine`) holds what the seat knows of itself and its own
secret choices; the moderator's part (true points, other seats' hidden
choices) lives in the state. A seat's :class:`Observation` is the public
table and a frozen copy of its own record, nothing else.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter
from typing import Any

NPCS = 22
(FOOL, MAGICIAN, HIGH_PRIESTESS, EMPRESS, EMPEROR, HIEROPHANT, LOVERS, CHARIOT, JUSTICE, HERMIT, WHEEL, STRENGTH,
 HANGED_MAN, DEATH, TEMPERANCE, DEVIL, TOWER, STAR, MOON, SUN, JUDGEMENT, WORLD) = range(NPCS)
NPC_IDS = (
    "fool", "magician", "high-priestess", "empress", "emperor", "hierophant", "lovers", "chariot", "justice", "hermit",
    "wheel-of-fortune", "strength", "hanged-man", "death", "temperance", "devil", "tower", "star", "moon", "sun",
    "judgement", "world",
)
WANDS, COINS, CUPS, SWORDS = range(4)
SUIT_IDS = ("wands", "coins", "cups", "swords")
PLAYER = 100
"""A visit to seat ``s`` is ``PLAYER + s``."""
STOP = SKIP = -1
"""No more visits; no choice where a choice may be skipped (an option, so never None)."""
NEGATIVE = ("high-priestess", "justice", "devil", "tower", "star", "moon", "swords")
"""The effects that harm the player they target: an immune player cannot be chosen."""
MOST, TOP_TWO = 1, 2
"""The two ways of the endgame (the Group Decision)."""


@dataclass(frozen=True)
class Prepared:
    """The game's data and numbers, as the engine reads them."""

    npc_names: tuple[str, ...]
    suit_names: tuple[str, ...]
    players: tuple[int, int]
    rounds: int = 9
    visits: int = 3
    coins_cost: int = 6
    coins_max: int = 6
    thirds: int = 3
    tol: int = 2
    garnets: int = 0
    """Garnets each player starts with."""
    endgame: str = "most"
    """``most``, ``top-two`` or ``vote`` (the players vote, a majority decides)."""
    fool: int = 1
    """The Fool's option: 1 (trigger another NPC) or 2 (two random points a Fool point)."""
    reveal: bool = False
    """Every player's points are shown at the end of each round (the DM winner's choice)."""
    without: frozenset[str] = frozenset()
    """Powers switched off, for the designer's what-if (``fool``, ``cups passive`` ...)."""


@dataclass
class Mine:
    """One seat's record: what it knows of itself. Lists while playing; a
    frozen copy (:func:`own`) is all of it a seat's observation holds."""

    suit: int
    thirds: int
    known: list[int] = field(default_factory=lambda: [0] * NPCS)
    """Points as the seat has been told them (hidden effects change the true count only)."""
    actions: int = 3
    """Visits this round before any bonus visit."""
    picks: list[int] = field(default_factory=list)
    stopped: bool = False
    bought: bool = False
    asked_buy: bool = False
    coins_used: int = 0
    temperance_used: int = 0
    sword_point: int | None = None
    asked_sword: bool = False
    banned: list[tuple[int, int]] = field(default_factory=list)
    """(NPC, last round): the Swords' passive point keeps the seat away."""
    justice: list[int] = field(default_factory=list)
    """NPCs Justice forbids this round (told)."""
    justice_next: list[int] = field(default_factory=list)
    blocked_by: list[int] = field(default_factory=list)
    """Seats whose Swords block the seat from visiting players this round (told)."""
    blocked_next: list[int] = field(default_factory=list)
    tower_next: bool = False
    extra_next: list[str] = field(default_factory=list)
    """Sources of a bonus visit next round (empress, lovers, hermit); each counts once."""
    death: bool = False
    death_next: bool = False
    wheel: bool = False
    wheel_next: bool = False
    strength: bool = False
    strength_next: bool = False
    strength_last: int = -9
    sun_last: int = -9
    fool_last: int = -9
    chariot_last: int = -9
    lovers_pick: list[int] = field(default_factory=list)
    swords_due: int = 0
    swords_due_next: int = 0
    priestess: list[tuple[int, int]] = field(default_factory=list)
    priestess_next: list[tuple[int, int]] = field(default_factory=list)
    star: list[tuple[int, int]] = field(default_factory=list)
    star_next: list[tuple[int, int]] = field(default_factory=list)
    hierophant: list[int] = field(default_factory=list)
    hierophant_next: list[int] = field(default_factory=list)
    wands: list[tuple[int, int]] = field(default_factory=list)
    wands_next: list[tuple[int, int]] = field(default_factory=list)
    todo: list[tuple[Any, ...]] = field(default_factory=list)
    """Effects still to resolve this round, the next first."""
    told: list[tuple[Any, ...]] = field(default_factory=list)
    """Everything the moderator told this seat alone, in order: (round, what, ...)."""


_FIELDS = tuple(f.name for f in dataclasses.fields(Mine))
Own = namedtuple("Own", _FIELDS)  # type: ignore[misc]
Own.__doc__ = "A frozen copy of a seat's :class:`Mine` (a named tuple): lists become tuples."
_values = attrgetter(*_FIELDS)
_make = partial(tuple.__new__, Own)


def own(mine: Mine) -> Any:
    return _make([tuple(v) if v.__class__ is list else v for v in _values(mine)])


def thaw(frozen_mine: Any) -> Mine:
    """A :class:`Mine` again from its frozen copy."""
    values: dict[str, Any] = {n: list(v) if isinstance(v, tuple) else v for n, v in zip(_FIELDS, frozen_mine)}
    return Mine(**values)


@dataclass(frozen=True)
class Observation:
    """What one seat knows: the public table and its own record."""

    seat: int
    players: int
    round: int
    rounds: int
    phase: str
    suits: tuple[int, ...]
    fool: int
    reveal: bool
    endgame: int
    """MOST or TOP_TWO once decided, 0 while the players vote."""
    votes: tuple[int, ...]
    """Every seat's vote, once revealed."""
    history: tuple[tuple[tuple[int, ...], ...], ...]
    """Per finished round, every seat's visits."""
    immune: frozenset[int]
    """Seats no negative effect may target this round (Emperor: public)."""
    moon: frozenset[int]
    """Seats nobody may visit this round (Moon: announced)."""
    worlds: tuple[tuple[int, int], ...]
    """(seat, NPC) the World announced for this round."""
    ledger: tuple[tuple[int, ...], ...] | None
    """Every seat's points at the end of the last round (the reveal variant)."""
    results: Any
    """The endgame, once the moderator announces it."""
    mine: Any
    """A frozen copy of this seat's :class:`Mine`."""

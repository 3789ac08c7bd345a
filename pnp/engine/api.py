"""A small generic engine interface, in the OpenSpiel spirit.

A state asks for one :class:`Decision` at a time (simultaneous choices are
asked one seat after another, each from that seat's own observation, and only
revealed together), applies the chosen option, and ends with an
:class:`Outcome`. Chance uses the seeded ``random.Random`` the state was made
with (:func:`shuffle` deals from it, and :func:`sample` and :func:`below`
draw: :mod:`pnp.engine.draws`, exported here too); nothing reads global
randomness.
"""

from __future__ import annotations

import copy
import copyreg
import hashlib
import math
import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, overload

from pnp.engine.draws import below as below, sample as sample, shuffle as shuffle
from pnp.errors import PnpError

if TYPE_CHECKING:
    from pnp.loading.yamlsrc import Document
    from pnp.model import Game


class EngineError(PnpError):
    """A game's engine went wrong while playing: a fault of the engine or of
    an agent, never of the card data (which the engine's ``prepare`` checks)."""


class IllegalMove(EngineError):
    """An agent chose something that is not one of the decision's options."""


class NoEnd(EngineError):
    """A game did not end within its bound of decisions."""


P = TypeVar("P")
"""A game's prepared rules (what its ``prepare`` returns), its own type: opaque to pnp."""
O = TypeVar("O")
"""What one seat of a game sees (what its states' ``observation`` returns): opaque to pnp."""
R = TypeVar("R")
"""A scored table (what an engine's ``score`` returns): opaque to pnp."""
O_co = TypeVar("O_co", covariant=True)
P_co = TypeVar("P_co", covariant=True)

NO_CONTEXT: Mapping[str, Any] = MappingProxyType({})
"""A decision's context when the seat needs none."""


def rules_option(rules: Mapping[str, object], options: Mapping[str, object], key: str, default: object = None) -> object:
    """Engine option ``key`` (``default`` when unset); a text naming a key of
    the game's ``rules:`` stands for that rules value (docs/card-data.md)."""
    value = options.get(key, default)
    if isinstance(value, str) and value in rules:
        return rules[value]
    return value


def whole_option(value: object, what: str, low: int = 0) -> int:
    """``value``, an engine option named ``what``, checked to be a whole number of at least ``low``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise EngineError(f"engine.options.{what}: expected a whole number of at least {low}, found {value!r}")
    return value


def frozen(value: object) -> Any:
    """``value`` (card data: mappings, sequences, sets of plain values) with
    every dict made a read-only view, every list a tuple and every set a
    frozenset, all the way down: what an engine may put in an observation."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(frozen(v) for v in value)
    return value


class Decision(NamedTuple):
    """One seat's choice to make (a named tuple: made tens of thousands of times a second)."""

    seat: int
    kind: str
    """What is being decided, in the engine's own words ("play", "bid", "discard" ...)."""
    options: Sequence[Any]
    """Every legal choice (a sequence that may compute its members lazily).
    The engine's own values, which its own agents and handlers read as their
    own types (a card, a seat, a tuple of parts): pnp only passes them on."""
    context: Mapping[str, Any] = NO_CONTEXT
    """What the deciding seat may know about this decision (who sent what),
    read-only; like ``options``, the engine's own values."""


decision_of: Callable[[tuple[int, str, Sequence[object], Mapping[str, object]]], Decision] = partial(tuple.__new__, Decision)
"""``decision_of((seat, kind, options, context))`` is ``Decision(seat, kind,
options, context)`` made without a Python-level call (a named tuple's own
constructor is one, a third of a cheap decision's cost): for an engine making
tens of thousands of decisions a second. All four fields, always."""


@dataclass(frozen=True)
class Outcome:
    """How one game ended, seat by seat. Every game has winners (possibly
    none); a game that scores points gives ``scores`` too."""

    winners: tuple[bool, ...]
    categories: tuple[str, ...]
    """Each seat's way of ending, in the engine's own words (one of its
    ``CATEGORIES``), such as "won", "eliminated", "still playing"."""
    rounds: int
    """Rounds (or days, turns: the engine's ``ROUNDS``) played."""
    capped: bool
    """The engine's round cap ended the game."""
    hands: tuple[tuple[str, ...], ...]
    """Each seat's final cards, by card id."""
    scores: tuple[float, ...] = ()
    """Each seat's points, when the game scores points."""
    actions: Mapping[str, int] = field(default_factory=dict)
    """How often each kind of action (the engine's ``ACTIONS``) was chosen."""
    details: Mapping[str, object] = field(default_factory=dict)
    """Whatever else the engine reports about the game."""
    measures: Mapping[str, float] = field(default_factory=dict)
    """Numbers the simulator averages over games, with 95 % intervals, in
    the engine's own words (``MEASURES`` describes them): ties, margins,
    pieces lost. A 0/1 measure reads as how often it happens."""
    powers: Mapping[str, int] = field(default_factory=dict)
    """How often each card power (the engine's ``usable(prepared)["powers"]``)
    was used: what `pnp check` reports per skill level, flagging any never used."""

    @property
    def ranks(self) -> tuple[int, ...]:
        """Each seat's place, 1 first: by score when there are scores (equal
        scores share a place), winners before the rest otherwise."""
        keys = self.scores if self.scores else tuple(1.0 if won else 0.0 for won in self.winners)
        return tuple(1 + sum(other > mine for other in keys) for mine in keys)


class ReadOnly:
    """A base for lazy option sequences (:class:`Product`, an engine's own):
    once made, none of their attributes can be set or deleted, so an agent
    cannot change the options it is offered. ``__init__`` (and a lazy cache)
    sets them with ``object.__setattr__``, or a slot's own ``__set__``."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: {name} cannot be deleted")

    def __setstate__(self, state: object) -> None:
        """A copy or an unpickled one gets its attributes (``copy`` and
        ``pickle`` would set them one by one)."""
        attributes, slots = state if isinstance(state, tuple) else (state, None)
        for name, value in {**(attributes or {}), **(slots or {})}.items():
            object.__setattr__(self, name, value)


class Product(ReadOnly, Sequence[tuple[object, ...]]):
    """Every combination of one choice per part, as a lazy sequence of tuples:
    a decision made of independent parts (a source for each suit, a place for
    each piece) offered as one option list without building it. ``len``,
    indexing (mixed radix, the last part fastest) and ``in`` cost one step per
    part; making one costs only the tuple of its parts (an agent that picks
    part by part never asks its size). It is read-only, and an engine gives
    it tuples (or other read-only sequences) as parts, so an agent cannot
    change the options it is offered."""

    __slots__ = ("parts",)
    parts: tuple[Sequence[Any], ...]
    """The choices of each part, the engine's own values: read by the engine's own agents."""

    def __init__(self, parts: Sequence[Sequence[object]]):
        _set_parts(self, tuple(parts))

    def __reduce__(self) -> tuple[object, ...]:
        return Product, (self.parts,)

    def __len__(self) -> int:
        return math.prod(map(len, self.parts))

    @overload
    def __getitem__(self, index: int) -> tuple[object, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[object, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[object, ...] | list[tuple[object, ...]]:
        size = len(self)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(size))]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        picks = []
        for part in reversed(self.parts):
            index, at = divmod(index, len(part))
            picks.append(part[at])
        return tuple(reversed(picks))

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, tuple) or len(value) != len(self.parts):
            return False
        return all(map(operator.contains, self.parts, value))

    def __repr__(self) -> str:
        return f"Product({list(self.parts)!r})"


_slot: MemberDescriptorType = Product.__dict__["parts"]
_set_parts: Callable[[Product, tuple[Sequence[object], ...]], None] = _slot.__set__
"""Sets a new Product's parts without a Python-level call (its ``__setattr__`` refuses)."""


class State(Protocol[O_co]):
    """A game in progress, whose seats see observations of type ``O_co``."""

    def decision(self) -> Decision | None: ...

    def apply(self, choice: object) -> None: ...

    def observation(self, seat: int) -> O_co: ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome: ...


class QueuedState:
    """Decision machinery for an engine whose decisions come in turn:
    decisions wait in a queue; when it is empty the current stage
    (``_stage``) queues the next ones or moves the game on; each kind of
    decision has its handler (an engine may subclass it; none must)."""

    _queue: list[Decision]
    _handlers: dict[str, Callable[[Decision, Any], None]]
    _stage: Callable[[], None]
    _views: Sequence[object]
    over: bool
    check_moves: bool

    def decision(self) -> Decision | None:
        while not self._queue and not self.over:
            self._stage()
        return self._queue[0] if self._queue else None

    def apply(self, choice: object) -> None:
        decision = self._queue.pop(0)
        if self.check_moves and choice not in decision.options:
            raise IllegalMove(f"seat {decision.seat}: {choice!r} is not a legal {decision.kind}")
        self._handlers[decision.kind](decision, choice)

    def observation(self, seat: int) -> object:
        return self._views[seat]

    def is_terminal(self) -> bool:
        return self.over


Agent = Callable[[O, Decision, random.Random], object]
"""An agent sees only its observation (an ``O``: ``Agent[Observation]``) and the decision, and returns an option;
the ``random.Random`` it is given is its seat's own (:func:`agent_rngs`), never
the game's."""


def agent_rngs(seed: str, players: int) -> tuple[random.Random, ...]:
    """Each seat's agent's own generator for the game dealt by
    ``random.Random(seed)``: seeded from a SHA-256 digest of the seed and the
    seat under a prefix the game's seed never has, so no state or draw of an
    agent's generator tells anything of the game's (its deal, its deck) or of
    another seat's. Made once per game."""
    return tuple(
        random.Random(int.from_bytes(hashlib.sha256(f"pnp agent\0{seed}\0{seat}".encode()).digest(), "big"))
        for seat in range(players)
    )


class Engine(Protocol[P_co]):
    """What every engine module provides (docs/engine.md, What an engine
    module provides). A module is checked against :class:`PlayEngine` or
    :class:`ScoreEngine`, whichever a command needs, when it is loaded
    (:func:`pnp.engine.plugins.engine_for`); its optional names
    (``determinize``, ``usable``, ``SWITCHES``, ``MEASURES`` ...) are read
    where they are used."""

    def prepare(self, game: Game, options: Mapping[str, object]) -> P_co: ...


class PlayEngine(Engine[P], Protocol[P, O]):
    """An engine that plays games (``pnp simulate``, ``pnp check``): its
    prepared rules are ``P``, its seats see ``O`` (a typed engine module can
    be checked with ``engine: PlayEngine[Deck, Observation] = rules``). pnp
    holds every engine as a ``PlayEngine[object, object]``: it only hands an
    engine back the values that engine made."""

    def player_counts(self, prepared: P) -> Iterable[int]: ...

    def new_state(self, prepared: P, players: int, rng: random.Random, options: Mapping[str, object]) -> State[O]: ...

    @property
    def AGENTS(self) -> Mapping[str, Callable[[], Agent[O]]]:
        """Agent factories by name."""
        ...


class ScoreEngine(Engine[P], Protocol[P, R]):
    """An engine that scores a real table (``pnp score``): its prepared
    rules are ``P``, its scored tables ``R``."""

    def score(self, prepared: P, table: Document) -> R: ...

    def score_text(self, result: R) -> Iterable[str]: ...


def members(protocol: type) -> tuple[tuple[str, bool], ...]:
    """The names an engine protocol requires, its bases' first, in the order
    declared, each with whether it is a function (else a read-only value: ``AGENTS``)."""
    return tuple(
        (name, not isinstance(value, property))
        for cls in reversed(protocol.__mro__)
        if Engine in cls.__mro__
        for name, value in vars(cls).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    )


S = TypeVar("S", bound="State[object]")

# Read-only views (a decision's context ...) copy as views of a copied dict.
copyreg.pickle(MappingProxyType, lambda view: (MappingProxyType, (dict(view),)))


def clone(state: S) -> S:
    """A copy of ``state`` that plays on alone, its seeded rng included: the
    original is untouched, and the same choices give the same game in both.
    For look-ahead and what-if play by the harness; an agent is still given
    only its seat's observation (an agent that searches builds its own
    states from that, never from the true one)."""
    return copy.deepcopy(state)


def play(state: State[O], agents: Sequence[Agent[O]], rngs: Sequence[random.Random], max_decisions: int = 100_000) -> Outcome:
    """Play ``state`` to the end, asking each seat's agent for its decisions;
    seat ``s``'s agent draws from ``rngs[s]`` (:func:`agent_rngs`), never from
    the generator the state deals with. A state that plays itself (its own
    ``play_out(agents, rngs, max_decisions)``, docs/engine.md) does: the same
    questions, in the same order, with the same answers, without three
    calls a decision."""
    own = getattr(state, "play_out", None)
    if own is not None:
        return own(agents, rngs, max_decisions)  # type: ignore[no-any-return]
    decide, observe, apply = state.decision, state.observation, state.apply
    for _ in range(max_decisions):
        decision = decide()
        if decision is None:
            return state.outcome()
        seat = decision.seat
        apply(agents[seat](observe(seat), decision, rngs[seat]))
    raise NoEnd(f"no end after {max_decisions} decisions")

"""A search agent for any engine: Information-Set Monte Carlo Tree Search.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012): one tree for the searching
seat, whose nodes are the moves made from its point of view. Each iteration

1. *determinizes*: the engine's ``determinize(prepared, observation, decision,
   rng)`` deals a whole state consistent with what the seat has seen (the other
   hands, the deck order and every secret choice drawn afresh), so the search
   never sees the true game;
2. *selects* down the tree among the moves legal in that deal, each judged
   from the point of view of the seat making it, by PUCT (Rosin 2011, as in
   AlphaZero): its mean reward plus an exploration term weighted by a prior,
   where the rollout agent's own choice in this deal holds half the prior
   and every other move shares the rest (prior knowledge, Gelly and Silver
   2007); a child's availability, the iterations in which it was legal,
   stands for its parent's visits, as in the paper's ISMCTS;
3. *expands* one move: the rollout agent's choice when the node lacks it,
   otherwise moves drawn at random join the node as its visits grow (as the
   square root of its visits: progressive widening, Coulom 2007), so a choice
   among thousands of options (a place for every piece) stays searchable;
4. *plays out* the rest of the game with the game's rollout agent at every
   seat (game.yaml ``engine.rollout``; the game's ``heuristic`` if it has
   one, otherwise random play), and
5. *backs up* each seat's share of the win (1/k for each of k winners).

After its iterations the agent plays the root move visited most. The prior
makes it play as its rollout agent does until the playouts show a better
move clearly: with few iterations and a noisy game, the best of many noisy
estimates flatters itself, and a search that trusted it would play worse
than the agent it plays out with. Its only
inputs are its observation, the decision and its own generator, so the same
seed gives the same moves, and it knows nothing its seat has not seen.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from pnp.engine.api import Agent, Decision, EngineError, Outcome, PlayEngine, State, play

T = TypeVar("T")

EXPLORATION = 1.0
"""PUCT's exploration constant, for rewards between 0 and 1."""
POLICY_PRIOR = 0.5
"""The share of a node's prior held by the rollout agent's own choice."""
WIDENING = 1.0
"""A node holds up to WIDENING * sqrt(visits + 1) children besides the rollout agent's choices."""
NEW_MOVE_TRIES = 8
"""Random draws spent looking for a move a node has not tried yet, among many."""
SMALL = 64
"""Up to this many options, an untried move is drawn from a list of them all."""
MAX_DECISIONS = 100_000
"""A playout that makes more decisions than this is an engine fault (NoEnd)."""
_NONE = object()
"""No move (None may be a move: "pass")."""


class _Node:
    __slots__ = ("move", "seat", "prior", "visits", "reward", "available", "children", "drawn")

    def __init__(self, move: object, seat: int, prior: float):
        self.move = move
        self.seat = seat
        """The seat that made ``move`` (whose reward this node adds up)."""
        self.prior = prior
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[object, _Node] = {}
        self.drawn = 0
        """Children added at random (progressive widening)."""


def shares(outcome: Outcome) -> tuple[float, ...]:
    """Each seat's share of the win: 1/k for each of k winners, 0 otherwise."""
    k = sum(outcome.winners)
    return tuple((1.0 / k if won else 0.0) for won in outcome.winners)


class Search:
    """An ISMCTS agent of ``iterations`` determinized playouts a decision."""

    def __init__(self, engine: PlayEngine[object, object], prepared: object, iterations: int, rollout: Callable[[], Agent[object]]):
        determinize = getattr(engine, "determinize", None)
        if determinize is None:
            raise EngineError(f"the engine {getattr(engine, '__name__', engine)} has no determinize(prepared, observation, decision, rng): it cannot be searched")
        self.determinize: Callable[[object, object, Decision, random.Random], State[object]] = determinize
        self.prepared = prepared
        self.iterations = iterations
        self.rollout = rollout()

    def __call__(self, observation: object, decision: Decision, rng: random.Random) -> object:
        options = decision.options
        if len(options) == 1:
            return options[0]
        root = _Node(None, decision.seat, 1.0)
        for _ in range(self.iterations):
            state = self.determinize(self.prepared, observation, decision, rng)
            path = self._descend(root, state, rng)
            rewards = shares(self._play_out(state, rng))
            for node in path:
                node.visits += 1
                node.reward += rewards[node.seat]
        best = max(root.children.values(), key=lambda child: child.visits)
        return best.move

    def _descend(self, root: _Node, state: State[object], rng: random.Random) -> list[_Node]:
        """Select down from ``root`` in one determinization, adding one new
        node at most; the path taken (the playout starts where it ends)."""
        node, path = root, [root]
        while (decision := state.decision()) is not None:
            options, children = decision.options, node.children
            size = len(options)
            own = self.rollout(state.observation(decision.seat), decision, rng)
            other = (1.0 - POLICY_PRIOR) / (size - 1) if size > 1 else 0.0
            if own not in children:
                child = children[own] = _Node(own, decision.seat, POLICY_PRIOR + other)
            elif node.drawn < WIDENING * math.sqrt(node.visits + 1) and (move := self._untried(children, options, size, rng)) is not _NONE:
                node.drawn += 1
                child = children[move] = _Node(move, decision.seat, other)
            else:
                child = self._select(children, options)
            state.apply(child.move)
            path.append(child)
            if child.visits == 0:
                return path
            node = child
        return path

    @staticmethod
    def _untried(children: dict[object, _Node], options: Sequence[object], size: int, rng: random.Random) -> object:
        """A legal move the node has not tried, drawn at random; :data:`_NONE`
        when none is left (or none was found among very many)."""
        if size <= len(children):
            return _NONE
        if size <= SMALL:
            untried = [move for move in options if move not in children]
            return untried[int(rng.random() * len(untried))] if untried else _NONE
        for _ in range(NEW_MOVE_TRIES):
            move = options[int(rng.random() * size)]
            if move not in children:
                return move
        return _NONE

    @staticmethod
    def _select(children: dict[object, _Node], options: Sequence[object]) -> _Node:
        """PUCT among the children legal in this determinization, each judged
        from the seat that makes its move; their availability counts this. A
        child not yet played is valued as the mean of those that were."""
        legal = [child for child in children.values() if child.move in options]
        played = sum(child.visits for child in legal)
        fpu = sum(child.reward for child in legal) / played if played else 0.5
        best, top = legal[0], -1.0
        for child in legal:
            child.available += 1
            mean = child.reward / child.visits if child.visits else fpu
            value = mean + EXPLORATION * child.prior * math.sqrt(child.available) / (1 + child.visits)
            if value > top:
                best, top = child, value
        return best

    def _play_out(self, state: State[object], rng: random.Random) -> Outcome:
        return play(state, _Every(self.rollout), _Every(rng), MAX_DECISIONS)  # type: ignore[arg-type]


class _Every(Generic[T]):
    """The same thing for every seat (a playout's agents and generators)."""

    __slots__ = ("value",)

    def __init__(self, value: T):
        self.value = value

    def __getitem__(self, seat: int) -> T:
        return self.value

"""A search agent for any engine: Information-Set Monte Carlo Tree Search.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012): one tree for the searching
seat, whose nodes are the moves made from its point of view. Each iteration

1. *determinizes*: the engine's ``determinize(prepared, observation, decision,
   rng)`` deals a whole state consistent with what the seat has seen (the other
   hands, the deck order and every secret choice drawn afresh), so the search
   never sees the true game;
2. *selects* down the tree among the moves legal in that deal, by UCB1 from
   the point of view of the seat making each move (a child's availability
   counts the iterations in which it was legal, as the paper's ISMCTS does);
3. *expands* one new move, first the rollout agent's own choice, then moves
   drawn at random: the number of children grows as the square root of the
   node's visits (progressive widening, Coulom 2007), so decisions with
   thousands of options (a place for every piece) stay searchable;
4. *plays out* the rest of the game with the game's rollout agent at every
   seat (game.yaml ``engine.rollout``; the game's ``heuristic`` if it has
   one, otherwise random play), and
5. *backs up* each seat's share of the win (1/k for each of k winners).

After its iterations the agent plays the root move visited most. Its only
inputs are its observation, the decision and its own generator, so the same
seed gives the same moves, and it knows nothing its seat has not seen.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from pnp.engine.api import Agent, Decision, EngineError, Outcome, play

EXPLORATION = 0.7
"""UCB1's exploration constant, for rewards between 0 and 1 (about 1/sqrt 2)."""
WIDENING = 2.0
"""A node holds up to WIDENING * sqrt(visits + 1) children (at least one)."""
NEW_MOVE_TRIES = 8
"""Random draws spent looking for a move a node has not tried yet, among many."""
SMALL = 64
"""Up to this many options, an untried move is drawn from a list of them all."""
MAX_DECISIONS = 100_000
"""A playout that makes more decisions than this is an engine fault (NoEnd)."""


class _Node:
    __slots__ = ("move", "seat", "visits", "reward", "available", "children")

    def __init__(self, move: Any, seat: int):
        self.move = move
        self.seat = seat
        """The seat that made ``move`` (whose reward this node adds up)."""
        self.visits = 0
        self.reward = 0.0
        self.available = 1
        self.children: dict[Any, _Node] = {}


def shares(outcome: Outcome) -> tuple[float, ...]:
    """Each seat's share of the win: 1/k for each of k winners, 0 otherwise."""
    k = sum(outcome.winners)
    return tuple((1.0 / k if won else 0.0) for won in outcome.winners)


class Search:
    """An ISMCTS agent of ``iterations`` determinized playouts a decision."""

    def __init__(self, engine: ModuleType, prepared: Any, iterations: int, rollout: Callable[[], Agent]):
        determinize = getattr(engine, "determinize", None)
        if determinize is None:
            raise EngineError(f"the engine {engine.__name__} has no determinize(prepared, observation, decision, rng): it cannot be searched")
        self.determinize: Callable[..., Any] = determinize
        self.prepared = prepared
        self.iterations = iterations
        self.rollout = rollout()

    def __call__(self, observation: Any, decision: Decision, rng: random.Random) -> Any:
        options = decision.options
        if len(options) == 1:
            return options[0]
        root = _Node(None, decision.seat)
        for _ in range(self.iterations):
            state = self.determinize(self.prepared, observation, decision, rng)
            path = self._descend(root, state, rng)
            rewards = shares(self._play_out(state, rng))
            for node in path:
                node.visits += 1
                node.reward += rewards[node.seat]
        best = max(root.children.values(), key=lambda child: child.visits)
        return best.move

    def _descend(self, root: _Node, state: Any, rng: random.Random) -> list[_Node]:
        """Select and expand from ``root`` in one determinization; the path taken."""
        node, path = root, [root]
        while True:
            decision = state.decision()
            if decision is None:
                return path
            children = node.children
            chosen = None
            if len(children) >= WIDENING * math.sqrt(node.visits + 1):
                chosen = self._select(children, decision.options)
            if chosen is None:  # room for a new move, or none of the node's is legal in this deal
                move = self._new_move(children, state, decision, rng)
                if move is not None:
                    child = children[move] = _Node(move, decision.seat)
                    state.apply(move)
                    path.append(child)
                    return path
                chosen = self._select(children, decision.options)
                if chosen is None:
                    return path
            state.apply(chosen.move)
            path.append(chosen)
            node = chosen

    def _new_move(self, children: dict[Any, _Node], state: Any, decision: Decision, rng: random.Random) -> Any:
        """A legal move the node has not tried, None when there is none left:
        the rollout agent's own choice first, then one at random."""
        options = decision.options
        if not children:
            return self.rollout(state.observation(decision.seat), decision, rng)
        size = len(options)
        if size <= SMALL:
            untried = [move for move in options if move not in children]
            return untried[int(rng.random() * len(untried))] if untried else None
        for _ in range(NEW_MOVE_TRIES):
            move = options[int(rng.random() * size)]
            if move not in children:
                return move
        return None

    @staticmethod
    def _select(children: dict[Any, _Node], options: Sequence[Any]) -> _Node | None:
        """UCB1 among the children legal in this determinization, each seen
        from the seat that makes its move; their availability counts this."""
        best, top = None, -1.0
        for child in children.values():
            if child.move not in options:
                continue
            child.available += 1
            if child.visits == 0:
                return child
            value = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if value > top:
                best, top = child, value
        return best

    def _play_out(self, state: Any, rng: random.Random) -> Outcome:
        return play(state, _Every(self.rollout), _Every(rng), MAX_DECISIONS)  # type: ignore[arg-type]


class _Every:
    """The same thing for every seat (a playout's agents and generators)."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __getitem__(self, seat: int) -> Any:
        return self.value

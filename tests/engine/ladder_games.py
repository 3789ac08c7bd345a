"""Fake engines for the skill ladder's tests: games whose levels have a known
strength, and a clock the agents move, so a slow level is slow without time.

Each seat picks a number from 0 to 9 once; the highest pick wins (equal picks
share the win). In :func:`luck` the picks are ignored and the deal decides.
Agents: ``random`` picks any number, ``heuristic`` 5-9, ``good`` 8-9 and
``best`` always 9 (:func:`engine`, the ladder :data:`LEVELS`); with
``weak`` the two above the heuristic pick 0-4.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from pnp.engine.api import Agent, Decision, Outcome

CLOCK = [0.0]
"""The fake seconds: each agent call adds its level's cost (:data:`COST`)."""
COST = {"random": 0.0, "heuristic": 0.0, "good": 0.0, "best": 0.0}
LEVELS = ("random", "heuristic", "good", "best")
"""Levels of known strength, weakest first (agent names of :func:`engine`)."""


class PickState:
    def __init__(self, players: int, rng: random.Random, luck: bool):
        self.n, self.rng, self.luck = players, rng, luck
        self.picks: list[int] = []

    def decision(self) -> Decision | None:
        if len(self.picks) == self.n:
            return None
        return Decision(len(self.picks), "pick", tuple(range(10)))

    def apply(self, choice: Any) -> None:
        self.picks.append(choice)

    def observation(self, seat: int) -> Any:
        return seat

    def is_terminal(self) -> bool:
        return len(self.picks) == self.n

    def outcome(self) -> Outcome:
        keys = [self.rng.random() for _ in range(self.n)] if self.luck else self.picks
        top = max(keys)
        winners = tuple(k == top for k in keys)
        return Outcome(
            winners, tuple("won" if w else "lost" for w in winners), 1, False, ((),) * self.n,
            actions={"pick": self.n}, powers={"double": self.picks.count(9)} if 9 in self.picks else {},
        )


def _picker(name: str, low: int, high: int) -> Callable[[], Agent]:
    def make() -> Agent:
        def agent(observation: Any, decision: Decision, rng: random.Random) -> Any:
            CLOCK[0] += COST[name]
            return rng.randint(low, high)

        return agent

    return make


def engine(luck: bool = False, weak: bool = False, search: bool = True) -> ModuleType:
    """A fake engine module; ``search``: it has ``determinize`` (so :func:`pnp.engine.ladder.levels` climbs to search)."""
    module = ModuleType("pick_engine")
    module.AGENTS = {  # type: ignore[attr-defined]
        "random": _picker("random", 0, 9), "heuristic": _picker("heuristic", 5, 9),
        "good": _picker("good", *((0, 4) if weak else (8, 9))), "best": _picker("best", *((0, 4) if weak else (9, 9))),
    }
    module.new_state = lambda prepared, players, rng, options: PickState(players, rng, luck)  # type: ignore[attr-defined]
    module.usable = lambda prepared: {"actions": ("pick", "pass"), "powers": ("double", "steal")}  # type: ignore[attr-defined]
    if search:
        module.determinize = lambda prepared, observation, decision, rng: None  # type: ignore[attr-defined]
    return module

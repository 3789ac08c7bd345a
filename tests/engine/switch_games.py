"""A fake engine whose powers can be switched off (``SWITCHES``), for the
what-if play of `pnp check` (:mod:`pnp.engine.whatif`): the share of games
in which each power changes the winner is known from the seeds alone.

Each seat is dealt a different number from 0 to 99 and says ``pass`` once;
the highest number wins. Three powers (``usable``): ``swap`` acts in the
games whose deal generator's first draw is below :data:`SWAP` and then the
lowest number wins instead, so switching it off changes the winner in
exactly those games; ``idle`` acts in every game and changes nothing;
``never`` never acts. The engine option ``without`` switches powers off.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from pnp.engine.api import Agent, Decision, Outcome

SWAP = 0.25
POWERS = ("never", "idle", "swap")
CLOCK = [0.0]
"""Fake seconds: each agent call adds :data:`COST` (a slow game without time)."""
COST = [0.0]


def swaps(seed: str) -> bool:
    """Whether ``swap`` acts in the game dealt from ``seed`` (the test's own reckoning)."""
    return random.Random(seed).random() < SWAP


class SwitchState:
    def __init__(self, off: frozenset[str], players: int, rng: random.Random):
        self.off, self.n = off, players
        self.swap = rng.random() < SWAP
        self.numbers = rng.sample(range(100), players)
        self.passed = 0

    def decision(self) -> Decision | None:
        return None if self.is_terminal() else Decision(self.passed, "pass", ("pass",))

    def apply(self, choice: Any) -> None:
        self.passed += 1

    def observation(self, seat: int) -> Any:
        return self.numbers[seat]

    def is_terminal(self) -> bool:
        return self.passed == self.n

    def outcome(self) -> Outcome:
        swapped = self.swap and "swap" not in self.off
        best = (min if swapped else max)(self.numbers)
        winners = tuple(number == best for number in self.numbers)
        powers = {name: 1 for name, acts in (("idle", True), ("swap", swapped)) if acts and name not in self.off}
        return Outcome(winners, tuple("won" if w else "lost" for w in winners), 1, False, ((),) * self.n, actions={"pass": self.n}, powers=powers)


def _agent() -> Agent:
    def agent(observation: Any, decision: Decision, rng: random.Random) -> Any:
        CLOCK[0] += COST[0]
        return decision.options[0]

    return agent


def engine(switches: bool = True) -> ModuleType:
    """The fake engine module; ``switches``: it declares ``SWITCHES = True``."""
    module = ModuleType("switch_engine")
    module.AGENTS = {"random": _agent, "heuristic": _agent}  # type: ignore[attr-defined]
    module.prepare = lambda game, options: frozenset(options.get("without", ()))  # type: ignore[attr-defined]
    module.new_state = lambda prepared, players, rng, options: SwitchState(prepared, players, rng)  # type: ignore[attr-defined]
    module.usable = lambda prepared: {"actions": ("pass",), "powers": POWERS}  # type: ignore[attr-defined]
    if switches:
        module.SWITCHES = True  # type: ignore[attr-defined]
    return module

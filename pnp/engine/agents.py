"""Agents by name: an engine's own (its ``AGENTS``) and pnp's search agent.

``search`` and ``search:N`` name the ISMCTS agent of :mod:`pnp.engine.search`
with N iterations a decision (:data:`ITERATIONS` when N is left out), for any
engine that provides ``determinize``; its playouts use the game's rollout
agent (game.yaml ``engine.rollout``; the game's ``heuristic`` when it names
none and has one, otherwise ``random``).
"""

from __future__ import annotations

from pnp.engine.api import Agent, PlayEngine
from pnp.errors import UsageError

SEARCH = "search"
ITERATIONS = 100
"""Iterations a decision of the plain ``search`` agent."""


def iterations(name: str) -> int | None:
    """The iterations a search agent's name asks for; None for any other name."""
    if name == SEARCH:
        return ITERATIONS
    head, colon, count = name.partition(":")
    if head != SEARCH or not colon:
        return None
    if not count.isdigit() or int(count) < 1:
        raise UsageError(f"--agents: {name!r}: expected search:N, N a whole number of iterations a decision (1 or more)")
    return int(count)


def check(engine: PlayEngine[object, object], name: str) -> None:
    """Refuse a name that is neither one of the engine's agents nor a search
    agent of an engine that can be searched."""
    if iterations(name) is not None:
        if not hasattr(engine, "determinize"):
            raise UsageError(
                f"--agents: {name!r}: this game's engine cannot be searched: it has no "
                "determinize(prepared, observation, decision, rng) (docs/engine.md)"
            )
        return
    if name not in engine.AGENTS:
        known = [*engine.AGENTS, *([f"{SEARCH}[:N]"] if hasattr(engine, "determinize") else [])]
        raise UsageError(f"--agents: unknown agent {name!r}; expected one of {', '.join(known)}")


def rollout(engine: PlayEngine[object, object], declared: str | None) -> str:
    """The agent a search plays its playouts with: the game's declared one,
    else its heuristic, else random play."""
    if declared is not None:
        return declared
    return "heuristic" if "heuristic" in engine.AGENTS else "random"


def make(engine: PlayEngine[object, object], prepared: object, name: str, declared_rollout: str | None = None) -> Agent[object]:
    """A new agent called ``name`` (checked by :func:`check`) for one seat."""
    count = iterations(name)
    if count is None:
        return engine.AGENTS[name]()
    from pnp.engine.search import Search

    return Search(engine, prepared, count, engine.AGENTS[rollout(engine, declared_rollout)])

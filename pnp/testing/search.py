"""The ``determinize`` contract pnp's search agent plays through
(docs/engine.md, Search), as checks a game's own tests call on decisions of
its games: each deal agrees with all the seat has seen, and agents decide
in it as they did in the true game."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from pnp.engine.api import Agent, Decision, State, play
from pnp.testing.hidden import canon, same_decision

Decisions = Iterable[tuple[object, State[object], Decision]]
"""(prepared, state, decision) at each decision of some games, the state
about to make it (advance the state only after the check has looked)."""


class Searchable(Protocol):
    """An engine module that deals a game from one seat's observation (docs/engine.md, Search)."""

    def determinize(self, prepared: object, observation: object, decision: Decision, rng: random.Random) -> State[object]: ...

    @property
    def AGENTS(self) -> Mapping[str, Callable[[], Agent[object]]]: ...


def determinizations_agree(rules: Searchable, decisions: Decisions, players: int, play_every: int = 7) -> tuple[int, int]:
    """At each decision, two deals from the seat's observation: each is at
    the same decision and shows the seat the same observation, its options
    are hashable; every ``play_every``-th deal plays to its end with random
    agents. Returns (decisions checked, those where another seat's
    observation differed between the two deals)."""
    checked = varied = 0
    for prepared, state, decision in decisions:
        seat = decision.seat
        observation = state.observation(seat)
        seen = canon(observation)
        deals = [rules.determinize(prepared, observation, decision, random.Random(k)) for k in range(2)]
        for deal in deals:
            dealt = deal.decision()
            assert dealt is not None and same_decision(dealt, decision)
            assert canon(deal.observation(seat)) == seen
            assert all(hash(o) is not None for o in itertools.islice(dealt.options, 50))
        varied += any(canon(deals[0].observation(s)) != canon(deals[1].observation(s)) for s in range(players) if s != seat)
        checked += 1
        if checked % play_every == 0:
            play(deals[0], [rules.AGENTS["random"]()] * players, [random.Random(checked)] * players)
            assert deals[0].is_terminal()
    return checked, varied


def agents_decide_alike(
    rules: Searchable, decisions: Decisions, probes: Mapping[str, Agent[object]], limit: int | None = None, search_every: int = 10,
) -> dict[str, int]:
    """At each decision (the first ``limit``), one deal from the seat's
    observation: every probe agent, given the same generator, chooses in the
    deal as in the true game (a probe named ``search...`` only at every
    ``search_every``-th decision: it is slow). Returns the choices compared
    per probe."""
    compared = dict.fromkeys(probes, 0)
    for index, (prepared, state, decision) in enumerate(itertools.islice(decisions, limit)):
        seat = decision.seat
        observation = state.observation(seat)
        deal = rules.determinize(prepared, observation, decision, random.Random(index))
        dealt = deal.decision()
        assert dealt is not None, f"the deal at decision {index} ({decision.kind}) asks for no decision"
        for label, agent in probes.items():
            if label.startswith("search") and index % search_every:
                continue
            here = agent(observation, decision, random.Random(index))
            there = agent(deal.observation(seat), dealt, random.Random(index))
            assert canon(here) == canon(there), f"{label} at decision {index} ({decision.kind}) chose differently in another deal"
            compared[label] += 1
    return compared

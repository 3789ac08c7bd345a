"""Agents cannot cheat the simulator: each seat draws from a generator of its
own that tells nothing of the game's deal, and an observation holds nothing
an agent can change (so nothing it edits reaches the game or later games)."""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any

import pytest

from pnp.engine.api import Decision, agent_rngs
from pnp.engine.simulate import Run, metrics, simulate, tally_range
from tests.enginetools import shipped
from tests.hidden import mutable_parts

ENGINES = ("persuasion-b04", "persuasion-d01", "partisan")


def _deal(state: Any) -> str:
    """Every hand and desires card of a state just dealt, comparably."""
    return repr((state.hands, getattr(state, "desires", None)))


def _spy_run(name: str, agent: Any, games: int, prepared: Any = None) -> tuple[Run, list[str]]:
    """A run of ``name`` (4 players) whose every seat plays the agent
    ``agent(rules, prepared, deals)`` makes, and the deal of each game as it is
    made (the agent reads ``deals`` only to tell a new game and to score its guess)."""
    rules, game = shipped(name)
    assert game.engine is not None
    prepared = rules.prepare(game, dict(game.engine.options)) if prepared is None else prepared
    deals: list[str] = []

    def new_state(data: Any, n: int, rng: random.Random, options: Any) -> Any:
        state = rules.new_state(data, n, rng, options)
        deals.append(_deal(state))
        return state

    spy = ModuleType("spy")
    spy.new_state = new_state  # type: ignore[attr-defined]
    spy.AGENTS = {"spy": lambda: agent(rules, prepared, deals)}  # type: ignore[attr-defined]
    return Run(spy, prepared, dict(game.engine.options), 4, ("spy",) * 4, games, 1), deals


def _rewinder(rules: ModuleType, prepared: Any, deals: list[str]) -> Any:
    """Plays as the heuristic, but at its first decision of each game it rewinds
    the generator it is given to the start of its last twist (the word index of
    ``getstate()`` set to 0) and deals a game from there: with the game's own
    generator (fewer than 624 words drawn since seeding) that is the game's deal."""
    base, recovered, options = rules.AGENTS["heuristic"](), [], {}

    def agent(obs: Any, decision: Decision, rng: random.Random) -> Any:
        if len(recovered) < len(deals):
            version, words, _gauss = rng.getstate()
            replay = random.Random()
            replay.setstate((version, (*words[:-1], 0), None))
            recovered.append(_deal(rules.new_state(prepared, 4, replay, options)) == deals[-1])
        return base(obs, decision, rng)

    agent.recovered = recovered  # type: ignore[attr-defined]
    return agent


@pytest.mark.parametrize("name", ENGINES)
def test_an_agent_cannot_replay_the_deal_from_its_generator(name: str) -> None:
    seats: list[Any] = []

    def make(rules: ModuleType, prepared: Any, deals: list[str]) -> Any:
        seats.append(_rewinder(rules, prepared, deals))
        return seats[-1]

    run, deals = _spy_run(name, make, games=30)
    tally_range(run, 0, run.games)
    tries = [hit for seat in seats for hit in seat.recovered]
    assert len(deals) == 30 and len(tries) == 4 * 30
    assert sum(tries) == 0, f"{sum(tries)} of {len(tries)} rewinds recovered the deal"


def test_each_seat_has_a_generator_of_its_own() -> None:
    game = random.Random("1:0")
    dealt = {game.getrandbits(32) for _ in range(2000)}
    first = [[r.getrandbits(32) for _ in range(50)] for r in agent_rngs("1:0", 4)]
    assert first == [[r.getrandbits(32) for _ in range(50)] for r in agent_rngs("1:0", 4)]  # the same seed, the same draws
    assert len({tuple(f) for f in first}) == 4
    assert not dealt & {w for f in first for w in f[:3]}
    assert [r.getrandbits(32) for r in agent_rngs("1:1", 4)] != [f[0] for f in first]


def _walk_run(name: str, games: int, check: Any) -> None:
    rules, game = shipped(name)
    assert game.engine is not None
    prepared = rules.prepare(game, dict(game.engine.options))
    for index in range(games):
        seed = f"walk:{index}"
        state = rules.new_state(prepared, 4, random.Random(seed), {})
        agents, rngs = [rules.AGENTS["heuristic"]() for _ in range(4)], agent_rngs(seed, 4)
        while (decision := state.decision()) is not None:
            obs = state.observation(decision.seat)
            check(obs, decision)
            state.apply(agents[decision.seat](obs, decision, rngs[decision.seat]))


@pytest.mark.parametrize("name", ENGINES)
def test_an_observation_holds_nothing_an_agent_can_change(name: str) -> None:
    """Nothing reachable from an observation or a decision (its options, lazy
    or not, and its context) is a list, dict, set, bytearray or object with
    settable attributes, but the seat's own notebook (``notes``, fresh each
    game, never read by the engine)."""

    def check(obs: Any, decision: Decision) -> None:
        notes = getattr(obs, "notes", None)
        found = mutable_parts((obs, decision), lambda o: notes is not None and o is notes)
        assert not found, f"{decision.kind}: {found[:5]}"

    _walk_run(name, 3, check)


def test_a_d01_agent_that_edits_the_cards_it_sees_changes_nothing() -> None:
    """Editing a letter's powers or a desires card's condition through the
    observation raises; the pack, and so the next games, are as prepared."""
    rules, game = shipped("persuasion-d01")
    assert game.engine is not None
    options = {**game.engine.options, "with_modules": True}
    pack, fresh = rules.prepare(game, options), rules.prepare(game, options)
    refused: list[bool] = []

    def tamperer(rules: ModuleType, prepared: Any, deals: list[str]) -> Any:
        base = rules.AGENTS["heuristic"]()

        def agent(obs: Any, decision: Decision, rng: random.Random) -> Any:
            edits = [lambda: obs.desires.condition.__setitem__("type", "hearts")]
            edits += [lambda L=L: L.powers[0]["effect"].__setitem__("type", "none") for L in obs.known.values() if L.powers]
            edits += [lambda L=L: L.powers.append(L.powers[0]) for L in obs.known.values() if L.powers]
            for edit in edits:
                try:
                    edit()
                    refused.append(False)
                except (TypeError, AttributeError):
                    refused.append(True)
            return base(obs, decision, rng)

        return agent

    run, _ = _spy_run("persuasion-d01", tamperer, games=5, prepared=pack)
    tally_range(run, 0, run.games)
    assert len(refused) > 100 and all(refused), f"{refused.count(False)} of {len(refused)} edits went through"
    assert pack == fresh
    heuristic = Run(rules, pack, dict(options), 4, ("heuristic",) * 4, 200, 3)
    assert metrics(heuristic, tally_range(heuristic, 0, 200)) == metrics(heuristic, tally_range(Run(rules, fresh, dict(options), 4, ("heuristic",) * 4, 200, 3), 0, 200))


@pytest.mark.parametrize("name", ENGINES)
def test_the_same_seed_gives_the_same_games_on_any_number_of_workers(name: str) -> None:
    rules, game = shipped(name)
    assert game.engine is not None
    run = Run(rules, rules.prepare(game, dict(game.engine.options)), dict(game.engine.options), 4, ("random", "heuristic", "random", "heuristic"), 200, 7)
    one, again, two = (json.dumps(metrics(run, simulate(run, workers))) for workers in (1, 1, 2))
    assert one == again == two

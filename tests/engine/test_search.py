"""pnp's search agent and the ``determinize`` contract it plays through.

Every engine that can be searched (the three shipped games and the High Card
example) deals, from one seat's observation and decision, whole states that
agree with all that seat has seen and differ in what it has not; agents decide
the same in every such deal (what they are given is all they know); the search
agent is reproducible by seed and plays better than the agents it plays out with.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pnp.engine import agents as seats
from pnp.engine.api import Decision, agent_rngs, play
from pnp.engine.plugins import engine_for
from pnp.engine.search import Search, shares
from pnp.loading.loader import load_game
from tests.conftest import ROOT, run_pnp
from tests.enginetools import shipped
from pnp.testing.search import agents_decide_alike, determinizations_agree

ENGINES = ("high-card", "persuasion-b04", "persuasion-d01", "partisan", "i-am-thou", "courting-season")
HIGH_CARD = ROOT / "pnp/resources/starters/engine"


def engine(name: str) -> tuple[ModuleType, Any, dict[str, Any]]:
    """An engine, its prepared data and options (move checks on)."""
    if name == "high-card":
        game = load_game(HIGH_CARD)
        rules, options = engine_for(game, trust=True)
    else:
        rules, game = shipped(name)
        assert game.engine is not None
        options = dict(game.engine.options)
    return rules, rules.prepare(game, options), options


def decisions(name: str, games: int, players: int) -> Iterator[tuple[ModuleType, Any, Any, Decision]]:
    """Every decision of ``games`` heuristic games: engine, prepared, state, decision."""
    rules, prepared, options = engine(name)
    for game in range(games):
        state = rules.new_state(prepared, players, random.Random(f"redeal:{game}"), options)
        agents = [rules.AGENTS["heuristic"]() for _ in range(players)]
        rngs = agent_rngs(f"redeal:{game}", players)
        while (decision := state.decision()) is not None:
            yield rules, prepared, state, decision
            state.apply(agents[decision.seat](state.observation(decision.seat), decision, rngs[decision.seat]))


@pytest.mark.parametrize("name", ENGINES)
def test_a_determinization_agrees_with_all_the_seat_has_seen_and_varies_the_rest(name: str) -> None:
    """Over every decision of whole games: the deal agrees with the seat's
    observation and decision, its options are hashable, the other seats'
    observations differ between deals, and each deal plays to its end."""
    players = 4 if name != "high-card" else 3
    rules, _, _ = engine(name)
    checked, varied = determinizations_agree(rules, ((p, s, d) for _, p, s, d in decisions(name, 3, players)), players)
    assert checked > 30
    assert varied > checked // 2, f"the other seats' hands varied in only {varied} of {checked} determinizations"


@pytest.mark.parametrize("name", ENGINES)
def test_agents_decide_alike_in_every_deal_their_seat_cannot_tell_apart(name: str) -> None:
    """Everything a seat has not seen dealt again at random: at 1,000 decisions
    of whole games the heuristic and random play, and at every tenth the search
    agent, choose as they did in the true game."""
    rules, prepared, _ = engine(name)
    probes = {"heuristic": rules.AGENTS["heuristic"](), "random": rules.AGENTS["random"](), "search:8": seats.make(rules, prepared, "search:8")}
    compared = agents_decide_alike(rules, ((p, s, d) for _, p, s, d in decisions(name, 1000, 3)), probes, limit=1000)
    assert compared == {"heuristic": 1000, "random": 1000, "search:8": 100}


def _trial(name: str, players: int, games: int, iterations: int, against: str) -> tuple[float, float, float]:
    """One search seat (rotated over the seats) among ``against`` agents: its
    share of the games someone won (1/k of a win shared by k), with a 95 %
    interval (mean +- 1.96 standard errors), as `pnp check`'s skill trace counts."""
    rules, prepared, options = engine(name)
    won: list[float] = []
    for game in range(games):
        seat = game % players
        agents = [rules.AGENTS[against]() for _ in range(players)]
        agents[seat] = Search(rules, prepared, iterations, rules.AGENTS["heuristic"])
        outcome = play(rules.new_state(prepared, players, random.Random(f"search:{game}"), options), agents, agent_rngs(f"search:{game}", players))
        if any(outcome.winners):
            won.append(shares(outcome)[seat])
    mean = sum(won) / len(won)
    half = 1.96 * math.sqrt(sum((w - mean) ** 2 for w in won) / (len(won) - 1) / len(won))
    return mean, mean - half, mean + half


@pytest.mark.parametrize("name, players, games, iterations", [
    ("persuasion-b04", 3, 150, 20),  # measured: 0.485 (0.399-0.571) against a fair 0.333
    ("persuasion-d01", 4, 40, 20),
    ("partisan", 4, 24, 5),  # 0.917 (0.804-1.000): the heuristic it plays out with already wins almost all
])
def test_search_beats_random_play_clearly(name: str, players: int, games: int, iterations: int) -> None:
    mean, low, high = _trial(name, players, games, iterations, "random")
    assert low > 1 / players, f"{name}: search:{iterations} wins {mean:.3f} ({low:.3f}-{high:.3f}) of the games won, fair {1 / players:.3f}"


@pytest.mark.parametrize("name, players, games, iterations", [
    ("high-card", 3, 90, 50),  # the greedy heuristic burns its high cards on every round
    ("partisan", 4, 120, 20),  # measured: 0.378 (0.283-0.472) against a fair 0.250
])
def test_search_beats_the_heuristic_it_plays_out_with(name: str, players: int, games: int, iterations: int) -> None:
    """A search seat among heuristics, playing out with that heuristic, wins
    clearly more than its fair share of the games won."""
    mean, low, high = _trial(name, players, games, iterations, "heuristic")
    assert low > 1 / players, f"{name}: search:{iterations} wins {mean:.3f} ({low:.3f}-{high:.3f}) of the games won, fair {1 / players:.3f}"


def test_the_same_seed_gives_the_same_moves() -> None:
    runs = [
        run_pnp("simulate", str(HIGH_CARD), "--players", "3", "--games", "6", "--agents", "search:20,heuristic,random", "--json", "--trust-rules", "--workers", str(w))
        for w in (1, 2)
    ]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    first, second = (json.loads(r.stdout) for r in runs)
    assert first == second and first["agents"] == ["search:20", "heuristic", "random"]


@pytest.mark.parametrize(
    "agents, said",
    [
        ("search:0", "expected search:N"),
        ("search:ten", "expected search:N"),
        ("seer", "unknown agent 'seer'; expected one of heuristic, random, search[:N]"),
    ],
)
def test_a_bad_search_agent_name_is_refused(agents: str, said: str) -> None:
    done = run_pnp("simulate", str(HIGH_CARD), "--players", "3", "--games", "2", "--agents", agents, "--trust-rules")
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_an_engine_without_determinize_cannot_be_searched(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, folder)
    rules = folder / "rules.py"
    rules.write_text(rules.read_text().replace("def determinize(", "def _not_determinize("))
    done = run_pnp("simulate", str(folder), "--players", "3", "--games", "2", "--agents", "search", "--trust-rules")
    assert done.returncode == 2 and "cannot be searched: it has no determinize" in done.stderr, done.stderr


def test_a_rollout_agent_the_engine_lacks_is_told_at_its_line(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, folder)
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text().replace("  module: rules\n", "  module: rules\n  rollout: seer\n"))
    line = spec.read_text().splitlines().index("  rollout: seer") + 1
    done = run_pnp("simulate", str(folder), "--players", "3", "--games", "2", "--agents", "search:5", "--trust-rules")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"game.yaml:{line}:" in done.stderr and "engine.rollout" in done.stderr and "no agent 'seer'" in done.stderr, done.stderr
    spec.write_text(spec.read_text().replace("rollout: seer", "rollout: random"))
    assert run_pnp("simulate", str(folder), "--players", "3", "--games", "2", "--agents", "search:5", "--trust-rules").returncode == 0


def test_none_may_be_a_move() -> None:
    """An engine may offer None ("pass") as an option: the search keys it like any other."""
    from pnp.engine.api import Outcome, decision_of

    class Pass:
        """Seat 0 passes (None) or takes 1; taking wins."""

        def __init__(self) -> None:
            self.taken: Any = "open"

        def decision(self) -> Decision | None:
            return None if self.taken != "open" else decision_of((0, "take", (None, 1, 2), {}))

        def apply(self, choice: Any) -> None:
            self.taken = choice

        def observation(self, seat: int) -> int:
            return 0

        def is_terminal(self) -> bool:
            return bool(self.taken != "open")

        def outcome(self) -> Outcome:
            return Outcome((self.taken == 1,), ("x",), 1, False, ((),))

    fake = ModuleType("fake")
    fake.determinize = lambda prepared, observation, decision, rng: Pass()  # type: ignore[attr-defined]
    first = lambda obs, decision, rng: None  # noqa: E731: a rollout agent that always passes
    assert Search(fake, None, 40, lambda: first)(0, Pass().decision(), random.Random(1)) == 1  # type: ignore[arg-type]

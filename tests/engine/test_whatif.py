"""What-if play (pnp.engine.whatif): which powers change the winner, with
the fake engine of tests/engine/switch_games.py, whose answer is known."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pnp.engine.balance import play_all
from pnp.engine.ladder import FIRST, Rules
from pnp.engine.simulate import wilson
from pnp.engine.whatif import Table, plan, whatif
from tests.conftest import run_pnp
from tests.engine import switch_games
from tests.engine.switch_games import CLOCK, COST, swaps
from tests.engine.test_ladder import HIGH_CARD


@pytest.fixture(autouse=True)
def _free_agents() -> Iterator[None]:
    yield
    COST[0] = 0.0


def _plan(switches: bool = True, counts: tuple[int, ...] = (2, 3), seed: int = 1) -> list[Table]:
    engine = switch_games.engine(switches)
    return plan(engine, engine.prepare(None, {}), {}, counts, seed, lambda options: engine.prepare(None, options))


def test_each_power_changes_the_winner_in_the_games_it_acts_in() -> None:
    """``swap`` reverses the winner exactly in the games it acts in (known
    from the seeds), ``idle`` acts always and changes nothing, ``never``
    never acts: the report says so at each player count, most changing first."""
    report = whatif(_plan(), 120, 1)
    assert report is not None
    acted = sum(swaps(f"1:{i}") for i in range(120))
    assert 15 < acted < 45  # about a quarter: the seeds are not all alike
    assert report["agent"] == "heuristic" and report["games"] == 120 and sorted(report["by_players"]) == ["2", "3"]
    for rows in report["by_players"].values():
        assert rows == [
            {"power": "swap", "changed": wilson(acted, 120), "used": wilson(acted, 120)},
            {"power": "idle", "changed": wilson(0, 120), "used": wilson(120, 120)},
            {"power": "never", "changed": wilson(0, 120), "used": wilson(0, 120)},
        ]


def test_the_same_seed_gives_the_same_figures_on_any_number_of_workers() -> None:
    assert whatif(_plan(), 90, 1) == whatif(_plan(), 90, 2)
    assert whatif(_plan(seed=2), 90, 1) != whatif(_plan(), 90, 1)


def test_an_engine_that_cannot_switch_its_powers_off_plays_no_what_if() -> None:
    assert _plan(switches=False) == [] and whatif([], 100, 1) is None


def test_a_budget_plays_as_many_games_as_the_first_batch_pace_allows() -> None:
    """Each agent call costs 0.01 fake seconds: a game at 2 and 3 players
    together is 4 plays (as printed and with each of 3 powers off) of 5
    calls, so the first batch of FIRST games costs FIRST * 0.2 s, and a
    budget of 16 s holds 80 games; a budget already spent plays none."""
    COST[0] = 0.01
    report = whatif(_plan(), 200, 1, budget=16.0, clock=lambda: CLOCK[0])
    assert report is not None and FIRST * 0.2 < 16
    assert report["games"] == 80 and report["by_players"]["2"][0]["used"] == wilson(sum(swaps(f"1:{i}") for i in range(80)), 80)
    spent = whatif(_plan(), 200, 1, budget=0.0, clock=lambda: CLOCK[0])
    assert spent == {"agent": "heuristic", "games": 0, "why": "outside the budget", "by_players": {}}


def test_with_a_budget_the_ladder_leaves_the_what_ifs_an_equal_part() -> None:
    """Every agent call costs 0.01 fake seconds and --games is far away: of
    30 s, the ladder's two levels get 10 s each (random 200 games at 0.05 s;
    heuristic 96 at 0.83 s for its first 8, its pairs included) and the
    what-ifs the 10.4 s left, at 0.2 s a game at 2 and 3 players: 52 games.
    Given the whole budget, the ladder would leave them nothing."""
    COST[0] = 0.01
    engine = switch_games.engine()
    ways = [Rules(None, engine, engine.prepare(None, {}), {}, (2, 3))]
    ladder, report = play_all(ways, ("random", "heuristic"), _plan(), 10_000, 1, 1, 30.0, clock=lambda: CLOCK[0])
    assert [level.games for level in ladder.levels] == [200, 96]
    assert report is not None and report["games"] == 52


def _check(*args: str) -> Any:
    done = run_pnp("check", str(HIGH_CARD), "--trust-rules", "--json", "--games", "20", "--workers", "1", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_check_plays_no_what_if_for_an_engine_without_switches() -> None:
    assert "whatif" not in _check()["exact"]["ladder"]


def test_check_with_a_budget_plays_the_ladder_then_the_powers_switched_off(tmp_path: Path) -> None:
    """A copy of high card that says it can switch a power off (one that
    never acts): with a budget far above what 16 games a level need, every
    level plays and then the what-ifs, in the JSON and the text (counts
    only: the budget is never timed)."""
    game = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    with (game / "rules.py").open("a") as rules:
        rules.write('\n\nSWITCHES = True\n\n\ndef usable(deck: Deck) -> dict[str, tuple[str, ...]]:\n    return {"actions": ("play",), "powers": ("echo",)}\n')
    args = ("check", str(game), "--trust-rules", "--games", "16", "--budget", "600", "--search", "2,4")
    ladder = json.loads(run_pnp(*args, "--json").stdout)["exact"]["ladder"]
    assert [lv["agent"] for lv in ladder["levels"]] == ["random", "heuristic", "search:2", "search:4"]
    assert all(FIRST <= lv["games"] <= 16 and "why" not in lv for lv in ladder["levels"]), ladder["levels"]
    nothing = {"power": "echo", "changed": wilson(0, 16), "used": wilson(0, 16)}
    assert ladder["whatif"] == {"agent": "heuristic", "games": 16, "by_players": {n: [nothing] for n in ("2", "3", "4")}}
    text = run_pnp(*args).stdout
    assert "Powers switched off (heuristic agents, 16 games each way; share of games whose winners change" in text
    assert "  3 players: echo 0.0% (0.0%-19.4%) used 0%" in text

"""The skill ladder of `pnp check` (pnp.engine.ladder, pnp.engine.skill): its
arithmetic on known counts, what it finds in games of known strength, the
same figures for the same seed, and a budget that buys fewer games of a slow
level (counted in games, on a fake clock)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pnp.engine.api import Outcome
from pnp.engine.ladder import FIRST, Ladder, Rules, games_within, levels, play_ladder
from pnp.engine.simulate import Run, Tally, metrics, wilson
from pnp.engine.skill import balance_level, skill_findings, step, trace, usage, usage_findings
from tests.conftest import run_pnp
from tests.engine import ladder_games
from tests.engine.ladder_games import CLOCK, COST, LEVELS

HIGH_CARD = Path(__file__).resolve().parents[2] / "pnp" / "resources" / "starters" / "engine"


@pytest.fixture(autouse=True)
def _free_agents() -> Iterator[None]:
    saved = dict(COST)
    yield
    COST.update(saved)


def _ladder(cap: int = 200, budget: float | None = 1000.0, seed: int = 1, workers: int = 1, **kind: bool) -> tuple[Ladder, tuple[str, ...]]:
    engine = ladder_games.engine(**kind)
    rules = [Rules(None, engine, None, {}, (2, 3))]
    return play_ladder(rules, LEVELS, cap, seed, workers, budget, clock=lambda: CLOCK[0]), LEVELS


def _won(winners: tuple[bool, ...]) -> Outcome:
    return Outcome(winners, ("x",) * len(winners), 1, False, ((),) * len(winners))


def test_a_shared_win_counts_its_share_against_the_fair_share() -> None:
    """Two players; the stronger seat is seat 0 in one tally and seat 1 in the
    other: 5 wins alone, 2 wins shared, 2 losses, 1 game nobody won."""
    first, second = Tally(), Tally()
    for winners in [(True, False)] * 3 + [(True, True)] * 2 + [(False, True)] + [(False, False)]:
        first.add(_won(winners))
    for winners in [(False, True)] * 2 + [(True, False)]:
        second.add(_won(winners))
    got = step([first, second])
    share = Fraction(3) + Fraction(2, 2) + Fraction(2)  # 6 of the 9 games someone won
    assert got["games"] == 10 and got["games_won"] == 9
    assert got["share"] == wilson(float(share), 9) and got["fair"] == 0.5
    assert got["times_fair"] == {k: round(v * 2, 4) for k, v in wilson(6.0, 9).items()}
    assert got["verdict"] == "even"  # 6 of 9: the interval (0.35-0.88) holds one half
    nobody = Tally()
    nobody.add(_won((False, False)))
    assert step([nobody, nobody])["verdict"] == "none won"  # no game to judge by, not a weaker level


def test_a_strong_agent_shows_in_the_trace_at_every_step() -> None:
    ladder, names = _ladder()
    steps = trace(ladder, (2, 3))
    assert [(s["weaker"], s["stronger"]) for s in steps] == [("random", "heuristic"), ("heuristic", "good"), ("good", "best")]
    for s in steps:
        for n, m in s["by_players"].items():
            assert m["verdict"] == "stronger" and m["share"]["low"] > 1 / int(n) and m["times_fair"]["low"] > 1, (s, n)
    # a heuristic seat (5-9) against one random seat (0-9): it wins alone 0.5 + 0.5 * 0.4 = 0.7 of the
    # time, ties 0.05 * 0.5 (a half each): 0.725 of the games won; 2 * 0.725 = 1.45 times its share
    two = steps[0]["by_players"]["2"]
    assert two["share"]["low"] < 0.725 < two["share"]["high"] and two["games"] == 200
    assert skill_findings(steps, "game.yaml") == []
    assert balance_level(ladder, 200) == "best"


def test_a_game_of_luck_is_flagged_where_skill_barely_matters() -> None:
    ladder, _ = _ladder(luck=True)
    steps = trace(ladder, (2, 3))
    assert {m["verdict"] for s in steps for m in s["by_players"].values()} == {"even"}
    found = skill_findings(steps, "game.yaml")
    assert [f.check for f in found] == ["skill"] * 3 and all(f.level.value == "warning" for f in found)
    assert found[0].message.startswith("skill barely matters: a heuristic seat among random ones wins about its fair share of the games won")
    assert "2 players " in found[0].message and "3 players " in found[0].message


def test_too_few_games_are_reported_but_not_judged() -> None:
    """Under 30 games (MIN_GAMES) an interval that holds the fair share says
    only that there were too few games: no warning, nor for what was never used."""
    ladder, _ = _ladder(cap=20, luck=True)  # 20 games a table, 20 and 21 a pair at 2 and 3 players
    steps = trace(ladder, (2, 3))
    assert {m["verdict"] for s in steps for m in s["by_players"].values()} == {"even"}
    assert skill_findings(steps, "game.yaml") == []
    assert usage_findings(usage(ladder, {"actions": ("pass",), "powers": ()}, (2, 3)), "game.yaml") == []


def test_a_heuristic_that_beats_search_is_flagged() -> None:
    ladder, _ = _ladder(weak=True)  # "good" stands for search:S1, and picks low
    steps = trace(ladder, (2, 3))
    assert [m["verdict"] for m in steps[1]["by_players"].values()] == ["weaker", "weaker"]
    messages = [f.message for f in skill_findings(steps, "game.yaml")]
    assert any(m.startswith("heuristic play beats good: a good seat among heuristic ones wins less than its fair share") for m in messages)


def test_usage_counts_actions_and_powers_per_game_and_flags_what_is_never_used() -> None:
    ladder, _ = _ladder(cap=50)
    used = usage(ladder, {"actions": ("pick", "pass"), "powers": ("double", "steal")}, (2, 3))
    assert set(used) == set(LEVELS)
    row = used["best"]["3"]  # every seat picks 9: three doubles a game
    assert row == {"games": 50, "actions": {"pass": 0.0, "pick": 3.0}, "powers": {"double": 3.0, "steal": 0.0},
                   "never_used": {"actions": ["pass"], "powers": ["steal"]}}
    found = usage_findings(used, "game.yaml")
    assert [f.message for f in found][0] == "never used at the random level (at least 50 games a player count): action pass (2 and 3 players); power steal (2 and 3 players)"
    assert usage(ladder, None, (2, 3))["random"]["2"].get("never_used") is None  # without usable(), nothing to flag


def test_a_tally_counts_powers_and_shared_wins_as_it_counts_actions() -> None:
    whole, first, second = Tally(), Tally(), Tally()
    outcomes = [Outcome((True, True), ("x", "x"), 1, False, ((), ()), actions={"pick": 2}, powers={"double": 2}),
                Outcome((True, False), ("x", "x"), 1, False, ((), ()), actions={"pick": 2})]
    for i, o in enumerate(outcomes):
        whole.add(o)
        (first if i == 0 else second).add(o)
    assert whole.powers == {"double": 2} and whole.shared_wins == {(0, 2): 1, (1, 2): 1, (0, 1): 1}
    merged = first.merge(second)
    assert merged.powers == whole.powers and merged.shared_wins == whole.shared_wins
    run = Run(ladder_games.engine(), None, {}, 2, ("random", "random"), 2, 1)
    assert metrics(run, whole)["powers"] == {"double": 1.0}  # uses a game, in `pnp simulate --json` too


def _figures(ladder: Ladder) -> str:
    return json.dumps([trace(ladder, (2, 3)), usage(ladder, None, (2, 3)), [vars(lv) for lv in ladder.levels]], sort_keys=True)


def test_the_same_seed_gives_the_same_figures_on_any_number_of_workers() -> None:
    one, _ = _ladder(cap=120, workers=1)
    two, _ = _ladder(cap=120, workers=2)
    assert _figures(one) == _figures(two)
    other, _ = _ladder(cap=120, seed=2)
    assert _figures(other) != _figures(one)


def test_a_budget_plays_the_same_games_in_two_batches() -> None:
    """With a budget each level plays a first batch, then the rest: the
    same seed and the same game counts give the same figures as one go."""
    batched, _ = _ladder(cap=60, budget=1000.0)
    assert [lv.games for lv in batched.levels] == [60] * 4
    whole, _ = _ladder(cap=60, budget=None)
    assert [lv.games for lv in whole.levels] == [60] * 4
    for key, tally in whole.tallies.items():
        assert batched.tallies[key] == tally, key


def test_a_slow_level_plays_fewer_games_within_the_budget() -> None:
    """Fake seconds: a "good" decision costs 0.1, a "best" one 0.4, the
    rest nothing. good's first batch (8 games a table, at 2 and 3 players)
    makes 57 decisions: 5.7 s; half of the 100 s left holds 70 games a
    table (49.2 s). best's first batch (its pairs seat good beside it)
    costs 25.4 s, and the 50.8 s left hold 16."""
    COST.update({"good": 0.1, "best": 0.4})
    ladder, _ = _ladder(cap=200, budget=100.0)
    games = {lv.agent: lv.games for lv in ladder.levels}
    assert games == {"random": 200, "heuristic": 200, "good": 70, "best": 16}
    assert ladder.tallies[("good", ("table", None, 3))].games == 70
    assert ladder.tallies[("best", ("pair", 3, 0))].games == 6  # ceil(16 / 3) games for each seat
    assert balance_level(ladder, 200) == "good"  # 16 games are too few to report the balance at
    COST.update({"good": 5.0})
    short, _ = _ladder(cap=200, budget=100.0)
    assert [(lv.agent, lv.games, lv.why) for lv in short.levels][2:] == [
        ("good", FIRST, None), ("best", 0, "outside the budget of 100 s"),
    ]


def test_games_within_a_share_follow_the_first_batch_pace() -> None:
    assert games_within(share=50.0, spent=5.7, first=8, cap=200) == 70
    assert games_within(share=1.0, spent=5.7, first=8, cap=200) == 8  # never fewer than were played
    assert games_within(share=500.0, spent=0.1, first=8, cap=200) == 200
    assert games_within(share=5.0, spent=0.0, first=8, cap=200) == 200


def test_search_levels_are_those_of_an_engine_with_determinize() -> None:
    assert levels(ladder_games.engine(), (1, 2)) == ("random", "heuristic", "search:1", "search:2")
    assert levels(ladder_games.engine(search=False), (1, 2)) == ("random", "heuristic")


def _check(*args: str) -> Any:
    done = run_pnp("check", str(HIGH_CARD), "--trust-rules", "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_check_reports_the_ladder_and_the_level_of_every_balance_figure() -> None:
    report = _check("--games", "40", "--workers", "1")
    ladder = report["exact"]["ladder"]
    unplayed = {"games": 0, "why": "search plays only within a --budget"}
    assert ladder["levels"] == [
        {"agent": "random", "games": 40}, {"agent": "heuristic", "games": 40}, {"agent": "search:100", **unplayed}, {"agent": "search:1000", **unplayed},
    ]
    assert ladder["balance_level"] == "heuristic" and ladder["budget"] is None
    assert [(p["weaker"], p["stronger"], sorted(p["by_players"])) for p in ladder["trace"]] == [("random", "heuristic", ["2", "3", "4"])]
    assert ladder["usage"]["heuristic"]["2"] == {"games": 40, "actions": {"play": 10.0}, "powers": {}}
    for sim in report["exact"]["simulation"].values():
        assert sim["level"] == "heuristic" and set(sim["agents"]) == {"heuristic"}
    text = run_pnp("check", str(HIGH_CARD), "--trust-rules", "--games", "40").stdout
    assert (
        "Skill levels (games per table): random 40 games, heuristic 40 games, search:100 not played (search plays only within "
        "a --budget), search:1000 not played (search plays only within a --budget); balance figures at heuristic"
    ) in text
    assert "Skill trace, heuristic over random (one heuristic seat's share of the games won, 95 % interval): 2 players " in text


def test_check_with_a_budget_climbs_to_search_and_reports_the_balance_there() -> None:
    """High card can be searched (determinize): with a budget far above what
    16 games a level need, every level plays, the trace has three steps and
    the balance is search's. Counts only: the budget is never timed here."""
    report = _check("--games", "16", "--budget", "600", "--search", "2,4")
    ladder = report["exact"]["ladder"]
    assert [lv["agent"] for lv in ladder["levels"]] == ["random", "heuristic", "search:2", "search:4"]
    assert all(FIRST <= lv["games"] <= 16 and "why" not in lv for lv in ladder["levels"]), ladder["levels"]
    assert [(p["weaker"], p["stronger"]) for p in ladder["trace"]] == [("random", "heuristic"), ("heuristic", "search:2"), ("search:2", "search:4")]
    assert ladder["balance_level"] == "search:4" and ladder["budget"] == 600
    assert {sim["level"] for sim in report["exact"]["simulation"].values()} == {"search:4"}
    assert all(set(sim["agents"]) == {"search:4"} for sim in report["exact"]["variants"]["short"].values())


def test_check_warns_of_what_the_engine_can_use_and_a_level_never_used(tmp_path: Path) -> None:
    """A copy of high card whose engine says it can also pass (usable): no
    agent ever passes, and check says so at each level, with the player counts."""
    game = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    with (game / "rules.py").open("a") as rules:
        rules.write('\n\ndef usable(deck: Deck) -> dict[str, tuple[str, ...]]:\n    return {"actions": ("play", "pass"), "powers": ()}\n')
    done = run_pnp("check", str(game), "--trust-rules", "--json", "--games", "40")
    report = json.loads(done.stdout)
    usage_found = [f["message"] for f in report["findings"] if f["check"] == "usage"]
    assert usage_found == [f"never used at the {level} level (at least 40 games a player count): action pass (2, 3 and 4 players)" for level in ("random", "heuristic")]
    assert report["exact"]["ladder"]["usage"]["heuristic"]["3"]["never_used"] == {"actions": ["pass"], "powers": []}


def test_check_refuses_a_search_level_that_is_no_number() -> None:
    done = run_pnp("check", str(HIGH_CARD), "--trust-rules", "--search", "100,lots")
    assert done.returncode == 2 and "--search: '100,lots'; expected positive whole numbers" in done.stderr

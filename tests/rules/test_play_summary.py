"""Simulated play is reported only where a figure means something, and every
figure says which agents produced it (`pnp simulate`, `pnp check`)."""

from __future__ import annotations

import shutil
from html import escape
from pathlib import Path
from typing import Any

from pnp.rules.summary import _play_lines, agents_said, measure_lines, no_winner_said, outcomes_said
from tests.conftest import run_pnp

PROJECT = Path(__file__).resolve().parents[2]


def _rate(rate: float, high: float | None = None) -> dict[str, float]:
    return {"rate": rate, "low": 0.0, "high": rate if high is None else high}


def _measure(mean: float, share: float, high: float) -> dict[str, Any]:
    return {"mean": mean, "low": mean, "high": mean, "games_with": _rate(share, high)}


def test_agents_are_named_once_when_every_seat_plays_alike_and_by_seat_otherwise() -> None:
    assert agents_said(["heuristic"] * 4) == "heuristic agents at every seat"
    assert agents_said(["heuristic", "random", "random"]) == "agents by seat heuristic, random, random"


def test_no_winner_is_said_in_the_game_words_and_only_when_it_happened() -> None:
    sim = {"no_winner_rate": _rate(0.358), "words": {"no_winner": "every score 0"}}
    assert no_winner_said(sim) == "no winner 35.8% (every score 0)"
    assert no_winner_said({**sim, "no_winner_rate": _rate(0.0)}) is None


def test_outcomes_that_only_restate_winning_are_left_out() -> None:
    restated = {"top score": {"wins": 420, "losses": 0, "share": _rate(0.21), "win_rate": _rate(1.0)},
                "behind": {"wins": 0, "losses": 1580, "share": _rate(0.79), "win_rate": _rate(0.0)}}
    assert outcomes_said(restated) is None
    telling = {"engaged": {"wins": 630, "losses": 370, "share": _rate(0.99), "win_rate": _rate(0.63)},
               "available": {"wins": 0, "losses": 10, "share": _rate(0.01), "win_rate": _rate(0.0)}}
    assert outcomes_said(telling) == "outcomes: engaged 99% (wins 63%), available 1% (wins 0%)"


def test_measures_no_game_had_share_one_line_with_their_bound() -> None:
    lines = measure_lines({"groups tied": _measure(1.9, 0.9, 0.92), "ties settled by a leader": _measure(0.0, 0.0, 0.008),
                           "chips lost": _measure(0.0, 0.0, 0.008)})
    assert lines == [
        "  per game (mean, 95 % interval; games with any):",
        "    groups tied: 1.900 (1.900-1.900); 90.0% (0.0%-92.0%)",
        "  in no game (so at most 0.8% of games, 95 % interval): ties settled by a leader, chips lost",
    ]
    assert measure_lines({}) == []


def test_the_check_summary_names_the_agents_behind_each_figure() -> None:
    sim = {"games": 200, "agents": ["heuristic"] * 3, "win_rate_by_seat": [_rate(0.3)] * 3, "seat_balance": 1.0, "seat_balance_high": 1.0,
           "winners_share": _rate(0.3), "no_winner_rate": _rate(0.1), "rounds": {"p50": 6}, "skill_gap": {"points": 44},
           "words": {"rounds": "rounds", "first_seat": "host", "no_winner": "every score 0"}}
    line = _play_lines("", "3", sim)[0]
    assert line.startswith("Play (3 players, 200 games, heuristic agents at every seat): winners 30% of players, no winner 10.0% (every score 0), ")
    assert line.endswith("skill gap +44 points (a heuristic seat among random ones)")
    assert "no winner" not in _play_lines("", "3", {**sim, "no_winner_rate": _rate(0.0)})[0]


def test_simulate_prints_a_games_no_winner_in_its_words_and_leaves_out_what_says_nothing() -> None:
    """Partisan's categories restate winning (top score wins, behind loses)
    and its engine's cap is never reached: neither is printed; its games
    without a winner are, in its words, with the agents that played them."""
    done = run_pnp("simulate", "partisan", "--players", "4", "--games", "200")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].endswith("seed 1; heuristic agents at every seat")
    assert any(line.startswith("  no winner ") and line.endswith("(every score 0), as these agents play") for line in lines), done.stdout
    assert "outcomes:" not in done.stdout and "cap on" not in done.stdout
    assert "  in no game (so at most " in done.stdout and done.stdout.rstrip().endswith("ties settled by a leader")


def test_games_the_engine_cap_stopped_are_said_in_its_words(tmp_path: Path) -> None:
    """A cap is the engine's guard against a stalled game, not a rule's end:
    when it stops games, simulate says how often (here a copy of B04 whose
    cap, 2 rounds, ends every game early)."""
    game = tmp_path / "b04"
    shutil.copytree(PROJECT / "card_data" / "persuasion-b04", game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    text = (game / "game.yaml").read_text(encoding="utf-8")
    assert "round_cap: 60" in text
    (game / "game.yaml").write_text(text.replace("round_cap: 60", "round_cap: 2"), encoding="utf-8")
    done = run_pnp("simulate", str(game), "--players", "4", "--games", "20", "--trust-rules")
    assert done.returncode == 0, done.stderr
    assert "\n  stopped by the engine's cap on rounds (not a rule's end): 100.0%\n" in done.stdout


def test_the_html_report_holds_the_simulated_play_and_skill_ladder_the_text_shows(tmp_path: Path) -> None:
    game = tmp_path / "high-card"
    shutil.copytree(PROJECT / "docs" / "examples" / "high-card", game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    report = tmp_path / "report.html"
    result = run_pnp("check", str(game), "--games", "60", "--workers", "1", "--trust-rules", "--report", str(report))
    assert result.returncode == 0, result.stderr
    played = [line for line in result.stdout.splitlines() if line.startswith(("Play (", "Skill levels", "Skill trace", "Usage at"))]
    assert any(line.startswith("Play (") for line in played) and any(line.startswith("Skill trace") for line in played), result.stdout
    page = report.read_text()
    assert "<h2>Simulated play and skill</h2>" in page
    for line in played:  # each says which agents produced it, in the report as in the text
        assert escape(line) in page, line

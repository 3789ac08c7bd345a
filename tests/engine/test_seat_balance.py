"""Seat balance is judged on the seats' 95 % intervals, and the report says so."""

from __future__ import annotations

from typing import Any

from pnp.engine.balance import _judge
from pnp.schema.checks import Simulation
from pnp.rules.summary import _play_lines, seat_balance

BANDS = Simulation(rounds_min=1, rounds_max=99, seat_balance_min=0.90)


def _data(rates: list[tuple[float, float, float]]) -> dict[str, Any]:
    seats = [{"rate": r, "low": lo, "high": hi} for r, lo, hi in rates]
    return {
        "games": 1000, "players": len(seats), "win_rate_by_seat": seats,
        "seat_balance": round(1 - (max(r for r, _, _ in rates) - min(r for r, _, _ in rates)), 6),
        "seat_balance_high": round(1 - max(0.0, max(lo for _, lo, _ in rates) - min(hi for _, _, hi in rates)), 6),
        "winners_share": {"rate": 0.3, "low": 0.29, "high": 0.31}, "no_winner_rate": {"rate": 0.0, "low": 0.0, "high": 0.0},
        "capped_rate": {"rate": 0.0, "low": 0.0, "high": 0.0}, "rounds": {"p50": 5},
        "skill_gap": {"points": 10, "high": 12}, "words": {"rounds": "rounds", "first_seat": "first seat", "no_winner": "no seat won"},
        "agents": ["heuristic"] * len(seats),
    }


def test_a_balance_below_the_band_whose_intervals_reach_it_passes_and_says_why() -> None:
    data = _data([(0.30, 0.27, 0.33), (0.19, 0.17, 0.22)])  # measured 0.89; intervals allow 1 - (0.27 - 0.22) = 0.95
    assert data["seat_balance"] == 0.89 and data["seat_balance_high"] == 0.95
    assert _judge(2, data, BANDS, "game.yaml") == []
    line = _play_lines("", "2", {**data, "no_winner_rate": {"rate": 0.0}, "seat_balance_band": 0.90})[0]
    # intervals: at least 1 - (0.33 - 0.17) = 0.84, at most 0.95
    assert (
        ", seat balance 0.89 (the seats' 95 % intervals allow 0.84-0.95, which reaches the band's 0.90: "
        "the gap between seats may be chance, so no warning), median"
    ) in line


def test_the_report_says_when_the_band_is_met_or_missed_and_says_no_band_when_there_is_none() -> None:
    met = _data([(0.26, 0.23, 0.29), (0.24, 0.21, 0.27)])
    assert seat_balance({**met, "seat_balance_band": 0.90}) == "seat balance 0.98 (the seats' 95 % intervals allow 0.92-1.00; band 0.90: met)"
    missed = _data([(0.40, 0.37, 0.43), (0.20, 0.18, 0.22)])
    assert seat_balance({**missed, "seat_balance_band": 0.90}) == (
        "seat balance 0.80 (the seats' 95 % intervals allow 0.75-0.85, all below the band's 0.90)"
    )
    assert seat_balance(missed) == "seat balance 0.80 (the seats' 95 % intervals allow 0.75-0.85)"


def test_a_balance_whose_intervals_cannot_reach_the_band_warns_with_both_figures() -> None:
    data = _data([(0.40, 0.37, 0.43), (0.20, 0.18, 0.22)])  # intervals allow at most 1 - (0.37 - 0.22) = 0.85
    found = _judge(2, data, BANDS, "game.yaml")
    assert [f.message for f in found] == [
        "2 players: seat balance 0.80 (at most 0.85 within the seats' 95 % intervals), below 0.90"
    ]

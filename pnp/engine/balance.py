"""The simulation part of `pnp check`: play every player count, measure, and
compare with the bands the game declares (``checks.simulation``)."""

from __future__ import annotations

import math
from typing import Any

from pnp.engine.plugins import engine_for
from pnp.engine.simulate import Z95, Run, metrics, simulate_many
from pnp.model import Game
from pnp.rules.findings import Finding, Severity


def simulate_game(game: Game, games: int, workers: int, seed: int = 1, trust: bool = False) -> tuple[dict[str, Any], list[Finding]]:
    """Per player count: heuristic play, and the skill gap (one heuristic seat
    among random ones, against an all-random table). ``trust``: the game
    folder's own engine code may run (:func:`pnp.engine.plugins.engine_for`)."""
    engine, options = engine_for(game, trust)
    prepared = engine.prepare(game, options)
    bands = game.checks.get("simulation") or {}
    where = game.where.get("checks.simulation", str(game.source))
    findings: list[Finding] = []
    out: dict[str, Any] = {}
    side = max(1, games // 8)
    counts = engine.player_counts(prepared)
    runs = []
    for n in counts:
        runs += [
            Run(engine, prepared, options, n, ("heuristic",) * n, games, seed),
            Run(engine, prepared, options, n, ("heuristic",) + ("random",) * (n - 1), side, seed),
            Run(engine, prepared, options, n, ("random",) * n, side, seed),
        ]
    tallies = simulate_many(runs, workers)
    for k, n in enumerate(counts):
        heuristic, mixed, baseline = runs[3 * k : 3 * k + 3]
        data = metrics(heuristic, tallies[3 * k])
        skilled = metrics(mixed, tallies[3 * k + 1])["win_rate_by_seat"][0]["rate"]
        plain = metrics(baseline, tallies[3 * k + 2])["win_rate_by_seat"][0]["rate"]
        spread = Z95 * math.sqrt(skilled * (1 - skilled) / side + plain * (1 - plain) / side)
        data["skill_gap"] = {
            "heuristic_seat": skilled, "random_seat": plain, "points": round(100 * (skilled - plain), 2),
            "low": round(100 * (skilled - plain - spread), 2), "high": round(100 * (skilled - plain + spread), 2),
        }
        out[str(n)] = data
        findings += _judge(n, data, bands, where)
    return out, findings


def _judge(n: int, data: dict[str, Any], bands: dict[str, Any], where: str) -> list[Finding]:
    """Warn when a figure is outside its band beyond doubt: its whole 95 %
    interval lies outside (a few hundred games must not cry wolf)."""
    found = []

    def warn(message: str) -> None:
        found.append(Finding(Severity.WARNING, "simulation", f"{n} players: {message}", where))

    if not bands:
        return found
    share = data["winners_share"]
    if share["high"] < bands["winners_share_min"] or share["low"] > bands["winners_share_max"]:
        warn(f"{share['rate']:.0%} of players win, outside {bands['winners_share_min']:.0%}-{bands['winners_share_max']:.0%}")
    if data["no_winner_rate"]["low"] > bands["no_winner_max"]:
        warn(f"{data['no_winner_rate']['rate']:.1%} of games have no winner, above {bands['no_winner_max']:.0%}")
    median = data["rounds"]["p50"]
    if not bands["rounds_min"] <= median <= bands["rounds_max"]:
        warn(f"a median game lasts {median} rounds, outside {bands['rounds_min']}-{bands['rounds_max']}")
    seats = data["win_rate_by_seat"]
    surest_gap = max(0.0, max(r["low"] for r in seats) - min(r["high"] for r in seats))
    if 1 - surest_gap < bands["seat_balance_min"]:
        warn(f"seat balance {data['seat_balance']:.2f}, below {bands['seat_balance_min']:.2f}")
    if data["skill_gap"]["high"] < bands["skill_gap_min"]:
        warn(f"a heuristic seat beats a random one by {data['skill_gap']['points']} points, below {bands['skill_gap_min']}")
    if data["capped_rate"]["rate"] > 0:
        warn(f"{data['capped_rate']['rate']:.1%} of games reached the round cap")
    return found

"""The simulation part of `pnp check`: play every player count, measure, and
compare with the bands the game declares (``checks.simulation``)."""

from __future__ import annotations

import math
from typing import Any

from pnp.engine.plugins import engine_for
from pnp.engine.simulate import Z95, Run, Tally, metrics, simulate_many
from pnp.model import Game
from pnp.rules.findings import Finding, Severity


def simulate_game(
    game: Game, games: int, workers: int, seed: int = 1, trust: bool = False,
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], list[Finding]]:
    """Per player count: heuristic play, and the skill gap (one heuristic seat
    among random ones, against an all-random table), for the rules as printed
    (judged against ``checks.simulation``) and for each declared variant
    (reported, not judged: a variant may change the length on purpose).
    ``trust``: the game folder's own code may run (:func:`pnp.engine.plugins.engine_for`)."""
    assert game.engine is not None
    bands = game.checks.get("simulation") or {}
    where = str(game.where.get("checks.simulation", game.source))
    findings: list[Finding] = []
    side = max(1, games // 8)
    plans: list[tuple[str | None, int]] = []
    runs: list[Run] = []
    for variant in (None, *game.engine.variants):
        engine, options = engine_for(game, trust, variant)
        prepared = engine.prepare(game, options)
        for n in engine.player_counts(prepared):
            plans.append((variant, n))
            runs += [
                Run(engine, prepared, options, n, ("heuristic",) * n, games, seed, variant),
                Run(engine, prepared, options, n, ("heuristic",) + ("random",) * (n - 1), side, seed, variant),
                Run(engine, prepared, options, n, ("random",) * n, side, seed, variant),
            ]
    tallies = simulate_many(runs, workers)
    out: dict[str, Any] = {}
    variants: dict[str, dict[str, Any]] = {}
    for k, (variant, n) in enumerate(plans):
        data = _measure(runs[3 * k : 3 * k + 3], tallies[3 * k : 3 * k + 3], side)
        if variant is None:
            if bands:
                data["seat_balance_band"] = bands["seat_balance_min"]  # for the report's words (pnp.rules.summary)
            out[str(n)] = data
            findings += _judge(n, data, bands, where)
        else:
            variants.setdefault(variant, {})[str(n)] = data
    return out, variants, findings


def _measure(runs: list[Run], tallies: list[Tally], side: int) -> dict[str, Any]:
    """One table size: the heuristic table's metrics and the skill gap."""
    data = metrics(runs[0], tallies[0])
    skilled = metrics(runs[1], tallies[1])["win_rate_by_seat"][0]["rate"]
    plain = metrics(runs[2], tallies[2])["win_rate_by_seat"][0]["rate"]
    spread = Z95 * math.sqrt(skilled * (1 - skilled) / side + plain * (1 - plain) / side)
    data["skill_gap"] = {
        "heuristic_seat": skilled, "random_seat": plain, "points": round(100 * (skilled - plain), 2),
        "low": round(100 * (skilled - plain - spread), 2), "high": round(100 * (skilled - plain + spread), 2),
    }
    return data


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
    if data["seat_balance_high"] < bands["seat_balance_min"]:
        warn(
            f"seat balance {data['seat_balance']:.2f} (at most {data['seat_balance_high']:.2f} within the seats' "
            f"95 % intervals), below {bands['seat_balance_min']:.2f}"
        )
    if data["skill_gap"]["high"] < bands["skill_gap_min"]:
        warn(f"a heuristic seat beats a random one by {data['skill_gap']['points']} points, below {bands['skill_gap_min']}")
    if data["capped_rate"]["rate"] > 0:
        warn(f"{data['capped_rate']['rate']:.1%} of games reached the round cap")
    return found

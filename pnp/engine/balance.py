"""The simulation part of `pnp check`: play every player count, measure, and
compare with the bands the game declares (``checks.simulation``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from pnp.engine.ladder import SEARCH, Ladder, Rules, levels, play_ladder
from pnp.engine.plugins import engine_for
from pnp.engine.simulate import metrics
from pnp.engine.skill import balance_level, skill_findings, skill_gap, trace, usage, usage_findings
from pnp.engine.whatif import Table, budget_share, plan, whatif
from pnp.schema.checks import Simulation
from pnp.model import Game
from pnp.rules.figures import LadderFigures, Metrics, WhatIf
from pnp.rules.findings import Finding, Severity


def simulate_game(
    game: Game, games: int, workers: int, seed: int = 1, trust: bool = False, budget: float | None = None,
    search: Sequence[int] = SEARCH, clock: Callable[[], float] = time.monotonic,
) -> tuple[dict[str, Metrics], dict[str, dict[str, Metrics]], LadderFigures, list[Finding]]:
    """Play the skill ladder (:mod:`pnp.engine.ladder`) within ``budget``
    seconds, and report per player count the balance at the strongest level
    played, for the rules as printed (judged against ``checks.simulation``)
    and for each declared variant (reported, not judged: a variant may change
    the length on purpose); then the ladder itself: its levels, the skill
    trace and the usage; and, for an engine that can switch its powers off,
    which powers change the winner most often (:mod:`pnp.engine.whatif`,
    after the ladder, within the budget's last part). ``trust``: the game
    folder's own code may run (:func:`pnp.engine.plugins.engine_for`)."""
    assert game.engine is not None
    bands = game.checks.simulation
    where = str(game.where.get("checks.simulation", game.source))
    ways = []
    for variant in (None, *game.engine.variants):
        engine, options = engine_for(game, trust, variant)
        prepared = engine.prepare(game, options)
        ways.append(Rules(variant, engine, prepared, options, tuple(engine.player_counts(prepared)), game.engine.rollout))
    printed = ways[0]
    planned = plan(
        printed.engine, printed.prepared, printed.options, printed.counts, seed, lambda options: printed.engine.prepare(game, options),
    )
    ladder, changes = play_all(ways, levels(printed.engine, search), planned, games, seed, workers, budget, clock)
    level = balance_level(ladder, games)
    out: dict[str, Metrics] = {}
    variants: dict[str, dict[str, Metrics]] = {}
    findings: list[Finding] = []
    tables = [] if level is None else [(way.variant, n, _measure(ladder, level, way.variant, n)) for way in ways for n in way.counts]
    for variant, n, data in tables:
        if variant is None:
            if bands is not None:
                data["seat_balance_band"] = bands.seat_balance_min  # for the report's words (pnp.rules.summary)
            out[str(n)] = data
            findings += _judge(n, data, bands, where)
        else:
            variants.setdefault(variant, {})[str(n)] = data
    usable = printed.engine.usable(printed.prepared) if hasattr(printed.engine, "usable") else None
    steps = trace(ladder, printed.counts)
    used = usage(ladder, usable, printed.counts)
    summary: LadderFigures = {
        "levels": [
            {"agent": lv.agent, "games": lv.games, "why": lv.why} if lv.why else {"agent": lv.agent, "games": lv.games} for lv in ladder.levels
        ],
        "balance_level": level, "budget": budget, "seed": seed, "trace": steps, "usage": used,
    }
    if changes is not None:
        summary["whatif"] = changes
    findings += skill_findings(steps, str(game.source)) + usage_findings(used, str(game.source))
    return out, variants, summary, findings


def play_all(
    ways: Sequence[Rules], names: Sequence[str], planned: Sequence[Table], cap: int, seed: int, workers: int,
    budget: float | None = None, clock: Callable[[], float] = time.monotonic,
) -> tuple[Ladder, WhatIf | None]:
    """The ladder's levels ``names``, then the what-if play of ``planned``
    (none: the ladder has the whole budget), each within its part of ``budget``
    (:func:`pnp.engine.whatif.budget_share`)."""
    started = clock()
    share = budget if budget is None or not planned else budget * budget_share(len(names))
    ladder = play_ladder(ways, names, cap, seed, workers, share, clock)
    return ladder, whatif(planned, cap, workers, None if budget is None else budget - (clock() - started), clock)


def _measure(ladder: Ladder, level: str, variant: str | None, n: int) -> Metrics:
    """One table size at ``level``: its metrics and, for the rules as
    printed, the skill gap of a heuristic seat among random ones."""
    key = (level, ("table", variant, n))
    data = metrics(ladder.runs[key], ladder.tallies[key])
    data["level"] = level
    gap = skill_gap(ladder, n) if variant is None else None
    if gap is not None:
        data["skill_gap"] = gap
    return data


def _judge(n: int, data: Metrics, bands: Simulation | None, where: str) -> list[Finding]:
    """Warn when a figure is outside its band beyond doubt: its whole 95 %
    interval lies outside (a few hundred games must not cry wolf)."""
    found = []

    def warn(message: str) -> None:
        found.append(Finding(Severity.WARNING, "simulation", f"{n} players: {message}", where))

    if bands is None:
        return found
    share = data["winners_share"]
    if share["high"] < bands.winners_share_min or share["low"] > bands.winners_share_max:
        warn(f"{share['rate']:.0%} of players win, outside {bands.winners_share_min:.0%}-{bands.winners_share_max:.0%}")
    if data["no_winner_rate"]["low"] > bands.no_winner_max:
        warn(f"{data['no_winner_rate']['rate']:.1%} of games have no winner, above {bands.no_winner_max:.0%}")
    median = data["rounds"]["p50"]
    if not bands.rounds_min <= median <= bands.rounds_max:
        warn(f"a median game lasts {median} rounds, outside {bands.rounds_min}-{bands.rounds_max}")
    if data["seat_balance_high"] < bands.seat_balance_min:
        warn(
            f"seat balance {data['seat_balance']:.2f} (at most {data['seat_balance_high']:.2f} within the seats' "
            f"95 % intervals), below {bands.seat_balance_min:.2f}"
        )
    if "skill_gap" in data and data["skill_gap"]["high"] < bands.skill_gap_min:
        warn(f"a heuristic seat beats a random one by {data['skill_gap']['points']} points, below {bands.skill_gap_min}")
    if data["capped_rate"]["rate"] > 0:
        warn(f"{data['capped_rate']['rate']:.1%} of games reached the round cap")
    return found

"""`pnp check`: invariants, balance, exact odds and simulated play."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.commands.common import load


@click.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {ok, findings, exact}.")
@click.option("--strict", is_flag=True, help="Count warnings (and unknown keys) as errors.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Also write an HTML report: the findings, the tables and odds plot, and the simulated play and skill ladder.")
@click.option("--games", type=click.IntRange(0, 10_000_000), default=200, show_default=True, help="Simulated games per player count and skill level, at most (0: static checks only).")
@click.option("--budget", type=click.FloatRange(0, min_open=True), default=None, help="Seconds for simulated play: the number of games per skill level is chosen from its measured speed, up to --games, and search levels are played (default: the levels without search, --games each).")
@click.option("--search", "search", default="100,1000", show_default=True, help="The search levels' iterations a decision, weaker first (engines with determinize).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Processes for the simulation (default: every core).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the simulation.")
@click.option("--trust-rules", "trust_rules", is_flag=True, help="Run the game folder's own engine code (the project's own games run without it; so does PNP_TRUST_RULES=1).")
def check(
    game: str, as_json: bool, strict: bool, report_file: Path | None, games: int, budget: float | None, search: str,
    workers: int | None, seed: int, trust_rules: bool,
) -> None:
    """Check GAME: invariants, balance, exact odds, and simulated play. Exit 0 if fine, 1 if not."""
    import os
    from dataclasses import replace

    from pnp.colour.distinct import findings as colour_findings
    from pnp.rules.check import check_game
    from pnp.rules.figures import Exact
    from pnp.rules.findings import Finding, Severity
    from pnp.rules.summary import NOT_PLAYED, as_html, as_text
    from pnp.rules.summary import as_json as to_json

    budgets = _search_budgets(search)
    loaded = load(game, strict)
    report = check_game(loaded)
    report = replace(report, findings=(*report.findings, *colour_findings(loaded)))
    if games and loaded.engine and report.errors():
        skipped = Finding(Severity.INFO, "simulation", f"{NOT_PLAYED}: the engine plays only a game whose tables pass the checks above", str(loaded.source))
        report = replace(report, findings=(*report.findings, skipped))
    elif games and loaded.engine:
        from pnp.engine.balance import simulate_game
        from pnp.engine.plugins import UntrustedRules

        try:
            simulated, variants, ladder, found = simulate_game(
                loaded, games, workers or os.cpu_count() or 1, seed, trust_rules, budget, budgets,
            )
        except UntrustedRules as exc:
            skipped = Finding(Severity.INFO, "simulation", f"{NOT_PLAYED}: {exc.message}", str(loaded.source))
            report = replace(report, findings=(*report.findings, skipped))
        else:
            exact: Exact = {**report.exact, "simulation": simulated}
            if variants:
                exact["variants"] = variants
            exact["ladder"] = ladder
            report = replace(report, findings=report.findings + tuple(found), exact=exact)
    if report_file is not None:
        from pnp.commit import write_atomic

        write_atomic(as_html(report, strict).encode(), report_file)
    click.echo(to_json(report, strict) if as_json else as_text(report, strict))
    if not report.ok(strict):
        raise SystemExit(1)


def _search_budgets(text: str) -> tuple[int, ...]:
    """``--search``: iterations a decision of each search level, positive whole numbers."""
    from pnp.errors import UsageError

    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise UsageError(f"--search: {text!r}; expected positive whole numbers of iterations, weaker first, such as 100,1000")
    return tuple(int(part) for part in parts)

"""`pnp sweep`: play versions of a game on a Dask cluster and rank them (docs/sweep.md)."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from pnp.commands.common import load, refuse_if_unsound

if TYPE_CHECKING:
    from pnp.sweep.tasks import Result


@click.command()
@click.argument("game")
@click.argument("sweep_file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--scheduler", default=None, help="A Dask scheduler's address (tcp://HOST:8786): run on its workers (default: a local cluster).")
@click.option("--workers", type=click.IntRange(1, 1024), default=None, help="Processes of the local cluster (default: every core).")
@click.option("--results", "results_file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="The results file, JSON lines (default: beside SWEEP_FILE, NAME.results.jsonl); a sweep resumes from it.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="The HTML report (default: beside SWEEP_FILE, NAME.html).")
@click.option("--fresh", is_flag=True, help="Start again: forget the results file's results.")
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
@click.option("--strict", is_flag=True, help="Count warnings (unknown keys) as errors.")
@click.option("--trust-rules", "trust_rules", is_flag=True, help="Run the game folder's own engine code (the project's own games run without it; so does PNP_TRUST_RULES=1).")
def sweep(
    game: str, sweep_file: Path, scheduler: str | None, workers: int | None, results_file: Path | None, report_file: Path | None,
    fresh: bool, as_json: bool, strict: bool, trust_rules: bool,
) -> None:
    """Play the versions of GAME that SWEEP_FILE describes and rank them against its targets."""
    from pnp.sweep.cluster import require

    require()
    from pnp.engine.plugins import engine_for, trusted
    from pnp.progress import Progress
    from pnp.sweep import report
    from pnp.sweep.cluster import client, executor
    from pnp.sweep.run import Book, fingerprint, read_results, sweep_rounds, table
    from pnp.sweep.spec import read_sweep
    from pnp.sweep.variants import check_against

    loaded = load(game, strict)
    engine, _ = engine_for(loaded, trust_rules)
    refuse_if_unsound(loaded, False, "no game was played: the engine plays only tables that pass the checks")
    spec, warnings = read_sweep(sweep_file, strict)
    for warning in warnings:
        click.echo(str(warning), err=True)
    check_against(spec, loaded, engine)
    results_file = results_file or sweep_file.with_name(f"{sweep_file.stem}.results.jsonl")
    report_file = report_file or sweep_file.with_name(f"{sweep_file.stem}.html")
    tag = fingerprint(spec, loaded)
    command = "pnp sweep " + shlex.join(sys.argv[2:] if sys.argv[1:2] == ["sweep"] else [game, str(sweep_file)])
    kept = [] if fresh else list(read_results(results_file, tag).values())
    book = Book(stored={row["task"]: row for row in kept})
    if kept:
        click.echo(f"resuming: {len(kept)} tasks already in {results_file}", err=True)
    trust = trust_rules or trusted(loaded)
    with _rewrite(results_file, tag, command, kept) as sink, client(scheduler, workers or os.cpu_count() or 1) as dask:
        sweep_rounds(book, spec, loaded, engine, trust, executor(dask, tag), sink, Progress)
    rows = table(book, spec)
    played = sum(r["tallies"][0]["games"] for name, r in book.results.items() if name.startswith("table:"))
    summary = f"{len(book.versions)} versions, {len(book.results)} tasks, {played} games of the sweep's agents; seed {spec.seed}"
    report_file.write_text(report.as_html(rows, spec, loaded.title, command, summary), encoding="utf-8")
    if as_json:
        click.echo(json.dumps({"summary": summary, "results": str(results_file), "report": str(report_file), "ranking": rows}, indent=2))
        return
    click.echo(f"{loaded.title}: {summary}")
    for line in report.as_text(rows, spec):
        click.echo(line)
    click.echo(f"results: {results_file}; report: {report_file}")


def _rewrite(path: Path, tag: str, command: str, kept: list[Result]) -> TextIO:
    """The results file, written again with its header and the results kept
    (a line cut short by an interruption is gone), open to append to."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name(path.name + ".part")
    with staged.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"sweep": tag, "command": command}) + "\n")
        for row in kept:
            out.write(json.dumps(row, sort_keys=True) + "\n")
    staged.replace(path)
    return path.open("a", encoding="utf-8")

"""The ``pnp`` command: thin click commands that parse, call a stage, print."""

from __future__ import annotations

import json
import signal
import time
from typing import Any
from pathlib import Path

import click

from pnp import __version__
from pnp.errors import PnpError, UsageError
from pnp.model import Game


def _load(game: str, strict: bool) -> Game:
    from pnp.loading.loader import load_game, resolve_game_dir

    loaded = load_game(resolve_game_dir(game), strict=strict)
    for warning in loaded.warnings:
        click.echo(str(warning), err=True)
    return loaded


def _papers(value: str) -> list[str]:
    from pnp.imposition.layouts import load_papers

    known = load_papers()
    chosen = [p.strip().lower() for p in value.split(",") if p.strip()]
    unknown = [p for p in chosen if p not in known]
    if unknown or not chosen:
        raise UsageError(f"--paper: unknown paper {', '.join(unknown) or repr(value)}; expected {', '.join(known)} (comma-separated)")
    return chosen


def _export(game: Game, profile_name: str, out_dir: Path, only: str | None, force: bool = False) -> None:
    """Build a non-home profile: print PDFs, PNG faces or Tabletop Simulator sheets."""
    from pnp.build import select
    from pnp.export.profiles import profile

    chosen = profile(profile_name)
    components = select(game, only.split(",") if only else None)
    started = time.perf_counter()
    if chosen.kind == "print-pdf":
        from pnp.export.printpdf import export_print_pdfs

        result = export_print_pdfs(game, components, chosen, out_dir, force)
        for note in result.skipped:
            click.echo(f"{game.title}: skipped {note}", err=True)
        click.echo(f"{game.title}: {len(result.files)} PDFs for {chosen.id} in {out_dir / chosen.id}, {time.perf_counter() - started:.2f} s")
        for entry, report in zip(result.files, result.reports):
            ink = "not measured" if report.max_ink is None else f"{report.max_ink:.1f} %"
            verdict = "passed" if report.ok else f"{len(report.failures)} problem(s), written with --force"
            click.echo(f"  {entry['path']}  ({entry['pages']} pages; preflight {verdict}: max ink {ink}, {report.fonts} fonts embedded)")
        return
    if chosen.kind == "png-faces":
        from pnp.export.pngfaces import export_png_faces

        skipped: list[str] = []
        files = export_png_faces(game, components, chosen, out_dir, skipped)
        for note in skipped:
            click.echo(f"{game.title}: skipped {note}", err=True)
    elif chosen.kind == "tts":
        from pnp.export.tts import export_tts

        files = export_tts(game, components, chosen, out_dir)
    else:
        raise UsageError(f"--profile {profile_name}: profiles of kind {chosen.kind!r} are built without --profile")
    click.echo(f"{game.title}: {len(files)} images for {chosen.id} in {out_dir / chosen.id}, {time.perf_counter() - started:.2f} s")


def _stamps(no_stamp: bool) -> bool:
    """Whether home builds carry the build stamp: the home profile says so, --no-stamp says not."""
    from pnp.export.profiles import profile

    return profile("home").stamp and not no_stamp


def _refuse_if_unsound(game: Game, force: bool, done: str = "nothing was built (--force builds anyway)") -> None:
    """Run the static checks; stop on errors unless ``force``."""
    from pnp.rules.check import check_game

    errors = check_game(game).errors()
    for finding in errors:
        click.echo(f"{finding.where}: {'warning' if force else 'error'}: [{finding.check}] {finding.message}", err=True)
    if errors and not force:
        raise CheckFailed(f"{game.title}: `pnp check` found {len(errors)} error(s); {done}")


class CheckFailed(PnpError):
    """The card data loads but breaks the game's declared invariants: unusable for a build."""

    exit_code = 2


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


class _Commands(click.Group):
    """pnp's commands, with a failing disk (full, read-only, no permission)
    reported as one line: every command writes through staged files that
    are discarded as the error unwinds, so nothing already built is lost."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as exc:
            raise CannotWrite(exc) from None


class CannotWrite(PnpError):
    """The machine refused a file operation: exit status 3."""

    exit_code = 3

    def __init__(self, exc: OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        super().__init__(f"{where}{exc.strerror or exc}; nothing already built was changed")


@click.group(cls=_Commands)
@click.version_option(__version__, prog_name="pnp")
def main() -> None:
    """Print-and-play components from YAML card data."""
    # A terminated build unwinds like Ctrl-C, so staged files are removed and
    # the previous output stays as it was.
    signal.signal(signal.SIGTERM, _interrupt)


@main.command()
@click.argument("games", nargs=-1)
@click.option("--paper", default="a4,letter", show_default=True, help="Paper(s) to impose on: a4, letter, or both comma-separated.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True, help="Folder for results; each game gets a subfolder.")
@click.option("--only", default=None, help="Build only these components (comma-separated ids).")
@click.option("--strict", is_flag=True, help="Treat warnings (such as unknown keys) as errors.")
@click.option("--force", is_flag=True, help="Build even when `pnp check` (or an export's preflight) finds errors.")
@click.option("--profile", "profile_name", default="home", show_default=True, help="What to make: home, drivethrucards, factory, thegamecrafter, makeplayingcards, tts (pnp/presets/profiles/).")
@click.option("--gutterfold", is_flag=True, help="Home: each front beside its back on one landscape sheet, to fold (no duplex needed).")
@click.option("--ink-saver", is_flag=True, help="Home: light backgrounds, no full-bleed fills (each game's stylesheet decides).")
@click.option("--no-stamp", "no_stamp", is_flag=True, help="Home: leave out the build stamp (version, date, card hash) printed on each card.")
@click.option("--changed-since", "changed_since", type=click.Path(exists=True, path_type=Path), default=None, help="Home: only the cards that changed since this build (its folder or manifest.json).")
def build(
    games: tuple[str, ...], paper: str, out: Path, only: str | None, strict: bool, force: bool,
    profile_name: str, gutterfold: bool, ink_saver: bool, no_stamp: bool, changed_since: Path | None,
) -> None:
    """Build home-print PDFs of GAMES (names under card_data/ or folders); all shipped games if none."""
    from pnp.render.service import started

    # The renderer loads WeasyPrint on the other core while the games are read.
    with started():
        _build_all(games, paper, out, only, strict, force, profile_name, gutterfold, ink_saver, no_stamp, changed_since)


def _build_all(
    games: tuple[str, ...], paper: str, out: Path, only: str | None, strict: bool, force: bool,
    profile_name: str, gutterfold: bool, ink_saver: bool, no_stamp: bool, changed_since: Path | None,
) -> None:
    from pnp.build import build as run_build
    from pnp.loading.loader import shipped_games

    papers = _papers(paper)
    names = list(games) or shipped_games()
    if not names:
        raise UsageError("no games given and none found under card_data/")
    for name in names:
        started = time.perf_counter()
        game = _load(name, strict)
        _refuse_if_unsound(game, force)
        if profile_name != "home":
            _export(game, profile_name, out / game.folder_name, only, force)
            continue
        reprint = None
        if changed_since is not None:
            from pnp.build import select
            from pnp.iterate.diff import changed_cards

            reprint = changed_cards(game, select(game, only.split(",") if only else None), changed_since)
        result = run_build(
            game, papers, out / game.folder_name, only.split(",") if only else None, gutterfold, ink_saver,
            reprint=reprint, stamp=_stamps(no_stamp), strict=strict,
        )
        for warning in result.warnings:
            click.echo(str(warning), err=True)
        took = time.perf_counter() - started
        cards = sum(c.copies for c in result.components)
        click.echo(
            f"{game.title}: {cards} cards from {result.faces} unique faces "
            f"({result.placed} placed per paper, backs included), {took:.2f} s; "
            f"laid out {result.rendered} documents ({result.faces_rendered} of the faces), {result.cached} from the cache"
        )
        for f in result.files:
            click.echo(f"  {f.path}  ({f.pages} pages, {f.paper})")
        click.echo(f"  {result.manifest}")


@main.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {ok, findings, exact}.")
@click.option("--strict", is_flag=True, help="Count warnings (and unknown keys) as errors.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Also write an HTML report with the tables and an odds plot.")
@click.option("--games", type=click.IntRange(0, 10_000_000), default=200, show_default=True, help="Simulated games per player count (0: static checks only).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Processes for the simulation (default: every core).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the simulation.")
@click.option("--trust-rules", "trust_rules", is_flag=True, help="Run the game folder's own engine code (the project's own games run without it; so does PNP_TRUST_RULES=1).")
def check(game: str, as_json: bool, strict: bool, report_file: Path | None, games: int, workers: int | None, seed: int, trust_rules: bool) -> None:
    """Check GAME: invariants, balance, exact odds, and simulated play. Exit 0 if fine, 1 if not."""
    import os
    from dataclasses import replace

    from pnp.rules.check import check_game
    from pnp.rules.findings import Finding, Severity
    from pnp.rules.summary import as_html, as_text
    from pnp.rules.summary import as_json as to_json

    loaded = _load(game, strict)
    report = check_game(loaded)
    if games and loaded.engine and report.errors():
        skipped = Finding(Severity.INFO, "simulation", "not played: the engine plays only a game whose tables pass the checks above", str(loaded.source))
        report = replace(report, findings=(*report.findings, skipped))
    elif games and loaded.engine:
        from pnp.engine.balance import simulate_game
        from pnp.engine.plugins import UntrustedRules

        try:
            simulated, found = simulate_game(loaded, games, workers or os.cpu_count() or 1, seed, trust_rules)
        except UntrustedRules as exc:
            skipped = Finding(Severity.INFO, "simulation", f"not played: {exc.message}", str(loaded.source))
            report = replace(report, findings=(*report.findings, skipped))
        else:
            report = replace(report, findings=report.findings + tuple(found), exact={**report.exact, "simulation": simulated})
    if report_file is not None:
        from pnp.commit import write_atomic

        write_atomic(as_html(report, strict).encode(), report_file)
    click.echo(to_json(report, strict) if as_json else as_text(report, strict))
    if not report.ok(strict):
        raise SystemExit(1)


@main.command()
@click.argument("game")
@click.option("--players", type=int, required=True, help="Players at the table.")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed gives the same numbers.")
@click.option("--agents", default="heuristic", show_default=True, help="One agent for every seat, or one per seat, comma-separated.")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Processes to use (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--trust-rules", "trust_rules", is_flag=True, help="Run the game folder's own engine code (the project's own games run without it; so does PNP_TRUST_RULES=1).")
def simulate(game: str, players: int, games: int, seed: int, agents: str, workers: int | None, as_json: bool, trust_rules: bool) -> None:
    """Play GAME many times with the reference engine and report how it behaves."""
    import os

    from pnp.engine.plugins import engine_for
    from pnp.engine.simulate import Run, agents_for, metrics
    from pnp.engine.simulate import simulate as run_games

    loaded = _load(game, False)
    engine, options = engine_for(loaded, trust_rules)
    _refuse_if_unsound(loaded, False, "no game was played: the engine plays only tables that pass the checks")
    prepared = engine.prepare(loaded, options)
    if players not in engine.player_counts(prepared):
        raise UsageError(f"--players: {players} is not a player count of {loaded.title} ({', '.join(map(str, engine.player_counts(prepared)))})")
    run = Run(engine, prepared, options, players, agents_for(engine, [a.strip() for a in agents.split(",") if a.strip()], players), games, seed)
    data = metrics(run, run_games(run, workers or os.cpu_count() or 1))
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{loaded.title}, {players} players, {games} games, seed {seed}, agents {', '.join(run.agents)}")
    said = data["words"]
    click.echo(f"  win rate by seat, {said['first_seat']} first (95 % interval): " + ", ".join(f"{r['rate']:.1%} ({r['low']:.1%}-{r['high']:.1%})" for r in data["win_rate_by_seat"]))
    click.echo(f"  no winner: {data['no_winner_rate']['rate']:.1%}; cap on {said['rounds']} reached: {data['capped_rate']['rate']:.1%}")
    click.echo("  outcomes: " + ", ".join(f"{k} {v['share']['rate']:.0%} (wins {v['win_rate']['rate']:.0%})" for k, v in data["outcomes"].items()))
    click.echo(f"  {said['rounds']}: mean {data['rounds']['mean']:.1f}, median {data['rounds']['p50']}, 90th percentile {data['rounds']['p90']}")
    click.echo(f"  {said['actions']}: " + ", ".join(f"{k} {v:.0%}" for k, v in data["actions"].items()))


@main.command()
@click.argument("game")
@click.argument("table", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--trust-rules", "trust_rules", is_flag=True, help="Run the game folder's own engine code (the project's own games run without it; so does PNP_TRUST_RULES=1).")
def score(game: str, table: Path, as_json: bool, trust_rules: bool) -> None:
    """Score a real table: who wins, and why. TABLE is a YAML file in the
    format GAME's engine reads (Persuasion's, with an example per edition: docs/score-tables.md)."""
    from pnp.engine.plugins import engine_for
    from pnp.loading.yamlsrc import load_yaml

    loaded = _load(game, False)
    engine, options = engine_for(loaded, trust_rules)
    data = engine.score(engine.prepare(loaded, options), load_yaml(table))
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for line in engine.score_text(data):
        click.echo(line)


@main.command(name="diff")
@click.argument("old", type=click.Path(exists=True, path_type=Path))
@click.argument("new", type=click.Path(exists=True, path_type=Path))
@click.option("--sheets", "sheets_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("diff"), show_default=True, help="Folder for before/after PNGs of changed cards.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def diff_command(old: Path, new: Path, sheets_dir: Path, as_json: bool) -> None:
    """What changed between two builds (build folders or manifest.json files)."""
    from pnp.iterate.diff import contact_sheets, diff

    result = diff(old, new)
    written = contact_sheets(result, sheets_dir)
    public = {k: v for k, v in result.items() if not k.startswith("_")}
    public["sheets"] = [str(p) for p in written]
    if as_json:
        click.echo(json.dumps(public, indent=2))
        return
    for kind in ("added", "removed", "changed"):
        for item in public[kind]:
            sides = f" ({', '.join(item['sides'])})" if "sides" in item else ""
            click.echo(f"{kind:8} {item['component']}/{item['card']}{sides}")
    click.echo(f"{len(public['added'])} added, {len(public['removed'])} removed, {len(public['changed'])} changed; "
               f"{len(written)} before/after sheets in {sheets_dir}")


@main.command(name="list")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def list_(game: str, as_json: bool, strict: bool) -> None:
    """List GAME's components and cards."""
    from pnp.listing import listing, listing_text

    data = listing(_load(game, strict))
    click.echo(json.dumps(data, indent=2) if as_json else listing_text(data))


__all__ = ["PnpError", "main"]


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--profile", "profile_name", default=None, help="Check against this profile's requirements (drivethrucards, factory ...); without it: boxes and fonts only, ink measured.")
def preflight(files: tuple[Path, ...], profile_name: str | None) -> None:
    """Check print PDFs: boxes, embedded fonts, colour spaces, image resolution, total ink.

    Exit status 1 when any file fails a check."""
    from dataclasses import replace

    from pnp.export.printpdf import requirements as profile_requirements
    from pnp.export.profiles import profile
    from pnp.preflight import Requirements, format_report
    from pnp.preflight import preflight as run

    requirements = Requirements(max_ink=400)  # 400 %: measured and shown, never a failure
    if profile_name is not None:
        requirements = profile_requirements(profile(profile_name))
        if requirements.max_ink is None:
            requirements = replace(requirements, max_ink=400)
    failed = 0
    for path in files:
        report = run(path, requirements)
        click.echo(format_report(report))
        failed += not report.ok
    if failed:
        raise PreflightFailedFiles(f"{failed} of {len(files)} file(s) failed preflight")


class PreflightFailedFiles(PnpError):
    """Some checked PDFs do not meet the requirements."""

    exit_code = 1


@main.command()
@click.argument("game")
@click.option("--paper", default="a4", show_default=True, help="Paper(s) to impose on: a4, letter, or both comma-separated.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True, help="Folder for results; the game gets a subfolder.")
@click.option("--no-stamp", "no_stamp", is_flag=True, help="Leave out the build stamp.")
@click.option("--builds", type=click.IntRange(1), default=None, hidden=True, help="Stop after this many rebuilds (for tests).")
def watch(game: str, paper: str, out: Path, no_stamp: bool, builds: int | None) -> None:
    """Build GAME's home PDFs, then rebuild on every save, saying what changed and how long it took."""
    from pnp.iterate.watch import watch as run
    from pnp.loading.loader import resolve_game_dir

    try:
        run(
            resolve_game_dir(game), _papers(paper), out, _stamps(no_stamp),
            say=lambda line: click.echo(line), warn=lambda line: click.echo(line, err=True), builds=builds,
        )
    except KeyboardInterrupt:
        click.echo("stopped")

"""The ``pnp`` command: thin click commands that parse, call a stage, print."""

from __future__ import annotations

import json
import signal
import time
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


def _refuse_if_unsound(game: Game, force: bool) -> None:
    """Run the static checks; stop the build on errors unless --force."""
    from pnp.rules.check import check_game

    errors = check_game(game).errors()
    for finding in errors:
        click.echo(f"{finding.where}: {'warning' if force else 'error'}: [{finding.check}] {finding.message}", err=True)
    if errors and not force:
        raise CheckFailed(f"{game.title}: `pnp check` found {len(errors)} error(s); nothing was built (--force builds anyway)")


class CheckFailed(PnpError):
    """The card data loads but breaks the game's declared invariants: unusable for a build."""

    exit_code = 2


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@click.group()
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
@click.option("--force", is_flag=True, help="Build even when `pnp check` finds errors.")
def build(games: tuple[str, ...], paper: str, out: Path, only: str | None, strict: bool, force: bool) -> None:
    """Build home-print PDFs of GAMES (names under card_data/ or folders); all shipped games if none."""
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
        result = run_build(game, papers, out / game.folder_name, only.split(",") if only else None)
        took = time.perf_counter() - started
        cards = sum(c.copies for c in result.components)
        click.echo(
            f"{game.title}: {cards} cards from {result.faces} unique faces "
            f"({result.placed} placed per paper, backs included), {took:.2f} s"
        )
        for f in result.files:
            click.echo(f"  {f.path}  ({f.pages} pages, {f.paper})")
        click.echo(f"  {result.manifest}")


@main.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {ok, findings, exact}.")
@click.option("--strict", is_flag=True, help="Count warnings (and unknown keys) as errors.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Also write an HTML report with the tables and an odds plot.")
def check(game: str, as_json: bool, strict: bool, report_file: Path | None) -> None:
    """Check GAME's card data: invariants, balance and exact odds. Exit 0 if fine, 1 if not."""
    from pnp.rules.check import check_game
    from pnp.rules.summary import as_html, as_json as to_json, as_text

    report = check_game(_load(game, strict))
    if report_file is not None:
        from pnp.pdf.place import write_atomic

        write_atomic(as_html(report, strict).encode(), report_file)
    click.echo(to_json(report, strict) if as_json else as_text(report, strict))
    if not report.ok(strict):
        raise SystemExit(1)


@main.command(name="list")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def list_(game: str, as_json: bool, strict: bool) -> None:
    """List GAME's components and cards."""
    from pnp.listing import listing, listing_text

    data = listing(_load(game, strict))
    click.echo(json.dumps(data, indent=2) if as_json else listing_text(data))


__all__ = ["main", "PnpError"]

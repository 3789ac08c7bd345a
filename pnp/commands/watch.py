"""`pnp watch`: rebuild on every save."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.commands.common import game_folder, papers


@click.command()
@click.argument("game")
@click.option("--paper", default="a4", show_default=True, help="Paper(s) to impose on: a4, letter, or both comma-separated.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True, help="Folder for results; the game gets a subfolder.")
@click.option("--no-stamp", "no_stamp", is_flag=True, help="Leave out the build stamp.")
@click.option("--builds", type=click.IntRange(1), default=None, hidden=True, help="Stop after this many rebuilds (for tests).")
def watch(game: str, paper: str, out: Path, no_stamp: bool, builds: int | None) -> None:
    """Build GAME's home PDFs, then rebuild on every save, saying what changed and how long it took."""
    from pnp.iterate.watch import watch as run

    try:
        run(
            game_folder(game), papers(paper), out, not no_stamp,
            say=lambda line: click.echo(line), warn=lambda line: click.echo(line, err=True), builds=builds,
        )
    except KeyboardInterrupt:
        click.echo("stopped")

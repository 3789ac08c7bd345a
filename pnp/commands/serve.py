"""`pnp serve`: a live preview of a game in the browser."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.commands.common import game_folder


@click.command(name="serve")
@click.argument("game")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port on 127.0.0.1 (0: any free port).")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True,
              help="Output folder whose render cache the preview shares with pnp build and pnp watch.")
def serve(game: str, port: int, out: Path) -> None:
    """Preview GAME in the browser at http://127.0.0.1:PORT/: every face by
    component, each card's data, source and layout warnings, and the check
    summary; the page updates itself on every save."""
    from pnp.iterate.serve import serve as run

    try:
        run(game_folder(game), out, port, lambda line: click.echo(line))
    except KeyboardInterrupt:
        click.echo("stopped")

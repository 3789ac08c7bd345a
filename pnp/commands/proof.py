"""`pnp proof`: contact sheets of every distinct face of a game."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp.commands.common import load
from pnp.words import count

if TYPE_CHECKING:
    from pnp.colour.vision import Deficiency


@click.command(name="proof")
@click.argument("game")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True,
              help="Folder for results; the sheets go in <out>/<game>/proof/.")
@click.option("--only", default=None, metavar="IDS", help="Comma-separated component ids (default: all).")
@click.option("--dpi", default=100, show_default=True, type=click.IntRange(30, 300), help="Pixels per inch of the faces on the sheets.")
@click.option("--vision", type=click.Choice(["protan", "deutan", "tritan"]), default=None,
              help="Show the faces as a player with this colour-vision deficiency sees them (Machado et al. 2009, full severity).")
def proof(game: str, out: Path, only: str | None, dpi: int, vision: Deficiency | None) -> None:
    """Write contact sheets of GAME: every distinct face, captioned with its card,
    side and copies, one PNG per component and one PDF of them all. A face
    whose text overflows (or leaves the safe zone, or overlaps) is framed in
    red, and the warnings are printed as `pnp build` prints them."""
    from pnp.output.parts import select
    from pnp.iterate.proof import proof as make

    loaded = load(game, strict=False)
    made = make(loaded, select(loaded, only.split(",") if only else None), out / loaded.folder_name, dpi, vision)
    for warning in made.warnings:
        click.echo(str(warning), err=True)
    written = made.files
    for path in written:
        click.echo(f"  {path}")
    sheets = len(written) - 1 if written else 0
    click.echo(f"{loaded.title}: {count(sheets, 'contact sheet')} and a PDF of {'it' if sheets == 1 else 'them'} in {out / loaded.folder_name / 'proof'}")

"""`pnp list`: a game's components and cards."""

from __future__ import annotations

import json

import click

from pnp.commands.common import load


@click.command(name="list")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def list_(game: str, as_json: bool, strict: bool) -> None:
    """List GAME's components and cards."""
    from pnp.listing import listing, listing_text

    data = listing(load(game, strict))
    click.echo(json.dumps(data, indent=2) if as_json else listing_text(data))

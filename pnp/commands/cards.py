"""`pnp cards`: a component's cards written as a spreadsheet, or back as YAML."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.commands.common import load


@click.command(name="cards")
@click.argument("game")
@click.argument("component")
@click.option("--to", "target", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write: .csv, .tsv or .xlsx (a spreadsheet) or .yaml (a YAML cards file).")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists (never the file the cards are read from).")
def cards(game: str, component: str, target: Path, force: bool) -> None:
    """Write COMPONENT's cards of GAME to another file format, checked to read
    back as the same cards: from YAML to a spreadsheet a designer edits, or back.
    Then point the component's `cards:` at the new file. An existing file is
    left alone unless --force is given."""
    from pnp.loading.convert import convert

    loaded = load(game, strict=False)
    written = convert(loaded, component, target, force)
    click.echo(f"{target}: {written} card{'s' if written != 1 else ''} of {component}, checked to read back the same; "
               f"set `cards: {target.name}` in the component to use it")

"""`pnp diff`: what changed between two builds."""

from __future__ import annotations

import json
from pathlib import Path

import click



@click.command(name="diff")
@click.argument("old", type=click.Path(exists=True, path_type=Path))
@click.argument("new", type=click.Path(exists=True, path_type=Path))
@click.option("--sheets", "sheets_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("diff"), show_default=True, help="Folder for before/after PNGs of changed cards.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def diff_command(old: Path, new: Path, sheets_dir: Path, as_json: bool) -> None:
    """What changed between two builds (build folders or manifest.json files)."""
    from pnp.iterate.diff import contact_sheets, diff

    result = diff(old, new)
    written = contact_sheets(result, sheets_dir)
    if as_json:
        public = {k: v for k, v in result.items() if not k.startswith("_")}
        click.echo(json.dumps({**public, "sheets": [str(p) for p in written]}, indent=2))
        return
    for kind, items in (("added", result["added"]), ("removed", result["removed"])):
        for item in items:
            click.echo(f"{kind:8} {item['component']}/{item['card']}")
    for change in result["changed"]:
        click.echo(f"{'changed':8} {change['component']}/{change['card']} ({', '.join(change['sides'])})")
    click.echo(f"{len(result['added'])} added, {len(result['removed'])} removed, {len(result['changed'])} changed; "
               f"{len(written)} before/after sheets in {sheets_dir}")

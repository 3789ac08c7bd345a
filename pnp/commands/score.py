"""`pnp score`: score a real table with the game's engine."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pnp.commands.common import load


@click.command()
@click.argument("game")
@click.argument("table", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--variant", default=None, help="Score by a variant the game declares (game.yaml engine.variants).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--trust-rules", "trust_rules", is_flag=True, help="Run the game folder's own engine code (the project's own games run without it; so does PNP_TRUST_RULES=1).")
def score(game: str, table: Path, variant: str | None, as_json: bool, trust_rules: bool) -> None:
    """Score a real table: who wins, and why. TABLE is a YAML file in the
    format GAME's engine reads (the shipped games' formats, with examples: docs/score-tables.md)."""
    from pnp.engine.plugins import engine_for
    from pnp.loading.yamlsrc import load_yaml

    loaded = load(game, False)
    engine, options = engine_for(loaded, trust_rules, variant, to="score")
    data = engine.score(engine.prepare(loaded, options), load_yaml(table))
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for line in engine.score_text(data):
        click.echo(line)

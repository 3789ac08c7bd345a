"""`pnp new`: start a game folder, or a project of games, from a starting point."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.errors import UsageError


@click.command()
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--starter", default="poker", show_default=True, help="The starting point: poker (a poker-size deck), tokens (a sheet of round tokens), engine (a small game with a rules module that pnp simulate plays).")
@click.option("--project", "as_project", is_flag=True, help="Write a project at TARGET (pnp.toml, card_data/, shared templates/, fonts/, art/) holding one game.")
@click.option("--game", "game_name", default=None, help="With --project: the id of the project's first game (card_data/GAME/; default my-game).")
def new(target: Path, starter: str, as_project: bool, game_name: str | None) -> None:
    """Write a new game folder TARGET (its name is the game's id) that builds and checks at once."""
    from pnp.scaffold import new_game, new_project, plays, starters

    if starter not in starters():
        raise UsageError(f"--starter: unknown starting point {starter!r}; expected one of {', '.join(starters())}")
    if game_name is not None and not as_project:
        raise UsageError("--game names a project's first game: use it with --project (a game folder's name is its id)")
    game_name = game_name or "my-game"
    written = new_project(target, starter, game_name) if as_project else new_game(target, starter)
    kind = "project" if as_project else f"game {target.name!r}"
    click.echo(f"wrote {kind} in {target}/ from the {starter} starting point:")
    for path in written:
        click.echo(f"  {path.as_posix()}")
    engine = plays(starter)
    trust = " --trust-rules" if engine else ""
    if as_project:
        steps = [f"cd {target}", f"pnp build {game_name} --paper a4", f"pnp check {game_name}{trust}"]
        game = game_name
    else:
        steps = [f"pnp build {target} --paper a4", f"pnp check {target}{trust}"]
        game = str(target)
    if engine:
        steps.append(f"pnp simulate {game} --players 2 --trust-rules")
    click.echo("next:")
    for step in steps:
        click.echo(f"  {step}")
    if engine:
        click.echo("rules.py is code in a folder of your own, not one of pnp's games: pnp runs it only with --trust-rules (or PNP_TRUST_RULES=1).")
    click.echo("README.md in the game folder explains each file.")

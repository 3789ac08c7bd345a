"""`pnp new`: start a game folder, or a project of games, from a starting point."""

from __future__ import annotations

import os
from pathlib import Path

import click

from pnp.errors import UsageError


@click.command()
@click.argument("target")
@click.option("--starter", default="poker", show_default=True, help="The starting point: poker (a poker-size deck), tarot (a tarot-size deck, four a sheet), tokens (a sheet of round tokens), engine (pnp's High Card example: a small game with a rules module that pnp simulate plays, with its tests).")
@click.option("--project", "as_project", is_flag=True, help="Write a project at TARGET (pnp.toml, card_data/, shared templates/, fonts/, art/) holding one game.")
@click.option("--game", "game_name", default=None, help="With --project: the id of the project's first game (card_data/GAME/; default my-game).")
def new(target: str, starter: str, as_project: bool, game_name: str | None) -> None:
    """Write a new game folder TARGET (its name is the game's id) that builds and checks at once.
    A bare name inside a project (a pnp.toml here or above) is the project's
    next game, card_data/TARGET; a path is written where it points."""
    from pnp.paths import project_of
    from pnp.scaffold import new_game, new_project, plays, starters

    if starter not in starters():
        raise UsageError(f"--starter: unknown starting point {starter!r}; expected one of {', '.join(starters())}")
    if game_name is not None and not as_project:
        raise UsageError("--game names a project's first game: use it with --project (a game folder's name is its id)")
    game_name = game_name or "my-game"
    bare = not as_project and os.sep not in target and "/" not in target and target not in (".", "..")
    project = project_of(Path.cwd()) if bare else None  # a bare name inside a project: its next game
    folder = project / "card_data" / target if project is not None else Path(target)
    written = new_project(folder, starter, game_name) if as_project else new_game(folder, starter)
    kind = "project" if as_project else f"game {folder.name!r}"
    click.echo(f"wrote {kind} in {folder}/ from the {starter} starting point:")
    for path in written:
        click.echo(f"  {path.as_posix()}")
    engine = plays(starter)
    trust = " --trust-rules" if engine else ""
    if as_project:
        steps = [] if folder.resolve() == Path.cwd().resolve() else [f"cd {folder}"]
        game = game_name
    else:
        steps = []
        game = folder.name if project is not None else target
    steps += [f"pnp build {game} --paper a4", f"pnp check {game}{trust}"]
    if engine:
        steps.append(f"pnp simulate {game} --players 2 --trust-rules")
    click.echo("next:")
    for step in steps:
        click.echo(f"  {step}")
    if engine:
        click.echo("rules.py is code in a folder of your own, not one of pnp's games: pnp runs it only with --trust-rules (or PNP_TRUST_RULES=1).")
    click.echo("README.md in the game folder explains each file.")

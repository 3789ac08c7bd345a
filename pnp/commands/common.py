"""What the commands share: finding and reading a game, the paper list, and
refusing a game whose data breaks its own checks."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.errors import PnpError, UsageError
from pnp.model import Game
from pnp.words import count


def game_folder(game: str) -> Path:
    """The folder of ``game`` (a name under the project's card_data/, or a
    path), said first on stderr with the project around it: which folder a
    command reads is never a guess, and standard output (--json) stays data."""
    from pnp.loading.loader import resolve_game_dir
    from pnp.paths import PROJECT

    folder = resolve_game_dir(game)
    click.echo(f"game folder {folder}; {PROJECT}", err=True)
    return folder


def load(game: str, strict: bool) -> Game:
    return load_folder(game_folder(game), strict)


def load_folder(folder: Path, strict: bool) -> Game:
    """The game in ``folder``, its loading warnings said on stderr."""
    from pnp.loading.loader import load_game

    loaded = load_game(folder, strict=strict)
    for warning in loaded.warnings:
        click.echo(str(warning), err=True)
    return loaded


def papers(value: str) -> list[str]:
    from pnp.loading.presets import load_papers

    known = load_papers()
    chosen = [p.strip().lower() for p in value.split(",") if p.strip()]
    unknown = [p for p in chosen if p not in known]
    if unknown or not chosen:
        raise UsageError(f"--paper: unknown paper {', '.join(unknown) or repr(value)}; expected {', '.join(known)} (comma-separated)")
    return chosen


def refuse_if_unsound(
    game: Game, force: bool, done: str = "nothing was built (--force builds anyway)", out_dir: Path | None = None
) -> tuple[str, ...]:
    """Run the static checks; stop on errors unless ``force``; returns what
    it said of them (``force``: as warnings). ``out_dir``: the game's output
    folder, whose ``.cache/odds.json`` keeps exact odds from one build to the next."""
    from pnp.rules.check import check_game

    errors = check_game(game, None if out_dir is None else out_dir / ".cache" / "odds.json").errors()
    said = tuple(f"{finding.where}: {'warning' if force else 'error'}: [{finding.check}] {finding.message}" for finding in errors)
    for line in said:
        click.echo(line, err=True)
    if errors and not force:
        raise CheckFailed(f"{game.title}: `pnp check` found {count(len(errors), 'error')}; {done}")
    return said


class CheckFailed(PnpError):
    """The card data loads but breaks the game's declared invariants: unusable for a build."""

    exit_code = 2

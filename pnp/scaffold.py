"""`pnp new`: a game folder, or a project of games, from a starting point.

The starting points are data shipped in the package (``resources/starters/``):
each is a complete game folder whose text files carry ``__ID__`` and
``__TITLE__`` where the new game's id and title go, or a game of its own
(``engine/`` is pnp's High Card example, with its tests), whose game.yaml's
``id:`` and ``name:`` are set to the new game's (``project/`` holds what a
project adds around its games, with ``__GAME__`` for its first game's id).
Everything is written into a staged folder first and moved into place only
when complete, so a failure leaves no half-written game.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from pnp.errors import UsageError
from pnp.schema.scalars import SLUG
from pnp.paths import OWN

STARTERS = OWN / "starters"
PROJECT = "project"
"""The starter folder holding a project's own files, not a game."""


def starters() -> tuple[str, ...]:
    """The starting points a game can be made from."""
    return tuple(sorted(p.name for p in STARTERS.iterdir() if p.is_dir() and p.name != PROJECT))


def plays(starter: str) -> bool:
    """Whether the starting point has a rules module (so simulate plays it, with --trust-rules)."""
    return (STARTERS / starter / "rules.py").is_file()


def game_id(name: str) -> str:
    """``name`` when it is a valid game id (the schema's rule), else a UsageError."""
    assert SLUG.pattern is not None
    if len(name) > SLUG.max_length or not re.fullmatch(SLUG.pattern, name):
        raise UsageError(f"{name!r} cannot name a game: expected {SLUG.expected()}, at most {SLUG.max_length} characters")
    return name


def title_of(name: str) -> str:
    """A first title for a game or project: ``my-game`` reads "My Game"."""
    return " ".join(word.capitalize() for word in re.split(r"[-_\s]+", name) if word) or name


def new_game(target: Path, starter: str) -> list[Path]:
    """Write a game folder at ``target`` (its name is the game's id) from ``starter``; the files written."""
    ident = game_id(target.name)
    with _staged(target) as stage:
        _game(starter, stage, ident)
    return _files(target)


def new_project(target: Path, starter: str, game: str) -> list[Path]:
    """Write a project at ``target`` (pnp.toml, shared folders) holding one game, ``game``, from ``starter``."""
    ident = game_id(game)
    with _staged(target) as stage:
        _copy(STARTERS / PROJECT, stage, {"__GAME__": ident, "__TITLE__": title_of(target.resolve().name)})
        _game(starter, stage / "card_data" / ident, ident)
    return _files(target)


def _game(starter: str, target: Path, ident: str) -> None:
    """The game folder ``starter`` copied to ``target``, named ``ident``."""
    title = title_of(ident)
    _copy(STARTERS / starter, target, {"__ID__": ident, "__TITLE__": title})
    game = target / "game.yaml"
    text = re.sub(r"(?m)^id: .*$", f"id: {ident}", game.read_text(encoding="utf-8"), count=1)
    game.write_text(re.sub(r"(?m)^name: .*$", f"name: {title}", text, count=1), encoding="utf-8")


class _staged:
    """A folder to write into, beside ``target`` (or inside it, when it is an
    empty folder), moved into place on success and removed on failure.
    ``target`` may not exist yet or be an empty folder; anything else is
    refused before anything is written."""

    def __init__(self, target: Path):
        if target.is_symlink() or (target.exists() and (not target.is_dir() or any(target.iterdir()))):
            raise UsageError(f"{target}: already exists and is not an empty folder; nothing was written (choose a new name)")
        self.target = target.absolute()  # `pnp new --project .`: the current folder
        self.fill = self.target.is_dir()
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.stage = Path(tempfile.mkdtemp(prefix=".pnp-new-", dir=self.target if self.fill else self.target.parent))

    def __enter__(self) -> Path:
        return self.stage

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is not None:
            shutil.rmtree(self.stage, ignore_errors=True)
            return
        try:
            if self.fill:  # an empty folder, kept (it may be someone's current folder), staged inside
                for child in self.stage.iterdir():
                    os.rename(child, self.target / child.name)
                self.stage.rmdir()
            else:
                os.rename(self.stage, self.target)
        except OSError:
            shutil.rmtree(self.stage, ignore_errors=True)
            raise


def _copy(source: Path, target: Path, words: dict[str, str]) -> None:
    """Copy the folder ``source`` to ``target``, each placeholder in ``words`` replaced in every file."""
    for path in sorted(source.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        out = target / path.relative_to(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8")
        for word, value in words.items():
            text = text.replace(word, value)
        out.write_text(text, encoding="utf-8")


def _files(folder: Path) -> list[Path]:
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())

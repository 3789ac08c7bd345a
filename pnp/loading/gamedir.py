"""A game folder: found by name or path, and the files it may use found
inside it, the folders it shares, the project and pnp's own, never outside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from pnp.errors import PathRefused, UsageError
from pnp.schema.spec import FileKind
from pnp.paths import CARD_DATA, SHARED, confined, is_regular_file, way_out

GAME_FILE = "game.yaml"

_ROOTS: dict[FileKind, tuple[str, ...]] = {
    # kind: folders searched in order, relative to (game folder, project home)
    "template": ("templates",),
    "style": ("templates",),
    "art": ("",),
    "font": ("",),
    "data": ("",),
}


def shipped_games() -> list[str]:
    """Names of the games under the project's card_data/ (:mod:`pnp.paths`)."""
    if not CARD_DATA.is_dir():
        return []
    return sorted(p.name for p in CARD_DATA.iterdir() if (p / GAME_FILE).is_file())


def resolve_game_dir(game: str) -> Path:
    """A game given by path to its folder, or by name (under the project's card_data/)."""
    path = Path(game)
    if (path / GAME_FILE).is_file():
        return path.resolve()
    if "/" not in game and (CARD_DATA / game / GAME_FILE).is_file():
        return (CARD_DATA / game).resolve()
    known = ", ".join(shipped_games()) or "none"
    raise UsageError(f"no game {game!r}: expected a folder with a {GAME_FILE} or one of the games in {CARD_DATA}: {known}")


def file_finder(game_dir: Path, shared: Sequence[Path]) -> Callable[[FileKind, str], Path | None]:
    """A function (kind, relative path) -> the real location of an existing
    file inside an allowed root (the game folder, the folders it ``shared``,
    the project, pnp's own), or None. The first root the path leads out
    of (a link to elsewhere, or ``..``) raises :class:`PathRefused`, saying
    how: a game's ``templates`` linked to ``/etc`` is refused, not read."""
    project_roots = [root for root in (*shared, *SHARED) if root != game_dir]

    def find(kind: FileKind, relative: str) -> Path | None:
        if relative.startswith(("/", "\\")) or ":" in relative:
            return None
        for base in [game_dir, *project_roots]:
            if kind == "data" and base != game_dir:
                continue
            for sub in _ROOTS[kind]:
                written = base / sub / relative
                candidate = confined(written, [(base, sub)])
                if candidate is not None and is_regular_file(candidate):
                    return candidate
                why = way_out(written, base) if candidate is None else None
                if why is not None:
                    raise PathRefused(why)
        return None

    return find


def template_name(found: Path, game_dir: Path, shared: tuple[Path, ...]) -> str:
    """The name Jinja2's loader knows a resolved template file by."""
    for root in (folder / "templates" for folder in (game_dir, *shared, *SHARED)):
        if found.is_relative_to(root.resolve()):
            return found.relative_to(root.resolve()).as_posix()
    raise AssertionError(found)

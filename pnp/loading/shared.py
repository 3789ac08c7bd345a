"""The folders a game shares with other games, declared in its game.yaml.

``shared: [../persuasion]`` names folders that lie *beside* the game folder
(in a project, other folders under ``card_data/``): a family of games keeps
its common templates, art and fonts in one of them, and each game that uses
it says so. Files are looked up in the game folder first, then in each shared
folder in the order written, then in the project and pnp's own resources
(:mod:`pnp.paths`). A folder without a ``game.yaml`` is no game, so a family
folder is never listed or built as one.

A shared folder is found through the one path resolver
(:func:`pnp.paths.confined`): its real location (links followed) must be a
folder whose parent is the game folder's own parent, so ``..``, ``/etc``
or a link out can never widen what a build reads.
"""

from __future__ import annotations

from pathlib import Path

from pnp.errors import Diagnostic, InputError
from pnp.loading.yamlsrc import Document, load_yaml
from pnp.paths import confined, way_out

KEY = "shared"
MAX_SHARED = 8
"""Shared folders one game may declare."""
_EXPECTED = "expected the name of a folder beside the game folder, like '../family'"


def shared_folders(doc: Document, game_dir: Path, diagnostics: list[Diagnostic]) -> tuple[Path, ...]:
    """The real locations of the folders ``doc`` (a game.yaml) declares under
    ``shared:``; each one that is refused or missing is a diagnostic at its
    entry (the schema reports a value that is not a list of text)."""
    raw = doc.data.get(KEY) if isinstance(doc.data, dict) else None
    if not isinstance(raw, list):
        return ()
    found: dict[Path, None] = {}
    for index, written in enumerate(raw[:MAX_SHARED]):
        if not isinstance(written, str):
            continue
        folder, problem = _beside(game_dir, written)
        if folder is None:
            diagnostics.append(doc.error((KEY, index), f"{problem}; {_EXPECTED}"))
        else:
            found[folder] = None
    if len(raw) > MAX_SHARED:
        diagnostics.append(doc.error((KEY,), f"{len(raw)} shared folders; expected at most {MAX_SHARED}"))
    return tuple(found)


def _beside(game_dir: Path, written: str) -> tuple[Path | None, str]:
    """``written``'s real folder when it lies beside ``game_dir``, else why not."""
    if not written.strip() or written.startswith(("/", "\\", "~")) or ":" in written:
        return None, f"{written!r} is not a relative path"
    parent = game_dir.resolve().parent
    path = game_dir / written
    real = confined(path, [parent])
    if real is None or real.parent != parent:
        why = way_out(path, parent) or f"{written!r} does not lie directly beside {game_dir.name}/"
        return None, f"refused: {why}"
    if real == game_dir.resolve():
        return None, f"{written!r} is the game folder itself"
    if not real.is_dir():
        return None, f"no folder {written!r} beside {game_dir.name}/"
    return real, ""


def shared_folders_of(game_dir: Path) -> tuple[Path, ...]:
    """The shared folders a game folder declares, for watching its files;
    none when its game.yaml cannot be read (the build reports why)."""
    try:
        doc = load_yaml(game_dir / "game.yaml", within=game_dir)
    except InputError:
        return ()
    return shared_folders(doc, game_dir, [])

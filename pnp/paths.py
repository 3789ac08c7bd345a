"""Where pnp finds what a build may read besides the game folder.

Two places, looked in after the game folder and in this order:

- the *project*: a folder with a ``pnp.toml`` (:data:`MARKER`), whose
  ``templates/``, ``fonts/`` and ``art/`` the games under its ``card_data/``
  share. pnp finds it as MkDocs finds ``mkdocs.yml``: the current folder or
  the nearest folder above it that holds the marker; ``PNP_HOME`` names one
  outright; with neither, the checkout pnp itself runs from (its own games);
- pnp's *own resources*, inside the package (:data:`OWN`): the printing
  instructions' template and stylesheet, pnp's default font, and the font
  configuration that keeps the machine's fonts out of every build. An
  installed pnp (a wheel, not a checkout) outside any project has only these.

The project is found once, when pnp starts (a command runs in one folder;
the processes it forks inherit what it found).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
PRESETS = PACKAGE / "presets"
"""Sheet layouts, papers, sizes, print profiles and ICC profiles, as data."""
OWN = PACKAGE / "resources"
"""pnp's own resources: ``templates/pnp/``, ``fonts/ebgaramond/``, ``fontconfig.conf``."""


MARKER = "pnp.toml"
"""The file that marks a project's root folder; it may be empty."""


def project_of(folder: Path) -> Path | None:
    """``folder`` or the nearest folder above it holding the :data:`MARKER`."""
    return next((f for f in (folder, *folder.parents) if os.path.isfile(f / MARKER)), None)


def _checkout() -> Path | None:
    """The checkout pnp itself runs from (a project of its own), if it is one."""
    checkout = PACKAGE.parent
    return checkout if os.path.isfile(checkout / MARKER) else None


CHECKOUT = _checkout()
"""pnp's own checkout (None for an installed pnp): its games are pnp's own."""


def _home() -> tuple[Path, str]:
    """The project, and where it came from in words (said beside every game folder read)."""
    named = os.environ.get("PNP_HOME")
    if named:
        home = Path(named).resolve()
        return home, f"project {home} (PNP_HOME)"
    try:
        here = Path.cwd()
    except OSError:  # the current folder was deleted
        return _fallback("the current folder, which no longer exists")
    found = project_of(here)
    if found is not None:
        return found, f"project {found} (its {MARKER})"
    return _fallback(f"{here} or above it")


def _fallback(looked: str) -> tuple[Path, str]:
    if CHECKOUT is not None:
        return CHECKOUT, f"project {CHECKOUT} (pnp's own checkout: no {MARKER} in {looked})"
    return OWN, f"no project (no {MARKER} in {looked}): pnp's own resources only"


HOME, PROJECT = _home()
"""The project root (``templates/``, ``fonts/``, ``art/`` and ``card_data/``),
and in words which folder it is and how it was found."""

TEMPLATES = HOME / "templates"
FONTS = HOME / "fonts"
ART = HOME / "art"
CARD_DATA = HOME / "card_data"

SHARED = tuple(dict.fromkeys([HOME, OWN]))
"""Folders searched after the game folder, in order: the project, then pnp's own."""
RENDER_ROOTS = tuple(dict.fromkeys([TEMPLATES, FONTS, ART, OWN]))
"""What the renderer may read besides the game folder."""


def readable(game_root: Path, shared: Sequence[Path] = ()) -> tuple[Path, ...]:
    """What a game's renderer may read: its folder first, the folders it
    shares (``shared:`` in its game.yaml), then :data:`RENDER_ROOTS`."""
    return (game_root, *shared, *RENDER_ROOTS)


Root = Path | tuple[Path, str]
"""A folder a build may read from, or ``(folder, subfolder)``: a file inside
the subfolder that also lies inside the folder, both where they really are.
A game's ``templates/`` is ``(game, "templates")``, so a ``templates`` that is
a link out of the game folder widens nothing, and one to another folder of the
game is fine."""


def confined(path: Path, roots: Sequence[Root]) -> Path | None:
    """``path``'s real location (every link followed) when that lies inside
    one of ``roots`` (theirs too); None when it lies outside them all, or
    cannot be resolved. Every file a build reads is first passed through here,
    so a link never leads a game folder's reader out of it."""
    try:
        real = path.resolve()
        return real if any(_inside(real, root) for root in roots) else None
    except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL byte
        return None


def _inside(real: Path, root: Root) -> bool:
    if isinstance(root, tuple):
        folder, sub = root
        return real.is_relative_to(_real(folder)) and real.is_relative_to(_real(folder / sub))
    return real.is_relative_to(_real(root))


def way_out(path: Path, folder: Path) -> str | None:
    """How ``path`` (written under ``folder``) leads out of it, for a message:
    the first link on the way whose target lies outside (``templates is a
    link to /etc``), or a climb with ``..``; None when it does not (it stays
    inside, or cannot be followed: a loop of links). Nothing is opened."""
    top = _real(folder)
    here = top
    try:
        for part in path.relative_to(folder).parts:
            step = here / part
            if part == "..":
                here = here.parent
            elif step.is_symlink():
                here = step.resolve()
                if not here.is_relative_to(top):
                    return f"{step.relative_to(top).as_posix()} is a link to {here}, outside {folder.name}/"
            else:
                here = step
            if not here.is_relative_to(top):
                return f"the path climbs out of {folder.name}/ with '..'"
    except (OSError, RuntimeError, ValueError):
        pass
    return None


@lru_cache(maxsize=256)
def _real(root: Path) -> Path:
    """A root's real location: roots are few and looked up for every file."""
    return root.resolve()


def is_regular_file(path: Path) -> bool:
    """Whether ``path`` is a regular file; False for anything the system
    cannot even look up (a name too long, a NUL byte), never an exception."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False

"""What a build wrote, one type for a home build and every export."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.errors import Diagnostic
from pnp.model import Component, Game
from pnp.output.profiles import Profile

if TYPE_CHECKING:
    from pnp.preflight.report import Report


@dataclass(frozen=True)
class BuiltFile:
    path: Path
    profile: str
    paper: str | None = None
    """Home: the paper the file is imposed on; exports are not."""
    pages: int | None = None
    """PDFs: how many pages."""
    module: str | None = None
    """The optional module whose cards the file holds."""
    size: tuple[int, int] | None = None
    """Images: width and height in pixels."""


@dataclass(frozen=True)
class Built:
    """One game's build by one profile."""

    game: Game
    profile: Profile
    folder: Path
    """Where the files are: the game's output folder (home), or its ``<profile id>/`` folder (exports)."""
    files: tuple[BuiltFile, ...]
    manifest: Path
    """The JSON that lists what was written: ``manifest.json`` (home; ``manifest-reprint.json``
    for a reprint), ``index.json`` (print PDFs), ``cards.json`` (PNG faces), ``decks.json`` (tts)."""
    components: tuple[Component, ...] = ()
    """The components built (home: as the reprint chose their cards)."""
    warnings: tuple[Diagnostic, ...] = ()
    """Text that overflows its box, leaves the safe zone or lies over other
    text, by card and element; text and marks outside the printable area."""
    notes: tuple[str, ...] = ()
    """Exports: what had to be compromised on (a plain back made up, a lower resolution), each with why."""
    skipped: tuple[str, ...] = ()
    """Exports: components the profile cannot take, each with why."""
    reports: tuple[Report, ...] = ()
    """Print PDFs: each file's preflight report (:class:`pnp.preflight.Report`)."""
    faces: int = 0
    """Home: unique faces."""
    placed: int = 0
    """Home: faces placed per paper in the base game's file, backs included."""
    rendered: int = 0
    """Home: documents laid out by WeasyPrint in this build (the rest came from the cache)."""
    cached: int = 0
    faces_rendered: int = 0
    """Home: faces laid out in this build; the others came from the cache."""

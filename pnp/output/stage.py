"""One export of a game by its profile's kind: print-shop PDFs, PNG faces or
Tabletop Simulator sheets, with a typed result for the command to report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.errors import UsageError
from pnp.output.profiles import Profile, profile
from pnp.model import Component, Game

if TYPE_CHECKING:
    from pnp.preflight.report import Report


@dataclass(frozen=True)
class Exported:
    """What an export wrote into ``folder`` (``<out>/<profile id>/``)."""

    profile: Profile
    folder: Path
    files: tuple[dict[str, Any], ...]
    """Each file: its ``path`` under the game's output folder, and its ``pages`` (PDFs) or ``size`` (images)."""
    skipped: tuple[str, ...]
    """Components the profile cannot take, each with why."""
    reports: tuple[Report, ...] = ()
    """Print PDFs: each file's preflight report (:class:`pnp.preflight.Report`)."""
    warnings: tuple[str, ...] = ()
    """What the export had to compromise on (a plain back made up, a lower resolution), each with why."""


def export(
    game: Game, components: Sequence[Component], profile_name: str, out_dir: Path, force: bool = False, url_prefix: str | None = None
) -> Exported:
    """Export ``components`` of ``game`` by the profile named ``profile_name``
    into ``out_dir`` (the game's output folder). ``url_prefix``: where a TTS
    export's images will be hosted (else its saved object names local files)."""
    chosen = profile(profile_name)
    folder = out_dir / chosen.id
    if chosen.kind == "print-pdf":
        from pnp.output.printpdf import export_print_pdfs

        result = export_print_pdfs(game, components, chosen, out_dir, force)
        return Exported(chosen, folder, tuple(result.files), result.skipped, result.reports, result.warnings)
    if chosen.kind == "png-faces":
        from pnp.output.pngfaces import export_png_faces

        skipped: list[str] = []
        files = export_png_faces(game, components, chosen, out_dir, skipped)
        return Exported(chosen, folder, tuple(files), tuple(skipped))
    if chosen.kind == "tts":
        from pnp.output.tts import export_tts

        made = export_tts(game, components, chosen, out_dir, url_prefix)
        return Exported(chosen, folder, made.files, (), warnings=made.warnings)
    raise UsageError(f"--profile {profile_name}: profiles of kind {chosen.kind!r} are built without --profile")

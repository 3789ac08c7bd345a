"""What one build is asked to make: the profile (as data) and the command's
options, in one frozen value made once from `pnp build`'s options and passed
down unchanged to every game's build and every stage of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pnp.output.profiles import Profile, profile


def _home() -> Profile:
    return profile("home")


@dataclass(frozen=True)
class Request:
    """A build's options as given; where an option is left out, the profile
    decides (:attr:`stamp`, :attr:`offset`, :attr:`share_sheets`). Options of
    another kind of profile than the one chosen are ignored."""

    profile: Profile = field(default_factory=_home)
    """What to make: a home build or an export (``pnp/presets/profiles/``)."""
    only: tuple[str, ...] | None = None
    """Component ids to build; all when None (``--only``)."""
    strict: bool = False
    """Warnings (text overflowing, near a paper edge) are errors (``--strict``)."""
    force: bool = False
    """Write even what fails its printer's preflight (``--force``)."""
    gutterfold: bool = False
    """Home: each front beside its back on one landscape sheet, to fold."""
    ink_saver: bool = False
    """Home: light backgrounds, no full-bleed fills (each game's stylesheet decides)."""
    no_stamp: bool = False
    """Home: leave out the build stamp the profile prints on each card."""
    butted: bool = False
    """Home: cards edge to edge (each layout's ``butted`` alternative) instead of bleed between them."""
    back_offset: tuple[float, float] | None = None
    """Home: points every back sheet's content moves, x right and y up as the
    back page is seen; None: the profile's ``back_offset``."""
    separate_sheets: bool = False
    """Home: every component on sheets of its own, whatever the profile's ``share_sheets``."""
    shifted_backs: bool = False
    """Home: beside each duplex file, its sheets again with the backs moved by
    fixed offsets (:mod:`pnp.output.home.shifted`)."""
    changed_since: Path | None = None
    """Home: only the cards whose faces changed since this build (its folder or manifest.json)."""
    url_prefix: str | None = None
    """tts: the web address the images will be hosted under; None: the saved object names local files."""

    @property
    def stamp(self) -> bool:
        """Whether each card carries the build stamp: the profile says so, ``--no-stamp`` says not."""
        return self.profile.stamp and not self.no_stamp

    @property
    def offset(self) -> tuple[float, float]:
        """Home: how far every back sheet moves (points): as given, else the profile's."""
        return self.profile.back_offset if self.back_offset is None else self.back_offset

    @property
    def share_sheets(self) -> bool:
        """Home: components of one kind may share a sheet (:func:`pnp.output.home.plan.runs`)."""
        return self.profile.share_sheets and not self.separate_sheets

    @property
    def reprint(self) -> bool:
        """Home: only changed cards are printed again (``--changed-since``)."""
        return self.changed_since is not None

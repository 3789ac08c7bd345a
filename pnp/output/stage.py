"""The output stage: one game built by one profile, whatever it makes.

A home build and every export are this one stage: the profile (data, in
``pnp/presets/profiles/``) names its kind, the kind names the format that
writes it, and every format takes the same arguments and gives the same
result (:class:`pnp.output.result.Built`). The command's options come as one
:class:`pnp.output.request.Request`, made once for all the games of a command.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path

from pnp.errors import UsageError
from pnp.model import Component, Game
from pnp.output.parts import select
from pnp.output.request import Request
from pnp.output.result import Built

Format = Callable[[Game, Sequence[Component], Sequence[str], Path, Request], Built]
"""(game, its components chosen, papers, the game's output folder, request) -> what was written."""

FORMATS = {
    "home": "pnp.output.home.run:home", "print-pdf": "pnp.output.printpdf:print_pdfs",
    "png-faces": "pnp.output.pngfaces:png_faces", "tts": "pnp.output.tts:tts",
}
"""The format of each kind of profile (a profile's ``kind``): the module and
function that write it, loaded only when a build makes that kind."""


def format_of(kind: str) -> Format | None:
    """The format that writes profiles of ``kind``; None for an unknown kind."""
    if kind not in FORMATS:
        return None
    module, _, name = FORMATS[kind].partition(":")
    made: Format = getattr(importlib.import_module(module), name)
    return made


def build(game: Game, papers: Sequence[str], out_dir: Path, request: Request | None = None) -> Built:
    """Build ``game`` into ``out_dir`` (its own output folder) by ``request``
    (the home profile's defaults when None): the components ``--only`` names,
    in the format of the profile's kind. ``papers``: what a home build
    imposes on (an export's pages are its cards)."""
    request = Request() if request is None else request
    made = format_of(request.profile.kind)
    if made is None:
        raise UsageError(f"--profile {request.profile.id}: no format makes profiles of kind {request.profile.kind!r}")
    return made(game, select(game, request.only), papers, out_dir, request)

"""Layout findings as diagnostics at the card that first produced each face."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pnp.errors import Diagnostic, InputError, Level, Source
from pnp.model import Component
from pnp.render.faces import Face
from pnp.render.inspect import LayoutFinding


class LayoutProblem(InputError):
    """Text in a font or character the game did not declare; under --strict,
    also text that overflows its box, leaves a card's safe zone, lies over
    another element's text or meets art, and text or marks outside the paper's printable
    area (:mod:`pnp.output.home.printable`)."""


def layout_diagnostics(
    components: Sequence[Component], faces: Sequence[Face], findings: Mapping[str, Sequence[LayoutFinding]], strict: bool
) -> list[Diagnostic]:
    """Each finding as a diagnostic at the card that first produced the face:
    font findings are errors, the others warnings (errors when ``strict``,
    except ``fit``: text set at its minimum size, which fits)."""
    sources = {f"{c.id}/{card.id}": card.source for c in components for card in c.cards}
    out = []
    for face in faces:
        for finding in findings.get(face.key, ()):
            card = face.label.rsplit(" ", 1)[0]
            source = sources.get(card, Source(Path(face.component)))
            level = Level.ERROR if finding.kind == "font" or (strict and finding.kind != "fit") else Level.WARNING
            out.append(Diagnostic(source, "", f"{face.label}: {finding.element}: {finding.message}", level))
    return out


def document_diagnostics(documents: Sequence[tuple[str, Sequence[LayoutFinding]]], strict: bool) -> list[Diagnostic]:
    """Each (file name, findings) of a laid-out document as diagnostics at
    that file: warnings, errors when ``strict``."""
    level = Level.ERROR if strict else Level.WARNING
    return [Diagnostic(Source(Path(name)), "", f"page {f.page + 1}: {f.message}", level) for name, found in documents for f in found]


def raise_errors(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Raise :class:`LayoutProblem` with every diagnostic when any is an
    error; else return them (warnings)."""
    if any(d.level is Level.ERROR for d in diagnostics):
        raise LayoutProblem(list(diagnostics))
    return list(diagnostics)

"""Layout findings: what the checks after layout find on a page
(:mod:`pnp.render.inspect`, :mod:`pnp.render.keep`, :mod:`pnp.render.fit`),
and those findings as diagnostics at the card that first produced each face."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from pnp.errors import Diagnostic, InputError, Level, Source

if TYPE_CHECKING:  # annotations: the renderer, which reads this module, never loads faces (nor jinja2 with them)
    from pnp.model import Component
    from pnp.render.faces import Face


Kind = Literal["overflow", "safe-zone", "overlap", "font", "fit", "keep"]
KINDS: tuple[str, ...] = get_args(Kind)
"""Every kind of finding (what the render cache's index may hold)."""


@dataclass(frozen=True)
class LayoutFinding:
    """One problem on one laid-out page."""

    page: int
    """0-based page index in the rendered document."""
    kind: Kind
    """``overflow``: text does not fit its box (or the page), or was cut short by
    line-clamp. ``safe-zone``: text reaches outside the page's safe rectangle.
    ``overlap``: the element's text and another element's (named in the
    message) are drawn over each other, or art (an image or a painted box,
    named) is drawn over its text, or under it and past its edge.
    ``font``: text asks for a font family that is not declared, or holds a
    character no declared font has (always an error: see :mod:`pnp.render.fontcheck`).
    ``fit``: a shrink-to-fit element (:mod:`pnp.render.fit`) needed its minimum
    size (a warning even under ``--strict``: it fits).
    ``keep``: in a document (not a card), a heading left at the foot of a
    page with too little of its text (:mod:`pnp.render.keep`)."""
    element: str
    """The element, CSS-like: ``div.flavour``, ``p#title``; for an element with
    neither class nor id, prefixed by its nearest ancestor that has one
    (``div.rules p``). For an overflow of a box, the box; otherwise the text."""
    message: str
    """What is wrong and by how much, for example ``text overflows its box by
    3.2 mm (bottom edge)``."""


def safe_box(face: Face) -> tuple[float, float, float, float]:
    """``face``'s safe rectangle (x, y, width, height) in points from its page's top-left corner."""
    inset = face.bleed + face.safe
    return (inset, inset, face.trim_width - 2 * face.safe, face.trim_height - 2 * face.safe)


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

"""Where layouts run: in the renderer process started for this build
(:mod:`pnp.render.service`), if there is one, else in this process
(:func:`pnp.render.weasy.render_here`). Every stage that lays something out
asks here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pnp.errors import AssetError, Diagnostic, InputError

if TYPE_CHECKING:
    from pnp.render.inspect import LayoutFinding
    from pnp.render.scope import Scope
    from pnp.render.weasy import SafeBoxes


Result = tuple[bytes, "list[LayoutFinding]"]
"""A laid-out document's PDF bytes and its findings."""


class LayoutFailed(AssetError):
    """Documents of one batch that could not be laid out: every one's
    diagnostics, in the order the documents were asked for, and
    ``results``: per document, what it gave (a :data:`Result`) or its error,
    so a caller can keep what did lay out and report what did not together.
    A diagnostic several documents share (a font none can read) is listed once."""

    def __init__(self, diagnostics: Sequence[Diagnostic], results: Sequence[Result | InputError] = ()):
        super().__init__(list(dict.fromkeys(diagnostics)))
        self.results = tuple(results)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.diagnostics, self.results))


def render_many(
    jobs: Sequence[tuple[str, str, SafeBoxes | None]], scope: Scope, workers: int | None = None
) -> list[Result]:
    """Render several (html, what, safe boxes) documents, on every core when
    there are several; in the renderer started for this build, if there is one.
    Every document is laid out even when one fails; the input's faults in any
    of them are raised together as one :class:`LayoutFailed`."""
    from pnp.render.service import active

    renderer = active()
    if renderer is not None:
        return renderer.render_many(jobs, scope, workers)
    from pnp.render.weasy import render_here

    return render_here(jobs, scope, workers)


def render_pdf(html: str, scope: Scope, what: str) -> bytes:
    """Lay out ``html`` and return the PDF bytes. ``what`` names it in errors."""
    return render_many([(html, what, None)], scope)[0][0]

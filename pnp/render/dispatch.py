"""Where layouts run: in the renderer process started for this build
(:mod:`pnp.render.service`), if there is one, else in this process
(:func:`pnp.render.weasy.laid_out`). Every stage that lays something out
asks here.

The renderer and WeasyPrint are imported when something is laid out, not
when this module is: a command that lays nothing out never loads them.
What a layout gives back lives below both (:mod:`pnp.render.results`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from pnp.errors import InputError
from pnp.render.results import LayoutFailed, Result, gathered

if TYPE_CHECKING:
    from pnp.render.scope import Scope
    from pnp.render.weasy import SafeBoxes

__all__ = ["LayoutFailed", "Result", "render_each", "render_many", "render_pdf"]


def render_each(
    jobs: Sequence[tuple[str, str, SafeBoxes | None]], scope: Scope, workers: int | None = None
) -> Iterator[Result | InputError]:
    """Render several (html, what, safe boxes) documents, on every core when
    there are several; in the renderer started for this build, if there is one.
    Each document's result (or the input's fault in it) comes in order as
    soon as it is laid out, so a caller keeping them elsewhere (the render
    cache) never holds them all (16 MB of PDFs at 6,000 faces). Take them
    to the end: the renderer sends them whether read or not."""
    from pnp.render.service import active

    renderer = active()
    if renderer is not None:
        return renderer.render_each(jobs, scope, workers)
    from pnp.render.weasy import laid_out

    return laid_out(jobs, scope, workers)


def render_many(
    jobs: Sequence[tuple[str, str, SafeBoxes | None]], scope: Scope, workers: int | None = None
) -> list[Result]:
    """:func:`render_each`'s results together. Every document is laid out
    even when one fails; the input's faults in any of them are raised
    together as one :class:`LayoutFailed`."""
    return gathered(render_each(jobs, scope, workers))


def render_pdf(html: str, scope: Scope, what: str) -> bytes:
    """Lay out ``html`` and return the PDF bytes. ``what`` names it in errors."""
    return render_many([(html, what, None)], scope)[0][0]

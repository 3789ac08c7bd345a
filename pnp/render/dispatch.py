"""Where layouts run: in the renderer process started for this build
(:mod:`pnp.render.service`), if there is one, else in this process
(:func:`pnp.render.weasy.render_here`). Every stage that lays something out
asks here.

The renderer and WeasyPrint are imported when something is laid out, not
when this module is: a command that lays nothing out never loads them.
What a layout gives back lives below both (:mod:`pnp.render.results`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pnp.render.results import LayoutFailed, Result

if TYPE_CHECKING:
    from pnp.render.scope import Scope
    from pnp.render.weasy import SafeBoxes

__all__ = ["LayoutFailed", "Result", "render_many", "render_pdf"]


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

"""Page margin boxes made only for pages that have some.

WeasyPrint builds all sixteen margin boxes of every page (``@top-left`` to
``@bottom-right-corner``): it computes each one's style, makes a box,
resolves its percentages and sizes it, then keeps only those whose
``content`` generates a box. A face is a page with no margin box, so for a
card that is about a sixth of its layout, spent on boxes it throws away.

:func:`install` wraps WeasyPrint's ``make_margin_boxes`` (a monkeypatch, the
only way in: layout calls it by its module name) so that a page none of
whose margin boxes would be generated gets none at once, and any other page
goes the usual way. The test is WeasyPrint's own: a margin box is generated
when its computed ``content`` is not ``normal``, ``inhibit`` or ``none``; one
with no style of its own takes its page's anonymous style, whose ``content``
is ``normal``. So what is laid out, and every page's pixels, stay as they
were (tests/render/test_margins.py). Tied to the pinned WeasyPrint version
(70: ``weasyprint.layout.make_margin_boxes``, ``LayoutContext.style_for``)
like :mod:`pnp.render.artforms`; the tests compare with WeasyPrint's own
function, so a release that changes either fails them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType

MARGIN_BOXES = (
    "@top-left", "@top-center", "@top-right", "@bottom-left", "@bottom-center", "@bottom-right",
    "@left-top", "@left-middle", "@left-bottom", "@right-top", "@right-middle", "@right-bottom",
    "@top-left-corner", "@top-right-corner", "@bottom-left-corner", "@bottom-right-corner",
)
"""The sixteen margin boxes of a page."""
_EMPTY = ("normal", "inhibit", "none")
"""A margin box whose computed ``content`` is one of these is not generated."""


def install(weasyprint: ModuleType) -> None:
    """Route WeasyPrint's layout through :func:`_made_when_any` (once per process)."""
    module = weasyprint.layout
    if not getattr(module.make_margin_boxes, "pnp_wrapped", False):
        module.make_margin_boxes = _made_when_any(module.make_margin_boxes)


def _made_when_any(original: Callable[[object, object, object], Iterable[object]]) -> Callable[[object, object, object], Iterable[object]]:
    def make_margin_boxes(context: object, page: object, state: object) -> Iterable[object]:
        return original(context, page, state) if any_generated(context, page) else ()

    make_margin_boxes.pnp_wrapped = True  # type: ignore[attr-defined]
    return make_margin_boxes


def any_generated(context: object, page: object) -> bool:
    """Whether WeasyPrint would generate any margin box of ``page`` (a page
    box being laid out in layout ``context``)."""
    style_for = context.style_for  # type: ignore[attr-defined]
    page_type = page.page_type  # type: ignore[attr-defined]
    for keyword in MARGIN_BOXES:
        style = style_for(page_type, keyword)
        if style is not None and style["content"] not in _EMPTY:
            return True
    return False

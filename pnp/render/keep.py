"""After layout: headings left at the foot of a page, their text on the next.

A reader who turns the page to find a heading's text has lost the heading. In
a laid-out document (a rulebook, a reference sheet), the last heading on a
page must be followed there by at least :data:`KEEP_LINES` lines of its text,
unless its section ends on that page (the next page opens with a heading, or
there is no next page). CSS's ``break-after: avoid`` keeps a heading with the
first line of what follows, not with enough of it: this finds what it leaves.

Reads WeasyPrint's laid-out boxes, as :mod:`pnp.render.inspect` does (the
same version pin); lines are told apart by their position on the page, so a
list item's marker and its text are one line.
"""

from __future__ import annotations

from types import ModuleType
from typing import NamedTuple

from pnp.render.boxtree import Box, Document
from pnp.render.findings import LayoutFinding

KEEP_LINES = 3
"""Lines of a heading's text that must follow it on its page."""
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


class _Mark(NamedTuple):
    """A heading, or a line of text, in the order the page holds them."""

    tag: str | None
    """The heading's tag (``h2``); None for a line."""
    text: str
    """The heading's text; empty for a line."""
    top: int
    """Its top, in whole px from the page's top edge."""


def stranded_headings(document: Document) -> list[LayoutFinding]:
    """Each page's last heading that has fewer than :data:`KEEP_LINES` lines
    of its text below it on the page while its section goes on overleaf."""
    from weasyprint.formatting_structure import boxes

    pages = [_marks(page._page_box, boxes) for page in document.pages]
    found = []
    for index, marks in enumerate(pages[:-1]):
        heads = [k for k, mark in enumerate(marks) if mark.tag is not None]
        if not heads:
            continue
        after = marks[heads[-1] + 1 :]
        overleaf = pages[index + 1]
        if overleaf and overleaf[0].tag is not None:
            continue  # the section ends on this page
        lines = len({mark.top for mark in after})
        if lines < KEEP_LINES:
            tag, text = marks[heads[-1]].tag, marks[heads[-1]].text
            found.append(LayoutFinding(
                index, "keep", str(tag),
                f'{tag} "{text}" is left at the foot of the page with {_lines(lines)} of its text, the rest overleaf; '
                f"expected at least {KEEP_LINES} lines below it (keep it with its text, for example with break-inside: avoid "
                "on what follows it)",
            ))
    return found


def _lines(n: int) -> str:
    return "no line" if n == 0 else "1 line" if n == 1 else f"{n} lines"


def _marks(page_box: Box, boxes: ModuleType) -> list[_Mark]:
    """The page's headings and lines of text, top to bottom as the flow holds
    them; running heads and page numbers (the page's margin boxes) left out."""
    out: list[_Mark] = []

    def visit(box: Box) -> None:
        if isinstance(box, boxes.MarginBox):
            return
        if isinstance(box, boxes.LineBox):
            out.append(_Mark(None, "", round(box.position_y)))
            return
        if getattr(box, "element_tag", None) in HEADINGS and isinstance(box, boxes.BlockBox):
            text = " ".join("".join(t.text for t in box.descendants() if isinstance(t, boxes.TextBox)).split())
            out.append(_Mark(box.element_tag, text, round(box.position_y)))
            return
        for child in getattr(box, "children", ()):
            visit(child)

    visit(page_box)
    return out

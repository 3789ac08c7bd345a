"""Text that fits itself: an element marked ``data-fit-max="9pt"
data-fit-min="6pt"`` is set at the largest font size between the two at which
its text stays inside its box (which needs a set ``height`` or ``max-height``),
found to :data:`STEP_PT` by bisection over whole layouts of the document.

Every marked element of a document is fitted at once: each layout tries one
size for each element still open, so a run of faces costs a handful of
layouts, not a handful per face. This runs where the document is laid out
(in the render workers), before the page is written and inspected, so the
cache keeps the fitted page under the face's own key like any other. An
element set at its minimum is a ``fit`` finding; one that overflows even at its
minimum is left there and reported as an overflow by the usual inspection.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pnp.render.boxtree import Box, Document
from pnp.units import UnitError, parse_length

STEP_PT = 0.25
"""How close the chosen size is to the largest that fits."""
SLACK_PX = 0.25
"""Text may reach this far past its box and still count as fitting (rounding)."""
MARK = "data-pnp-fit"
_TAG = re.compile(r"<([a-zA-Z][\w-]*)(\s[^<>]*?\bdata-fit-(?:max|min)\s*=[^<>]*)>")
_ATTR = re.compile(r'\bdata-fit-(max|min)\s*=\s*"([^"]*)"')


class FitError(ValueError):
    """A marked element without both sizes, or with sizes that are no lengths."""


@dataclass
class _Element:
    largest: float
    smallest: float
    low: float
    """The largest size known to fit (the minimum until one is found)."""
    high: float | None = None
    """The smallest size known not to fit."""
    fits_low: bool = False

    def trial(self) -> float | None:
        """The next size to try, or None once settled."""
        if self.high is None:
            return self.largest  # first, the largest
        if not self.fits_low:
            return None if self.low == self.smallest and self.high == self.smallest else self.smallest
        if self.high - self.low <= STEP_PT:
            return None
        return round((self.low + self.high) / 2 / 0.01) * 0.01

    def learn(self, size: float, fits: bool) -> None:
        if fits:
            self.low, self.fits_low = size, True
            if size == self.largest:
                self.high = self.largest  # settled at the largest
        else:
            self.high = size
            if size == self.smallest:
                self.low, self.high = self.smallest, self.smallest

    @property
    def size(self) -> float:
        return self.low if self.fits_low else self.smallest


def mark(html: str) -> tuple[str, list[_Element]]:
    """``html`` with each marked element numbered (``data-pnp-fit="N"``), and its sizes."""
    elements: list[_Element] = []

    def number(match: re.Match[str]) -> str:
        sizes = dict(_ATTR.findall(match.group(2)))
        if set(sizes) != {"max", "min"}:
            raise FitError(f"<{match.group(1)}> needs both data-fit-max and data-fit-min (font sizes like 9pt and 6pt)")
        try:
            largest, smallest = parse_length(sizes["max"]), parse_length(sizes["min"])
        except UnitError as exc:
            raise FitError(f"<{match.group(1)}> data-fit: {exc}") from None
        if not 0 < smallest <= largest:
            raise FitError(f"<{match.group(1)}> data-fit-min {sizes['min']} must be above 0 and at most data-fit-max {sizes['max']}")
        elements.append(_Element(largest, smallest, smallest))
        return f'<{match.group(1)} {MARK}="{len(elements) - 1}"{match.group(2)}>'

    return _TAG.sub(number, html), elements


def _with_sizes(html: str, sizes: dict[int, float]) -> str:
    rules = "".join(f'[{MARK}="{i}"]{{font-size:{size:.2f}pt !important}}' for i, size in sorted(sizes.items()))
    style = f"<style>{rules}</style>"
    at = html.find("</head>")
    return html[:at] + style + html[at:] if at >= 0 else style + html


def fit_text(html: str, lay_out: Callable[[str], Document]) -> tuple[Document, list[tuple[int, str, str]]]:
    """Lay ``html`` out with every marked element at the largest size that fits.
    Returns the final layout and, per element set at its minimum, (page,
    element, message)."""
    if "data-fit-" not in html:
        return lay_out(html), []
    marked, elements = mark(html)
    if not elements:
        return lay_out(html), []
    while True:
        trials = {i: t for i, e in enumerate(elements) if (t := e.trial()) is not None}
        if not trials:
            break
        document = lay_out(_with_sizes(marked, {i: trials.get(i, e.size) for i, e in enumerate(elements)}))
        found = measure(document)
        for i, size in trials.items():
            fits, _, _ = found.get(i, (True, 0, ""))
            elements[i].learn(size, fits)
    final = {i: e.size for i, e in enumerate(elements)}
    document = lay_out(_with_sizes(marked, final))
    placed = measure(document)
    notes = []
    for i, e in enumerate(elements):
        fits, page, name = placed.get(i, (True, 0, f"[{MARK}={i}]"))
        if e.size == e.smallest and e.smallest < e.largest and fits:  # one that does not fit is an overflow finding
            notes.append((page, name, f"text set at its minimum {e.smallest:g} pt to fit its box (up to {e.largest:g} pt allowed)"))
    return document, notes


def measure(document: Document) -> dict[int, tuple[bool, int, str]]:
    """Per marked element: whether all its text lies inside its padding box,
    the page it is on, and its name (``p.rules``)."""
    out: dict[int, tuple[bool, int, str]] = {}
    for index, page in enumerate(document.pages):
        _walk(page._page_box, None, index, out)
    return out


def _walk(box: Box, within: tuple[int, tuple[float, float, float, float]] | None, page: int, out: dict[int, tuple[bool, int, str]]) -> None:
    element = getattr(box, "element", None)
    number = element.get(MARK) if element is not None and hasattr(element, "get") else None
    if element is not None and number is not None and (within is None or within[0] != int(number)) and hasattr(box, "padding_box_x"):
        edges = (box.padding_box_x(), box.padding_box_y(), box.padding_box_x() + box.padding_width(), box.padding_box_y() + box.padding_height())
        within = (int(number), edges)
        classes = ".".join((element.get("class") or "").split())
        out.setdefault(int(number), (True, page, f"{box.element_tag}{'.' + classes if classes else ''}"))
    if within is not None and hasattr(box, "text") and box.text.strip():
        left, top, right, bottom = within[1]
        x, y = box.content_box_x(), box.position_y
        if x + box.width > right + SLACK_PX or y + box.margin_height() > bottom + SLACK_PX or x < left - SLACK_PX or y < top - SLACK_PX:
            fits, at, name = out[within[0]]
            out[within[0]] = (False, at, name)
    for child in getattr(box, "children", ()):
        _walk(child, within, page, out)

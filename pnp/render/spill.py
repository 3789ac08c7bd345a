"""Text that runs past the bottom of its face's page, measured to its end.

WeasyPrint lays a face out on its page and drops what does not fit there: a
card whose list runs two steps too long shows the text down to the page's
edge, and the overflow measured from the laid-out boxes reaches only that
edge ("9.2 mm" with whole steps missing), or, when the last line that fits
ends inside the box, nothing at all. A page whose laid-out text is shorter
than its face's HTML text was cut so; those faces are laid out again on
pages :data:`TALL` times as tall (:func:`pnp.render.document.taller`, the
faces unchanged) and their overflow and safe-zone findings are taken from
there, measured against the real page, so the amount is the content's true
overflow. Only documents with such a page are laid out twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pnp.render.boxtree import Box, Document, Element
from pnp.render.document import taller
from pnp.render.findings import LayoutFinding
from pnp.render.inspect import inspect_layout
from pnp.words import count

TALL = 20
"""How many times as tall the measuring pages are."""
MEASURED = ("overflow", "safe-zone")
"""The findings whose amounts a cut page understates."""
_UNDRAWN = {"style", "script", "template", "svg", "math"}
"""Elements whose text is never laid out as text boxes."""


def measure_cut(
    document: Document, html: str, lay_out: Callable[[str], Document], safe_boxes: Sequence[tuple[float, float, float, float] | None],
    findings: list[LayoutFinding],
) -> list[LayoutFinding]:
    """``findings`` with the overflow and safe-zone findings of every cut page
    (see the module) measured to the content's end."""
    cut = {index for index, page in enumerate(document.pages) if _is_cut(page._page_box)}
    if not cut:
        return findings
    tall = lay_out(taller(html, TALL))
    if len(tall.pages) != len(document.pages):
        return findings  # not the same faces page for page: keep what was found
    sizes = [(page._page_box.margin_width(), page._page_box.margin_height()) for page in document.pages]
    again = inspect_layout(tall, safe_boxes, None, True, sizes)
    kept = [f for f in findings if f.page not in cut or f.kind not in MEASURED]
    return sorted(kept + [f for f in again if f.page in cut and f.kind in MEASURED], key=lambda f: f.page)


def _is_cut(page_box: Box) -> bool:
    """Whether the page lays out less text than the HTML of the face on it holds."""
    face = _face_box(page_box)
    return face is not None and face.element is not None and _laid_out(face) < _inner(face.element)


def _face_box(box: Box) -> Box | None:
    """The face's box on the page: its ``<section class="pnp-face">``."""
    element = box.element if getattr(box, "element_tag", None) == "section" else None
    if element is not None and "pnp-face" in (element.get("class") or "").split():
        return box
    for child in getattr(box, "children", ()):
        found = _face_box(child)
        if found is not None:
            return found
    return None


def _laid_out(box: Box) -> int:
    """Characters (not counting spaces) of the text boxes in ``box``."""
    text = getattr(box, "text", None)
    own = _count(text) if isinstance(text, str) else 0
    return own + sum(_laid_out(child) for child in getattr(box, "children", ()))


def _inner(element: Element) -> int:
    """Characters (not counting spaces) of the text inside ``element`` in the HTML, as text boxes would hold it."""
    tag = element.tag.rpartition("}")[2] if isinstance(element.tag, str) else ""
    if tag in _UNDRAWN or not isinstance(element.tag, str):  # a comment, or text never set as text boxes
        return 0
    return _count(element.text) + sum(_inner(child) + _count(child.tail) for child in element)


def _count(text: str | None) -> int:
    return len("".join((text or "").split()))


def face_of_each_page(document: Document) -> tuple[list[int], dict[int, int]]:
    """For each page of a document of faces, the 0-based number of the face
    (``section.pnp-face``) whose page it is; and per face whose content ran
    past its page, onto how many other pages. What ran past is cut from the
    pages it ran onto: the rest of a face in the flow fills pages of its own
    (which the caller drops), an absolutely placed box's rest would be drawn
    on the next face's page."""
    faces: dict[Element, str] = {}
    root = document.pages[0]._page_box.children[0].element if document.pages else None
    for section in root.iter("section") if root is not None else ():
        if face := section.get("data-face"):
            faces.update(dict.fromkeys(section.iter(), face))
    if not faces:  # not pnp's own document of faces: a page each
        return list(range(len(document.pages))), {}
    order: dict[str, int] = {}
    owner: list[int] = []
    spilled: dict[int, int] = {}
    for page in document.pages:
        shown = [(box, key) for box in _top_boxes(page._page_box) if box.element is not None and (key := faces.get(box.element)) is not None]
        new = [key for _, key in shown if key not in order]
        order.update((key, len(order)) for key in new)
        if new:  # the page of the face that starts on it; anything else on it ran on from the faces before
            own = order[new[0]]
            foreign = {box: key for box, key in shown if order[key] != own}
            _cut(page._page_box, set(foreign))
        else:  # the rest of the face before, on a page of its own
            own = owner[-1] if owner else 0
            foreign = dict(shown)
        for key in set(foreign.values()):
            spilled[order[key]] = spilled.get(order[key], 0) + 1
        owner.append(own)
    return owner, spilled


def _top_boxes(page_box: Box) -> list[Box]:
    """The boxes a page of faces holds at its top: each face's section (in
    the body), and any box placed outside it (an absolutely placed box that
    went on from the page before)."""
    out: list[Box] = []
    for box in page_box.children:
        for child in getattr(box, "children", ()):
            out += list(child.children) if getattr(child, "element_tag", None) == "body" else [child]
    return out


def _cut(page_box: Box, foreign: set[Box]) -> None:
    """Take the ``foreign`` boxes (of :func:`_top_boxes`) off the page."""
    if not foreign:
        return
    for box in page_box.children:
        box.children = [c for c in box.children if c not in foreign]
        for child in box.children:
            if getattr(child, "element_tag", None) == "body":
                child.children = [c for c in child.children if c not in foreign]


def spilled_findings(spilled: dict[int, int]) -> list[LayoutFinding]:
    """An overflow finding on each face that ran onto more pages than its own."""
    return [
        LayoutFinding(face, "overflow", "section.pnp-face", f"the face's content runs onto {count(more, 'more page')} (too much content, or a page break?); "
                      "expected it to fit on the card: only what lies on its own page is printed")
        for face, more in sorted(spilled.items())
    ]

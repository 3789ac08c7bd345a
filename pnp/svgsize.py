"""How many shapes an SVG draws once its ``<use>`` references are followed.

A 2 KB SVG can draw a billion shapes: ten ``<g>`` each using the one before
ten times. WeasyPrint would draw every one and never finish. Each SVG (an art
file, a ``data:`` URI, or an ``<svg>`` inside a template's HTML) is counted
here first, every ``<use>`` adding what it draws, and refused past
``MAX_DRAWN``. Files without ``<use>`` are not parsed at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.etree import ElementTree

from pnp.errors import ImageRefused

MAX_DRAWN = 200_000
"""Elements an SVG may draw, references followed: art for a card draws hundreds."""

_HREFS = ("{http://www.w3.org/1999/xlink}href", "href")


class SvgRefused(ImageRefused):
    """An SVG that would draw too much, or uses itself."""


def check_svg_data(data: bytes) -> None:
    """Raise :class:`SvgRefused` if the SVG markup in ``data`` draws too much.
    Markup that does not parse is left to the renderer, which reports it."""
    if b"<use" not in data:
        return
    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, ValueError):
        return
    check_drawn([root], root.iter())


def check_inline_svg(html: str) -> None:
    """Raise :class:`SvgRefused` if an ``<svg>`` in ``html`` draws too much."""
    if "<use" not in html.lower():
        return
    import tinyhtml5  # type: ignore[import-untyped]  # WeasyPrint's own HTML parser, so the tree is the one it draws

    root = tinyhtml5.parse(html)
    roots = [e for e in root.iter() if isinstance(e.tag, str) and _local(e.tag) == "svg"]
    check_drawn(roots, root.iter())


def check_drawn(roots: Iterable[ElementTree.Element], everything: Iterable[ElementTree.Element]) -> None:
    """Count what each of ``roots`` draws; ``everything`` holds the elements a ``#id`` may name."""
    ids = {e.get("id"): e for e in everything if e.get("id")}
    sizes: dict[int, int] = {}
    open_: set[int] = set()

    def drawn(element: ElementTree.Element) -> int:
        key = id(element)
        if key in sizes:
            return sizes[key]
        if key in open_:
            raise SvgRefused("an SVG element uses itself (a <use> that refers to its own group)")
        open_.add(key)
        total = 1 + sum(drawn(child) for child in element)
        if isinstance(element.tag, str) and _local(element.tag) == "use":
            href = next((element.get(name) for name in _HREFS if element.get(name)), "") or ""
            target = ids.get(href[1:]) if href.startswith("#") else None
            if target is not None:
                total += drawn(target)
        open_.discard(key)
        if total > MAX_DRAWN:
            raise SvgRefused(f"an SVG draws more than {MAX_DRAWN:,} elements once its <use> references are followed; expected simpler art")
        sizes[key] = total
        return total

    try:
        for root in roots:
            drawn(root)
    except RecursionError:
        raise SvgRefused("SVG elements nest too deeply to draw") from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]

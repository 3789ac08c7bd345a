"""What a rendered card's markup may not hold, found while its template and
card are still known: a file or address the renderer would refuse, and
elements nested too deeply to lay out.

The renderer refuses both anyway (:mod:`pnp.render.weasy`), but by then a
page holds many cards and no template line; found here, each is told at the
template line that wrote it (:func:`pnp.render.templating.render`). The
addresses are judged by the renderer's own resolver
(:func:`pnp.render.references.allowed_file`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urljoin, urlparse

from pnp.render.references import Missing, Refused, allowed_file

MAX_NESTING = 100
"""Elements one inside another in a card's markup. WeasyPrint lays out
about 150 nested blocks before Python's recursion limit; real cards nest
a dozen or two."""

_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)([^>]*)>")
_FETCHED = re.compile(r"(?<![\w:.-])(?:src|href|xlink:href|data)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+))")
_CSS_URL = re.compile(r"url\(\s*(['\"]?)([^'\")]*)\1\s*\)")
_NOT_FETCHED = frozenset({"a", "area"})
"""Elements whose ``href`` is a link to follow, never read."""
_NO_CONTENT = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_OPTIONAL_END = frozenset({"p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "thead", "tbody", "tfoot", "colgroup", "rt", "rp"})
"""Elements HTML may close without an end tag: never counted as nesting."""
_UNCOUNTED = _NO_CONTENT | _OPTIONAL_END


def first_problem(markup: str, roots: Sequence[Path], judged: dict[str, str | None]) -> tuple[int, str] | None:
    """Where in ``markup`` (a character offset) the first problem lies, and
    what it is; None when there is none. ``roots``: the folders the renderer
    may read, the game's first (relative addresses are the game folder's);
    ``judged``: each address's verdict so far (cards repeat the same few)."""
    depth = 0
    for tag in _TAG.finditer(markup):
        closing, name, attributes = tag.group(1), tag.group(2).lower(), tag.group(3)
        if closing:
            if name not in _UNCOUNTED and depth:
                depth -= 1
            continue
        if name not in _UNCOUNTED and not attributes.rstrip().endswith("/"):
            depth += 1
            if depth > MAX_NESTING:
                return tag.start(), f"elements nest more than {MAX_NESTING} deep; expected a flatter card (a template that repeats itself?)"
        for offset, address in _addresses(markup, tag, name):
            refused = _judge(address, roots, judged)
            if refused:
                return offset, refused
    return None


def _addresses(markup: str, tag: re.Match[str], name: str) -> list[tuple[int, str]]:
    """The addresses an element names that the renderer would read, each
    with its offset: its ``src``, ``href`` (but a link's), ``data``, the
    ``url()`` in its style attribute and, for a ``<style>``, in its text."""
    attributes, start = tag.group(3), tag.start(3)
    found = []
    if name not in _NOT_FETCHED and ("src" in attributes or "href" in attributes or "data" in attributes):
        for match in _FETCHED.finditer(attributes):
            group = next(g for g in (1, 2, 3) if match.group(g) is not None)
            found.append((start + match.start(group), match.group(group)))
    if name == "style":
        end = markup.find("</style", tag.end())
        attributes, start = markup[tag.end() : end if end >= 0 else len(markup)], tag.end()
    if "url(" in attributes:
        found += [(start + match.start(2), match.group(2)) for match in _CSS_URL.finditer(attributes)]
    return found


def _judge(written: str, roots: Sequence[Path], judged: dict[str, str | None]) -> str | None:
    """Why the renderer would refuse the address, or None (a missing file is
    the renderer's to report, where a page draws it)."""
    if written not in judged:
        address = html.unescape(written).strip()
        verdict = None
        if address and not address.startswith("#") and urlparse(address).scheme != "data":
            try:
                allowed_file(urljoin(roots[0].as_uri() + "/", address), roots)
            except Missing:
                pass
            except Refused as exc:
                verdict = f"refused to read {exc}"
        judged[written] = verdict
    return judged[written]

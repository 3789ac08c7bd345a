"""Elements whose ``style`` attributes say the same share one computed style.

WeasyPrint computes an element's style once for every set of elements that
would compute alike: those with the same parent style, the same matching
rules and the same style-attribute declarations share one computed style
(``StyleFor.__init__``), whose values are then worked out once, on first
use, however many boxes read them. But it tells declarations apart by the
parsed objects, and it parses each element's ``style`` attribute anew, so
two elements with the same ``style="..."`` never share: every card of a run
computes its own styles for the same template (about 1,000 values a face).

:func:`install` wraps WeasyPrint's ``find_style_attributes`` (a monkeypatch,
the only way in: ``StyleFor`` calls it by its module name) so that, within a
document, every element whose ``style`` attribute is the same text (with the
same base URL) is given the declarations parsed for the first one: the same
declarations, parsed from the same text. Elements that share then are
exactly those WeasyPrint shares when neither has a style attribute; what
each computes, and every page's bytes, stay as they were
(tests/render/test_attributes.py). An element's other declarations
(``lang``, ``id``, presentational hints) are parsed as before, each its own,
so an element with one still shares nothing. Layout reads a shared style
and copies it before changing it for one box (a footnote, a note, a grid or
flex item), as it must for the styles it shares itself.

Tied to the pinned WeasyPrint version (70:
``weasyprint.css.find_style_attributes``) like :mod:`pnp.render.margins`;
the tests compare with WeasyPrint's own function, so a release that changes
it fails them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType

Found = tuple[tuple[int, int, int], object, list[object], "str | None"]
"""What ``find_style_attributes`` yields: (specificity, element, declarations, base URL)."""
STYLE_ATTRIBUTE = (1, 0, 0)
"""The specificity WeasyPrint gives a ``style`` attribute's declarations (and nothing else)."""


def install(weasyprint: ModuleType) -> None:
    """Route WeasyPrint's cascade through :func:`_shared` (once per process)."""
    module = weasyprint.css
    if not getattr(module.find_style_attributes, "pnp_wrapped", False):
        module.find_style_attributes = _shared(module.find_style_attributes)


def _shared(original: Callable[..., Iterator[Found]]) -> Callable[..., Iterator[Found]]:
    def find_style_attributes(tree: object, presentational_hints: bool = False, base_url: str | None = None) -> Iterator[Found]:
        parsed: dict[tuple[str, str | None], list[object]] = {}
        """Each style attribute's text (and base URL) in this document, with its declarations as parsed first."""
        for specificity, element, declarations, url in original(tree, presentational_hints, base_url):
            if specificity == STYLE_ATTRIBUTE:
                declarations = parsed.setdefault((element.get("style"), url), declarations)  # type: ignore[attr-defined]
            yield specificity, element, declarations, url

    find_style_attributes.pnp_wrapped = True  # type: ignore[attr-defined]
    find_style_attributes.__wrapped__ = original  # type: ignore[attr-defined]
    return find_style_attributes

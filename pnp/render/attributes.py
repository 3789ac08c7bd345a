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
document, every element whose ``style`` attribute is the same text is given
the declarations parsed for the first one (one document has one base URL):
the same declarations, parsed from the same text, and parsed once. The
function parses each attribute with ``tinycss2.parse_blocks_contents``, read
from the module's globals, so ``weasyprint.css`` sees ``tinycss2`` through
:class:`_Parser`, which answers a text parsed before while the wrapper
runs, and passes everything else through. A parse is a value of the text
alone (the base URL is applied after, per element), and nothing WeasyPrint
does with declarations changes them (elements of one document share them
already), so the parses are kept for the next documents too, the
:data:`KEPT` texts used last (each run of faces repeats its template's
attributes: about 0.6 % of the instructions laying out a deck in runs of
four). Elements that share then are exactly those WeasyPrint shares when neither has a style
attribute; what each computes, and every page's bytes, stay as they were
(tests/render/test_attributes.py). An element's other declarations
(``lang``, ``id``, presentational hints) are parsed as before, each its own,
so an element with one still shares nothing. Layout reads a shared style
and copies it before changing it for one box (a footnote, a note, a grid or
flex item), as it must for the styles it shares itself.

Tied to the pinned WeasyPrint version (70:
``weasyprint.css.find_style_attributes`` and its ``tinycss2``) like :mod:`pnp.render.margins`;
the tests compare with WeasyPrint's own function, so a release that changes
it fails them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from types import ModuleType

Found = tuple[tuple[int, int, int], object, list[object], "str | None"]
"""What ``find_style_attributes`` yields: (specificity, element, declarations, base URL)."""

KEPT = 2048
"""How many style attributes' parses the process keeps, the least recently used dropped first."""


def install(weasyprint: ModuleType) -> None:
    """Route WeasyPrint's cascade through :func:`_shared` (once per process)."""
    module = weasyprint.css
    if not getattr(module.find_style_attributes, "pnp_wrapped", False):
        parser = module.tinycss2 if isinstance(module.tinycss2, _Parser) else _Parser(module.tinycss2)  # one, whatever a test put back
        module.tinycss2 = parser
        module.find_style_attributes = _shared(module.find_style_attributes, parser)


class _Parser:
    """``tinycss2`` as ``weasyprint.css`` sees it: the same module, but while
    :func:`_shared` finds a document's style attributes (``active``), a
    text ``parse_blocks_contents`` parsed before is given its first parse."""

    def __init__(self, tinycss2: ModuleType) -> None:
        self._tinycss2 = tinycss2
        self.active = False
        self.memo: OrderedDict[str, list[object]] = OrderedDict()
        """Each style attribute's text, with its declarations as parsed first."""

    def __getattr__(self, name: str) -> object:
        return getattr(self._tinycss2, name)

    def parse_blocks_contents(self, text: object, *options: object, **named: object) -> list[object]:
        if not self.active or options or named or not isinstance(text, str):
            parsed: list[object] = self._tinycss2.parse_blocks_contents(text, *options, **named)
            return parsed
        memo = self.memo
        if text in memo:
            memo.move_to_end(text)
            return memo[text]
        parsed = memo[text] = self._tinycss2.parse_blocks_contents(text)
        while len(memo) > KEPT:
            memo.popitem(last=False)
        return parsed


def _shared(original: Callable[..., Iterator[Found]], parser: _Parser) -> Callable[..., Iterator[Found]]:
    def find_style_attributes(tree: object, presentational_hints: bool = False, base_url: str | None = None) -> Iterator[Found]:
        parser.active = True
        try:
            yield from original(tree, presentational_hints, base_url)
        finally:
            parser.active = False

    find_style_attributes.pnp_wrapped = True  # type: ignore[attr-defined]
    find_style_attributes.__wrapped__ = original  # type: ignore[attr-defined]
    return find_style_attributes

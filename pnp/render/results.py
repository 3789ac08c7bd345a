"""What a layout gives back, wherever it ran (:mod:`pnp.render.dispatch`):
a document's PDF bytes and findings, or the failure of a batch. Below the
renderer process and WeasyPrint both, so neither imports the other's caller."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pnp.errors import AssetError, Diagnostic, InputError

if TYPE_CHECKING:
    from pnp.render.findings import LayoutFinding


Result = tuple[bytes, "list[LayoutFinding]"]
"""A laid-out document's PDF bytes and its findings."""


class LayoutFailed(AssetError):
    """Documents of one batch that could not be laid out: every one's
    diagnostics, in the order the documents were asked for, and
    ``results``: per document, what it gave (a :data:`Result`) or its error,
    so a caller can keep what did lay out and report what did not together.
    A diagnostic several documents share (a font none can read) is listed once."""

    def __init__(self, diagnostics: Sequence[Diagnostic], results: Sequence[Result | InputError] = ()):
        super().__init__(list(dict.fromkeys(diagnostics)))
        self.results = tuple(results)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.diagnostics, self.results))


def gathered(laid: Iterable[Result | InputError]) -> list[Result]:
    """Every document's result, in order; or, when the input failed in any
    of them, one :class:`LayoutFailed` with all their faults."""
    results = list(laid)
    failed = [result for result in results if isinstance(result, InputError)]
    if failed:
        raise LayoutFailed([d for error in failed for d in error.diagnostics], results)
    return [result for result in results if not isinstance(result, InputError)]

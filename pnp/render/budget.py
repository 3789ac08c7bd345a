"""One budget for the work a template may do when it renders one card or document.

Jinja's sandbox bounds each ``range()`` at 100,000 items, but not a loop
inside a loop: ``{% for a in range(99999) %}{% for b in range(99999) %}`` is
10^10 turns and never ends. Every ``{% for %}`` in a template is compiled
with its iterable wrapped in :func:`counted`, ``range()`` and ``*`` charge
the items they make, and the whole render stops with a template error (at
the template line doing the work) once ``STEPS`` are spent. Real templates
spend a few thousand at most.

Rendering happens in one thread of one process at a time (workers are
forked), so the budget is a module-level counter reset by :func:`start`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from typing import TypeVar

from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.sandbox import safe_range

STEPS = 2_000_000
"""Loop turns plus items made by ``range()`` plus characters made by ``*``
(a hundredth each) that one render may spend."""

MAX_OUTPUT = 5_000_000
"""Characters one render may write: a card's HTML is a few kilobytes."""

_spent = 0
T = TypeVar("T")


class BudgetSpent(SecurityError):
    """A template did more work than any card needs."""


def start() -> None:
    """A new render: the whole budget is available again."""
    global _spent
    _spent = 0


def charge(steps: int) -> None:
    global _spent
    _spent += steps
    if _spent > STEPS:
        raise BudgetSpent(
            f"the template did more than {STEPS:,} steps of work (loop turns and items made) for one render; "
            "expected far fewer (a loop inside a loop over a large range?)"
        )


def counted(iterable: Iterable[T]) -> Iterator[T]:
    """``iterable``'s items, one step each."""
    for item in iterable:
        charge(1)
        yield item


def budget_range(*args: int) -> range:
    """The sandbox's ``range()``, charged for the items it makes."""
    made: range = safe_range(*args)
    charge(len(made))
    return made


def charge_made(value: T) -> T:
    """``value`` (the result of ``*``), charged a step per hundred items."""
    if isinstance(value, (str, bytes, list, tuple)):
        charge(len(value) // 100)
    return value


COUNTED = f"{__name__}.counted"


def count_loops(template: nodes.Template) -> nodes.Template:
    """``template`` with every ``{% for %}`` iterating through :func:`counted`."""
    for loop in template.find_all(nodes.For):
        loop.iter = nodes.Call(nodes.ImportedName(COUNTED), [loop.iter], [], None, None, lineno=loop.iter.lineno)
    return template


def check_output(chunks: Generator[str, None, None]) -> str:
    """The rendered text, refused once it passes ``MAX_OUTPUT`` characters.
    The error is thrown into the template where it wrote the text too many,
    so it names that template line."""
    out: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_OUTPUT:
            chunks.throw(BudgetSpent(f"the template wrote more than {MAX_OUTPUT:,} characters for one render; expected a card's worth"))
        out.append(chunk)
    return "".join(out)

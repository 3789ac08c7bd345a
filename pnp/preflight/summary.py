"""What the content walk collects: findings with the path of forms and patterns to them,
raster images drawn with their matrices, the fonts used, and the per-object memo that lets
a shared form, pattern, font or image be read once."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from pnp.preflight.values import Linear, Matrix, linear


@dataclass(frozen=True)
class Finding:
    """Something found in a content stream, and the path of forms and patterns to it."""

    what: str
    where: tuple[str, ...] = ()

    def within(self, step: str) -> Finding:
        return Finding(self.what, (step, *self.where))

    def __str__(self) -> str:
        return f"{self.what} (in {' > '.join(self.where)})" if self.where else self.what


@dataclass(frozen=True)
class Draw:
    """A raster image drawn: its pixels and the linear part of its matrix to the base space."""

    name: str
    where: tuple[str, ...]
    width: int
    height: int
    linear: Linear

    def placed(self, step: str | None, ctm: Matrix) -> Draw:
        where = (step, *self.where) if step else self.where
        return Draw(self.name, where, self.width, self.height, linear(self.linear, ctm))


@dataclass(frozen=True)
class Summary:
    """What one content stream draws, with its forms, patterns and glyphs, relative to its caller."""

    colour: tuple[Finding, ...] = ()
    unembedded: tuple[Finding, ...] = ()
    fonts: frozenset[Hashable] = frozenset()
    draws: tuple[Draw, ...] = ()
    errors: tuple[Finding, ...] = ()


@dataclass
class Acc:
    """A summary under construction; dicts keep first-seen order and drop repeats."""

    colour: dict[Finding, None] = field(default_factory=dict)
    unembedded: dict[Finding, None] = field(default_factory=dict)
    fonts: set[Hashable] = field(default_factory=set)
    draws: dict[Draw, None] = field(default_factory=dict)
    errors: dict[Finding, None] = field(default_factory=dict)

    def merge(self, other: Summary, step: str | None, ctm: Matrix, draws: bool = True) -> None:
        def at(f: Finding) -> Finding:
            return f.within(step) if step else f

        self.colour.update((at(f), None) for f in other.colour)
        self.unembedded.update((at(f), None) for f in other.unembedded)
        self.errors.update((at(f), None) for f in other.errors)
        self.fonts |= other.fonts
        if draws:
            self.draws.update((d.placed(step, ctm), None) for d in other.draws)

    def freeze(self) -> Summary:
        return Summary(tuple(self.colour), tuple(self.unembedded), frozenset(self.fonts), tuple(self.draws), tuple(self.errors))


@dataclass
class Memo:
    """Results per PDF object, so each shared form, pattern, font or image is read once."""

    summaries: dict[Hashable, Summary] = field(default_factory=dict)
    images: dict[Hashable, str | None] = field(default_factory=dict)
    active: set[Hashable] = field(default_factory=set)


def memoised(memo: Memo, key: Hashable, make: Callable[[], Summary]) -> Summary:
    """The summary of ``key``, made once; a form that draws itself gets an empty one."""
    if key in memo.summaries:
        return memo.summaries[key]
    if key in memo.active:  # a form that draws itself: PDF forbids it, so draw nothing more
        return Summary()
    memo.active.add(key)
    try:
        summary = memo.summaries[key] = make()
    finally:
        memo.active.discard(key)
    return summary

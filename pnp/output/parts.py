"""What a build prints: the components chosen (``--only``), split between the
base game and each optional module (a home build's files, an export's parts),
every part with a back where an export needs one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pnp.errors import UsageError
from pnp.model import Component, Game, Module


def select(game: Game, only: Sequence[str] | None) -> tuple[Component, ...]:
    """The components ``only`` names (``--only``), in the game's order; all when none."""
    if not only:
        return game.components
    known = {c.id for c in game.components}
    unknown = [c for c in only if c not in known]
    if unknown:
        raise UsageError(f"--only: unknown component {', '.join(map(repr, unknown))}; expected some of {', '.join(sorted(known))}")
    return tuple(c for c in game.components if c.id in only)


@dataclass(frozen=True)
class Book:
    """One home-print file: the base game, or an optional module."""

    module: Module | None
    components: tuple[Component, ...]

    def stem(self, game: Game) -> str:
        return game.folder_name if self.module is None else f"{game.folder_name}-{self.module.id}"


def books(game: Game, components: Sequence[Component]) -> list[Book]:
    """Split the components' cards between the base game and its modules."""

    def part(module: Module | None) -> tuple[Component, ...]:
        out = []
        for c in components:
            if module is None:
                cards = tuple(card for card in c.cards if not any(m.holds(card) for m in game.modules))
            else:
                cards = tuple(card for card in c.cards if module.holds(card))
            if cards:
                out.append(replace(c, cards=cards))
        return tuple(out)

    found = [Book(None, part(None))] + [Book(m, part(m)) for m in game.modules]
    return [b for b in found if b.components]


BLANK_BACK = "pnp/blank-back.html"
"""pnp's own template of the plain back a one-sided component is given."""


@dataclass(frozen=True)
class Part:
    """One deck or set of pieces an export writes: a component's base cards,
    or the cards of one of its optional modules."""

    component: Component
    module: Module | None = None

    @property
    def id(self) -> str:
        """The part's name in file names: ``traits``, or ``shadows-traits`` for a module's."""
        return self.component.id if self.module is None else f"{self.module.id}-{self.component.id}"

    @property
    def name(self) -> str:
        return self.component.name if self.module is None else f"{self.component.name} ({self.module.name}, optional)"


def split_modules(game: Game, components: Sequence[Component]) -> list[Part]:
    """The base game's cards of each component, then each module's, never mixed:
    a module's cards go in a part of their own, after the base parts. A
    component that prints nothing (cards kept as data, every one ``copies: 0``)
    is no part: a shop has nothing to print from it."""
    return [Part(component, book.module) for book in books(game, components) for component in book.components if component.copies]


def with_backs(parts: Sequence[Part]) -> tuple[list[Part], list[str]]:
    """Every part with a back: a one-sided component gets a plain back in its
    ``blank_back`` colour (paper white when none is declared). Returns the parts
    and a note for each component that declares no ``blank_back``: a declared
    one says the plain back is meant, so nothing needs saying."""
    out: list[Part] = []
    notes: list[str] = []
    for part in parts:
        component = part.component
        if component.back is None:
            if component.blank_back is None:
                notes.append(f"{part.id}: one-sided and no blank_back declared, so each card is given a plain paper-white back (declare blank_back to choose its colour)")
            component = replace(component, back=BLANK_BACK)
        out.append(replace(part, component=component))
    return out, notes

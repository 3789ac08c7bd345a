"""What an export sends: each component of the base game, and each optional
module's cards as a part of its own, every one with a back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pnp.model import Component, Game, Module

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
    from pnp.home.plan import books

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

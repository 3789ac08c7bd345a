"""Planning a home build: which components and cards, split into books (the
base game and each optional module), their faces, and the sheets they go on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, InputError, UsageError
from pnp.home.pages import page_ranges
from pnp.imposition.geometry import Grid, LayoutError, Sheet, grid, gutterfold_grid, impose, impose_gutterfold
from pnp.loading.presets import load_papers
from pnp.model import Component, Document, Game, Module, Paper, SheetLayout
from pnp.render.faces import Face, FacePlan, plan_faces

PROFILE = "home"


def select(game: Game, only: Sequence[str] | None) -> tuple[Component, ...]:
    if not only:
        return game.components
    known = {c.id for c in game.components}
    unknown = [c for c in only if c not in known]
    if unknown:
        raise UsageError(f"--only: unknown component {', '.join(map(repr, unknown))}; expected some of {', '.join(sorted(known))}")
    return tuple(c for c in game.components if c.id in only)



def sheets_for(
    game: Game,
    components: Sequence[Component],
    plan: FacePlan,
    paper: Paper,
    gutterfold: bool = False,
) -> dict[str, tuple[Sheet, ...]]:
    """Every component's sheets on ``paper``: fronts each followed by their
    backs, or (``gutterfold``) fronts and backs side by side on one sheet."""
    layouts = game.layouts
    out: dict[str, tuple[Sheet, ...]] = {}
    problems = []
    for component in components:
        two_sided = any(back is not None for _, back in plan.copies[component.id])
        sheet_layout = layouts[component.layout_for(paper.id)]
        try:
            if gutterfold and two_sided and sheet_layout.labels is None:
                layout: Grid = gutterfold_grid(sheet_layout, paper, component.size.width, component.size.height)
                out[component.id] = impose_gutterfold(component.id, plan.copies[component.id], layout, component.bleed)
                continue
            layout = grid(sheet_layout, paper, component.size.width, component.size.height)
        except LayoutError as exc:
            problems.append(Diagnostic(component.source, f"components.{component.id}.layout", str(exc)))
            continue
        out[component.id] = impose(component.id, plan.copies[component.id], layout, component.bleed)
    if problems:
        raise InputError(problems)
    return out



def document_file(game: Game, document: Document, paper: str) -> str:
    return f"{game.folder_name}-{document.id}-{paper}.pdf"



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



@dataclass(frozen=True)
class BuildOptions:
    """How a home build is made (``pnp build`` without ``--profile``)."""

    papers: tuple[str, ...]
    only: tuple[str, ...] | None = None
    """Component ids to build; all when None."""
    gutterfold: bool = False
    ink_saver: bool = False
    use_cache: bool = True
    reprint: Mapping[str, frozenset[str]] | None = None
    """Only these cards (by component), each with its usual copies: ``--changed-since``."""
    stamp: bool = True
    strict: bool = False

    @property
    def variant(self) -> str:
        """The part of each file name that says how it was made."""
        return PROFILE + ("-gutterfold" if self.gutterfold else "") + ("-inksaver" if self.ink_saver else "") + (
            "-reprint" if self.reprint is not None else ""
        )



@dataclass(frozen=True)
class HomePlan:
    """What a home build will print: its books (the base game and each
    module), their faces and their sheets per paper."""

    components: tuple[Component, ...]
    split: tuple[Book, ...]
    plans: tuple[FacePlan, ...]
    faces: tuple[Face, ...]
    styles: tuple[Path, ...]
    sheets: Mapping[tuple[int, str], dict[str, tuple[Sheet, ...]]]
    parts: Mapping[tuple[int, str], list[dict[str, Any]]]
    documents: tuple[Document, ...]
    layouts: Mapping[str, SheetLayout]
    papers: Mapping[str, Paper]

    def others(self, game: Game, index: int, paper: str, variant: str) -> list[dict[str, str]]:
        """The other files of the build, for book ``index``'s instructions."""
        listed = [{"name": d.name, "file": document_file(game, d, paper), "stock": d.stock} for d in self.documents]
        if index == 0:
            listed += [
                {"name": f"{b.module.name} (optional)", "file": f"{b.stem(game)}-{variant}-{paper}.pdf", "stock": "card stock"}
                for b in self.split[1:]
                if b.module is not None
            ]
        return listed



def plan_home(game: Game, options: BuildOptions) -> HomePlan:
    """Stages 2 and 3: the faces of the chosen components, and the sheets they go on."""
    components = select(game, options.only)
    if options.reprint is not None:
        reprint = options.reprint
        components = tuple(
            replace(c, cards=tuple(card for card in c.cards if card.id in reprint.get(c.id, frozenset())))
            for c in components
            if reprint.get(c.id)
        )
        if not components:
            raise UsageError("--changed-since: no card changed since that build; nothing to reprint")
    known_papers = load_papers()
    layouts = game.layouts
    split = books(game, components)
    plans = [plan_faces(game, book.components, options.ink_saver, options.stamp) for book in split]
    sheets = {
        (i, p): sheets_for(game, book.components, plans[i], known_papers[p], options.gutterfold)
        for i, book in enumerate(split) for p in options.papers
    }
    return HomePlan(
        tuple(components), tuple(split), tuple(plans), tuple({f.key: f for plan in plans for f in plan.faces}.values()),
        tuple(s for c in components for s in c.styles), sheets,
        {key: page_ranges(value, split[key[0]].components, 2, layouts) for key, value in sheets.items()},
        game.documents if not options.only and options.reprint is None else (), layouts, known_papers,
    )

"""Planning a home build: which components and cards, split into books (the
base game and each optional module), their faces, and the sheets they go on."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pnp.errors import Diagnostic, InputError, Level, UsageError
from pnp.imposition.booklet import imposed_file
from pnp.imposition.cutmarks import CutMarks, Registration, cut_grid, registration, too_big
from pnp.imposition.geometry import Grid, LayoutError, Sheet, grid, gutterfold_grid, impose_gutterfold, impose_shared
from pnp.loading.presets import load_papers
from pnp.model import Component, Document, Game, Paper, SheetLayout
from pnp.output.boxes import boxes_file
from pnp.output.home.manifest import changed_cards
from pnp.output.home.pages import PartRow, page_ranges
from pnp.output.parts import Book, books
from pnp.output.request import Request
from pnp.render.faces import Face, FacePlan, plan_faces


def sheets_for(
    game: Game,
    components: Sequence[Component],
    plan: FacePlan,
    paper: Paper,
    gutterfold: bool = False,
    butted: bool = False,
    back_offset: tuple[float, float] = (0.0, 0.0),
    share: bool = False,
    cut: CutMarks | None = None,
) -> dict[str, tuple[Sheet, ...]]:
    """Every component's sheets on ``paper``, in the order they print:
    fronts each followed by their backs (moved by ``back_offset``), or
    (``gutterfold``) fronts and backs side by side on one sheet. ``butted``:
    each layout's butted alternative. ``share``: components of one kind may
    share a sheet (:func:`runs`), which is then listed under each of them.
    ``cut``: print-and-cut, every front sheet carrying the machine's
    registration marks and its pieces inside the area it reads
    (:func:`pnp.imposition.cutmarks.cut_grid`), but a component too big for
    that area laid out as at home, to cut by hand (:func:`hand_cut`), and
    labels where the label sheet has them (it comes cut)."""
    layouts = game.layouts
    grids: dict[str, Grid] = {}
    folded: dict[str, tuple[Sheet, ...]] = {}
    problems = []
    for component in components:
        sheet_layout = layouts[component.layout_for(paper.id)]
        if butted and sheet_layout.butted is not None:
            sheet_layout = layouts[sheet_layout.butted]
        try:
            if gutterfold and _two_sided(plan, component) and sheet_layout.labels is None:
                layout = gutterfold_grid(sheet_layout, paper, component.size.width, component.size.height)
                folded[component.id] = impose_gutterfold(component.id, plan.copies[component.id], layout, component.bleed)
            elif cut is not None and sheet_layout.labels is None:
                grids[component.id] = _cut_or_hand(sheet_layout, paper, registration(cut, paper), component)
            else:
                grids[component.id] = grid(sheet_layout, paper, component.size.width, component.size.height)
        except LayoutError as exc:
            problems.append(Diagnostic(component.source, f"components.{component.id}.layout", str(exc)))
    if problems:
        raise InputError(problems)
    out: dict[str, tuple[Sheet, ...]] = {}
    for run in runs(components, plan, grids, share):
        if run[0].id in folded:
            out[run[0].id] = folded[run[0].id]
            continue
        held = impose_shared([(c.id, plan.copies[c.id], c.bleed) for c in run], grids[run[0].id], back_offset)
        out.update(zip((c.id for c in run), held))
    return out


def _cut_or_hand(layout: SheetLayout, paper: Paper, marks: Registration, component: Component) -> Grid:
    """Print-and-cut: the machine's grid of ``component``'s pieces, or the
    home grid (crop marks, cut by hand) when they are too big for its area."""
    try:
        return cut_grid(layout, paper, marks, component.size.width, component.size.height)
    except LayoutError:
        return grid(layout, paper, component.size.width, component.size.height)


def hand_cut(plan: HomePlan, cut: CutMarks) -> list[Diagnostic]:
    """Print-and-cut: a warning for each component, on each paper, whose
    pieces are too big for the machine's area and so are printed with crop
    marks, to cut by hand, and get no cut file (:func:`_cut_or_hand`; page
    1's ``by_hand``, :func:`pnp.output.home.pages.page_ranges`)."""
    named = {c.id: c for c in plan.components}
    found: dict[tuple[str, str], Diagnostic] = {}
    for (_, paper_id), parts in plan.parts.items():
        paper = plan.papers[paper_id]
        for c in (named[part["id"]] for part in parts if part["by_hand"]):
            why = too_big(registration(cut, paper), paper, c.size.width, c.size.height)
            found[(c.id, paper_id)] = Diagnostic(
                c.source, f"components.{c.id}.layout", f"{why}: printed with crop marks to cut by hand, with no cut file", Level.WARNING,
            )
    return list(found.values())


def runs(components: Sequence[Component], plan: FacePlan, grids: Mapping[str, Grid], share: bool) -> list[list[Component]]:
    """The components in the order they print, in runs imposed one after
    another on the same sheets. Alone unless ``share``: then a component
    starts in the free slots of the last sheet of the latest run of its kind
    (the same stock, grid (layout, paper and size) and sidedness), moving up
    to print right after it, when that saves it a sheet."""
    out: list[list[Component]] = []
    latest: dict[tuple[str, Grid, bool], list[Component]] = {}
    for component in components:
        g = grids.get(component.id)
        if g is None or not share:
            out.append([component])
            continue
        key = (component.stock, g, _two_sided(plan, component))
        run = latest.get(key)
        count = len(plan.copies[component.id])
        if run is not None:
            free = -sum(len(plan.copies[c.id]) for c in run) % g.per_sheet
            if math.ceil(max(0, count - free) / g.per_sheet) < math.ceil(count / g.per_sheet):
                run.append(component)
                continue
        out.append([component])
        latest[key] = out[-1]
    return out


def _two_sided(plan: FacePlan, component: Component) -> bool:
    return any(back is not None for _, back in plan.copies[component.id])



def document_file(game: Game, document: Document, paper: str) -> str:
    return f"{game.folder_name}-{document.id}-{paper}.pdf"



def variant(request: Request) -> str:
    """The part of each file name that says how it was made: ``home``, ``home-gutterfold-inksaver`` ..."""
    return request.profile.id + ("-gutterfold" if request.gutterfold else "") + ("-butted" if request.butted else "") + (
        "-inksaver" if request.ink_saver else ""
    ) + ("-reprint" if request.reprint else "")


def whole(request: Request) -> bool:
    """The build makes the whole game, so the files beside its cards (tuck boxes) too."""
    return not request.only and not request.reprint



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
    parts: Mapping[tuple[int, str], list[PartRow]]
    documents: tuple[Document, ...]
    layouts: Mapping[str, SheetLayout]
    papers: Mapping[str, Paper]
    """Every paper pnp knows, by id."""
    chosen: tuple[str, ...]
    """The papers the build imposes on, in order."""

    def others(self, game: Game, index: int, paper: str, variant: str, boxes: bool = False) -> list[dict[str, str]]:
        """The other files of the build, for book ``index``'s instructions;
        ``boxes``: the build writes the game's tuck boxes too."""
        listed = [
            {"name": d.name, "file": document_file(game, d, paper), "stock": d.stock, "how": "as it says",
             "booklet": imposed_file(document_file(game, d, paper), paper, "booklet") if d.booklet else ""}
            for d in self.documents
        ]
        if index == 0:
            listed += [
                {"name": f"{b.module.name} (optional)", "file": f"{b.stem(game)}-{variant}-{paper}.pdf", "stock": "card stock",
                 "how": "as it says", "booklet": ""}
                for b in self.split[1:]
                if b.module is not None
            ]
        if index == 0 and boxes and game.boxes:
            listed.append({
                "name": " and ".join(box.name for box in game.boxes), "file": boxes_file(game, paper), "stock": "card stock",
                "how": "one-sided; cut the solid line, score and fold the dashed lines, glue the flaps", "booklet": "",
            })
        return listed



def plan_home(game: Game, components: Sequence[Component], papers: Sequence[str], request: Request) -> HomePlan:
    """Stages 2 and 3: the faces of ``components`` (of a reprint, their changed
    cards), and the sheets they go on for each of ``papers``."""
    if request.profile.cut is not None and request.gutterfold:
        raise UsageError(f"--gutterfold: the {request.profile.id} profile cuts each sheet from its front; print it duplex")
    if request.changed_since is not None:
        reprint = changed_cards(game, components, request.changed_since)
        components = tuple(
            replace(c, cards=tuple(card for card in c.cards if card.id in reprint.get(c.id, set())))
            for c in components
            if reprint.get(c.id)
        )
        if not components:
            raise UsageError("--changed-since: no card changed since that build; nothing to reprint")
    known_papers = load_papers()
    layouts = game.layouts
    split = books(game, components)
    plans = [plan_faces(game, book.components, request.ink_saver, request.stamp, request.strict) for book in split]
    sheets = {
        (i, p): sheets_for(
            game, book.components, plans[i], known_papers[p], request.gutterfold, request.butted, request.offset,
            request.share_sheets, request.profile.cut,
        )
        for i, book in enumerate(split) for p in papers
    }
    return HomePlan(
        tuple(components), tuple(split), tuple(plans), tuple({f.key: f for plan in plans for f in plan.faces}.values()),
        tuple(s for c in components for s in c.styles), sheets,
        {key: page_ranges(value, split[key[0]].components, 2, layouts) for key, value in sheets.items()},
        game.documents if not request.only and not request.reprint else (), layouts, known_papers, tuple(papers),
    )

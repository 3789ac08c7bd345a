"""The home build: load -> plan faces -> impose -> render -> place -> write.

Each stage is a plain function; this module only strings them together and
writes the results (atomically) with a manifest.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pikepdf

from pnp.commit import Outputs, claimed
from pnp.errors import Diagnostic, InputError, Level, Source, UsageError
from pnp.imposition.geometry import (
    Grid,
    LayoutError,
    Sheet,
    grid,
    gutterfold_grid,
    impose,
    impose_gutterfold,
)
from pnp.loading.presets import load_papers
from pnp.model import Component, Document, Game, Module, Paper, SheetLayout
from pnp.paths import OWN
from pnp.pdf.place import ImposedFile, write_imposed
from pnp.render.cache import RenderCache
from pnp.render.layout import FacePages, render_build
from pnp.render.document import faces_html, pages_html
from pnp.render.faces import Face, FacePlan, base_context, document_context, plan_faces
from pnp.render.findings import layout_diagnostics, raise_errors
from pnp.render.inspect import safe_box
from pnp.render.scope import scope_for
from pnp.render.templating import environment, render
from pnp.render.dispatch import render_pdf
from pnp.units import css, to_mm

PROFILE = "home"
CALIBRATION_MM = 50
INSTRUCTIONS = "pnp/instructions.html"
INSTRUCTIONS_CSS = OWN / "templates" / "pnp" / "instructions.css"


@dataclass(frozen=True)
class BuiltFile:
    path: Path
    profile: str
    paper: str
    pages: int
    module: str | None = None


@dataclass(frozen=True)
class BuildResult:
    game: Game
    components: tuple[Component, ...]
    files: tuple[BuiltFile, ...]
    faces: int
    placed: int
    manifest: Path
    rendered: int = 0
    """Documents laid out by WeasyPrint in this build (the rest came from the cache)."""
    cached: int = 0
    faces_rendered: int = 0
    """Faces laid out in this build; the others came from the cache."""
    warnings: tuple[Diagnostic, ...] = ()
    """Text that overflows its box or leaves the safe zone, by card and element."""


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


def _page_ranges(
    sheets: dict[str, tuple[Sheet, ...]], components: Sequence[Component], first: int, layouts: Mapping[str, SheetLayout]
) -> list[dict[str, Any]]:
    parts = []
    page = first
    for component in components:
        count = len(sheets[component.id])
        if count == 0:
            continue
        pages = f"{page}" if count == 1 else f"{page}\u2013{page + count - 1}"
        two_sided = any(s.side == "back" for s in sheets[component.id])
        folded = any(s.side == "gutterfold" for s in sheets[component.id])
        round_items = any(s.guides for s in sheets[component.id])
        parts.append(
            {
                "id": component.id,
                "name": component.name,
                "pages": pages,
                "first": page,
                "last": page + count - 1,
                "copies": component.copies,
                "stock": _stock(component, layouts, sheets[component.id][0].paper.id),
                "sides": "one-sided, then fold" if folded else "two-sided, long edge" if two_sided else "one-sided",
                "round": round_items,
                "width_mm": round(to_mm(component.size.width), 1),
                "width_in": round(component.size.width / 72, 3),
            }
        )
        page += count
    return parts


def _stock(component: Component, layouts: Mapping[str, SheetLayout], paper: str) -> str:
    """What to print a component on; a label product is named."""
    layout = layouts.get(component.layout_for(paper))
    if layout is not None and layout.labels is not None:
        return f"{component.stock}: {layout.labels.product}"
    return component.stock


def _document_file(game: Game, document: Document, paper: str) -> str:
    return f"{game.folder_name}-{document.id}-{paper}.pdf"


def instructions_html(
    game: Game,
    paper: Paper,
    parts: list[dict[str, Any]],
    front_pages: int,
    module: Module | None = None,
    others: list[dict[str, str]] | None = None,
    gutterfold: bool = False,
) -> str:
    """The printing-instructions page(s) of one file on one paper."""
    context = {
        "gutterfold": gutterfold,
        **base_context(game),
        "paper": {"id": paper.id, "name": paper.name},
        "parts": parts,
        "module": {"name": module.name, "description": module.description or ""} if module else None,
        "documents": others or [],
        "front_pages": "1" if front_pages == 1 else f"1\u2013{front_pages}",
        "square_mm": CALIBRATION_MM,
    }
    body = render(environment(game.root), INSTRUCTIONS, context, "the printing instructions")
    return pages_html(game, _page_css(paper, "15mm") + body, [INSTRUCTIONS_CSS])


def _page_css(paper: Paper, margin: str) -> str:
    return f"<style>@page {{ size: {css(paper.width)} {css(paper.height)}; margin: {margin}; }}</style>"


def document_html(game: Game, document: Document, paper: Paper) -> str:
    """A rulebook or other document, laid out on ``paper``."""
    context = {**document_context(game), "paper": {"id": paper.id, "name": paper.name}}
    body = render(environment(game.root), document.template, context, f"document {document.id}")
    return pages_html(game, _page_css(paper, "18mm") + body, list(document.styles))


def _count_pages(data: bytes) -> int:
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)


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


def _merged(plans: Sequence[FacePlan]) -> FacePlan:
    """One plan for every book together, for the manifest."""
    copies: dict[str, tuple[tuple[str, str | None], ...]] = {}
    cards: dict[str, tuple[tuple[str, str, str | None], ...]] = {}
    for plan in plans:
        for cid, pairs in plan.copies.items():
            copies[cid] = copies.get(cid, ()) + pairs
        for cid, rows in plan.cards.items():
            cards[cid] = cards.get(cid, ()) + rows
    faces = tuple({f.key: f for plan in plans for f in plan.faces}.values())
    content = {k: v for plan in plans for k, v in plan.content.items()}
    return FacePlan(faces, copies, cards, content)


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


def build(
    game: Game,
    papers: Sequence[str],
    out_dir: Path,
    only: Sequence[str] | None = None,
    gutterfold: bool = False,
    ink_saver: bool = False,
    use_cache: bool = True,
    reprint: dict[str, set[str]] | None = None,
    stamp: bool = True,
    strict: bool = False,
) -> BuildResult:
    """Build the home-print PDFs of ``game`` (and of its modules) for each paper.

    ``gutterfold`` puts each front beside its back on one sheet, to fold, for
    printers without duplex. ``stamp`` prints the build stamp on every card.
    Text that overflows or leaves a card's safe zone is a warning in the
    result, or (``strict``) an error raised before anything is written.
    ``out_dir`` is held for this build alone while it runs."""
    options = BuildOptions(
        tuple(papers), tuple(only) if only is not None else None, gutterfold, ink_saver, use_cache,
        None if reprint is None else {k: frozenset(v) for k, v in reprint.items()}, stamp, strict,
    )
    with claimed(out_dir):
        plan = plan_home(game, options)
        rendered = render_home(game, plan, options, out_dir)
        return write_home(game, plan, rendered, options, out_dir)


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
        listed = [{"name": d.name, "file": _document_file(game, d, paper), "stock": d.stock} for d in self.documents]
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
        {key: _page_ranges(value, split[key[0]].components, 2, layouts) for key, value in sheets.items()},
        game.documents if not options.only and options.reprint is None else (), layouts, known_papers,
    )


@dataclass(frozen=True)
class Rendered:
    """Stage 4's results: every face's page, each file's instructions, each document."""

    faces: FacePages
    front: dict[tuple[int, str], bytes]
    documents: tuple[bytes, ...]
    problems: tuple[Diagnostic, ...]
    cache: RenderCache


def render_home(game: Game, plan: HomePlan, options: BuildOptions, out_dir: Path) -> Rendered:
    """Stage 4: faces from the cache or laid out now, with every file's
    instructions (assumed one page long) and documents, on every core."""
    cache = RenderCache(out_dir / ".cache" / "render" if options.use_cache else None)
    keys = list(plan.sheets)
    jobs = [
        (instructions_html(game, plan.papers[p], plan.parts[(i, p)], 1, plan.split[i].module,
                           plan.others(game, i, p, options.variant), options.gutterfold), "printing instructions")
        for i, p in keys
    ]
    jobs += [(document_html(game, d, plan.papers[p]), f"document {d.id}") for p in options.papers for d in plan.documents]
    styles = list(plan.styles)
    face_pdfs, findings, rendered = render_build(
        plan.faces, lambda chunk: faces_html(game, chunk, styles), safe_box, jobs, scope_for(game), cache
    )
    problems = raise_errors(layout_diagnostics(plan.components, plan.faces, findings, options.strict))
    if cache.damaged:
        problems.append(Diagnostic(
            Source(out_dir / ".cache" / "render"), "",
            f"the render cache held {cache.damaged} damaged page(s) or entries; they were dropped and laid out again",
            Level.WARNING,
        ))
    return Rendered(face_pdfs, dict(zip(keys, rendered[: len(keys)])), tuple(rendered[len(keys) :]), tuple(problems), cache)


def write_home(game: Game, plan: HomePlan, rendered: Rendered, options: BuildOptions, out_dir: Path) -> BuildResult:
    """Stages 5 and 6: impose and write every file with the manifest, committed in one step."""
    files: list[BuiltFile] = []
    placed = 0
    found: dict[str, dict[str, Any]] = {}
    """Where each face is first drawn (file, page, box): for `pnp diff`."""
    with Outputs(out_dir) as outputs:
        imposed: list[ImposedFile] = []
        for (index, paper_id), book_sheets in plan.sheets.items():
            book = plan.split[index]
            front, count = _front_matter(game, plan, rendered, options, (index, paper_id))
            ordered = [s for c in book.components for s in book_sheets[c.id]]
            if index == 0:
                placed = sum(len(s.placements) for s in ordered)
            paper = plan.papers[paper_id]
            title = f"{game.title}: {book.module.name if book.module else 'print-and-play'} ({paper.name})"
            target = out_dir / f"{book.stem(game)}-{options.variant}-{paper_id}.pdf"
            imposed.append((front, ordered, title, outputs.stage(target)))
            _note_places(found, ordered, target.name, count + 1)
            files.append(BuiltFile(target, PROFILE, paper_id, count + len(ordered), book.module.id if book.module else None))
        write_imposed(rendered.faces, imposed, os.cpu_count() or 1)
        documents = iter(rendered.documents)
        for paper_id in options.papers:
            for document in plan.documents:
                pdf = pikepdf.open(io.BytesIO(next(documents)))
                pdf.docinfo = pdf.make_indirect(pikepdf.Dictionary(Title=f"{game.title}: {document.name}", Creator="pnp"))
                target = out_dir / _document_file(game, document, paper_id)
                outputs.pdf(pdf, target)
                files.append(BuiltFile(target, PROFILE, paper_id, len(pdf.pages)))
        # A reprint keeps the full build's manifest as it was (a baseline for the next diff).
        manifest = out_dir / ("manifest-reprint.json" if options.reprint is not None else "manifest.json")
        data = manifest_data(game, plan.components, _merged(plan.plans), files, out_dir, found) | {"ink_saver": options.ink_saver}
        outputs.data(json.dumps(data, indent=2).encode() + b"\n", manifest)
        outputs.commit()
    cache = rendered.cache
    return BuildResult(
        game, plan.components, tuple(files), len(plan.faces), placed, manifest,
        cache.misses, cache.hits, cache.face_misses, rendered.problems,
    )


def _front_matter(game: Game, plan: HomePlan, rendered: Rendered, options: BuildOptions, key: tuple[int, str]) -> tuple[bytes, int]:
    """A file's instructions and their page count: laid out again, with the
    sheets numbered after them, when they did not fit on one page."""
    index, paper_id = key
    front = rendered.front[key]
    count = _count_pages(front)
    if count != 1:
        book = plan.split[index]
        parts = _page_ranges(plan.sheets[key], book.components, count + 1, plan.layouts)
        html = instructions_html(
            game, plan.papers[paper_id], parts, count, book.module, plan.others(game, index, paper_id, options.variant), options.gutterfold
        )
        front = render_pdf(html, scope_for(game), "printing instructions")
        count = _count_pages(front)
    return front, count


def _note_places(found: dict[str, dict[str, Any]], ordered: Sequence[Sheet], file: str, first_page: int) -> None:
    """Where each face is first drawn: file, page and box (for `pnp diff`)."""
    for number, sheet in enumerate(ordered, start=first_page):
        for placement in sheet.placements:
            r = placement.clip
            found.setdefault(placement.face, {"file": file, "page": number, "box": [round(v, 3) for v in (r.x, r.y, r.width, r.height)]})


def manifest_data(
    game: Game,
    components: Sequence[Component],
    plan: FacePlan,
    files: Sequence[BuiltFile],
    out_dir: Path,
    found: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    found = found or {}
    return {
        "game": game.id,
        "name": game.title,
        "version": game.version,
        "files": [
            {"path": f.path.relative_to(out_dir).as_posix(), "profile": f.profile, "paper": f.paper, "pages": f.pages}
            | ({"module": f.module} if f.module else {})
            for f in files
        ],
        "components": [
            {
                "id": c.id,
                "name": c.name,
                "copies": c.copies,
                "faces": len({k for pair in plan.copies.get(c.id, ()) for k in pair if k is not None}),
                "cards": [
                    {"id": card_id, "front": plan.content_key(front), "back": plan.content_key(back)}
                    | ({"at": found[front]} if front in found else {})
                    for card_id, front, back in plan.cards.get(c.id, ())
                ],
            }
            for c in components
        ],
    }

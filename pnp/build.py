"""The home build: load -> plan faces -> impose -> render -> place -> write.

Each stage is a plain function; this module only strings them together and
writes the results (atomically) with a manifest.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pikepdf

from pnp.errors import Diagnostic, InputError, UsageError
from pnp.imposition.geometry import Grid, LayoutError, Sheet, grid, impose
from pnp.imposition.layouts import Paper, load_layouts, load_papers
from pnp.model import Component, Document, Game
from pnp.paths import ART, FONTS, TEMPLATES
from pnp.pdf.place import Outputs, impose_pdf, remove_stale
from pnp.render.document import faces_html, pages_html
from pnp.render.faces import FacePlan, base_context, document_context, plan_faces
from pnp.render.templating import environment, render
from pnp.render.weasy import render_pdf, render_pdfs
from pnp.units import css, to_mm

PROFILE = "home"
CALIBRATION_MM = 50
INSTRUCTIONS = "pnp/instructions.html"
INSTRUCTIONS_CSS = TEMPLATES / "pnp" / "instructions.css"


@dataclass(frozen=True)
class BuiltFile:
    path: Path
    profile: str
    paper: str
    pages: int


@dataclass(frozen=True)
class BuildResult:
    game: Game
    components: tuple[Component, ...]
    files: tuple[BuiltFile, ...]
    faces: int
    placed: int
    manifest: Path


def select(game: Game, only: Sequence[str] | None) -> tuple[Component, ...]:
    if not only:
        return game.components
    known = {c.id for c in game.components}
    unknown = [c for c in only if c not in known]
    if unknown:
        raise UsageError(f"--only: unknown component {', '.join(map(repr, unknown))}; expected some of {', '.join(sorted(known))}")
    return tuple(c for c in game.components if c.id in only)


def sheets_for(game: Game, components: Sequence[Component], plan: FacePlan, paper: Paper) -> dict[str, tuple[Sheet, ...]]:
    """Every component's sheets on ``paper``, fronts each followed by their backs."""
    layouts = load_layouts(game.root)
    out: dict[str, tuple[Sheet, ...]] = {}
    problems = []
    for component in components:
        try:
            layout: Grid = grid(layouts[component.layout_for(paper.id)], paper, component.size.width, component.size.height)
        except LayoutError as exc:
            problems.append(Diagnostic(component.source, f"components.{component.id}.layout", str(exc)))
            continue
        out[component.id] = impose(component.id, plan.copies[component.id], layout, component.bleed)
    if problems:
        raise InputError(problems)
    return out


def _page_ranges(sheets: dict[str, tuple[Sheet, ...]], components: Sequence[Component], first: int) -> list[dict[str, Any]]:
    parts = []
    page = first
    for component in components:
        count = len(sheets[component.id])
        if count == 0:
            continue
        pages = f"{page}" if count == 1 else f"{page}\u2013{page + count - 1}"
        two_sided = any(s.side == "back" for s in sheets[component.id])
        round_items = any(s.guides for s in sheets[component.id])
        parts.append(
            {
                "id": component.id,
                "name": component.name,
                "pages": pages,
                "first": page,
                "last": page + count - 1,
                "copies": component.copies,
                "stock": component.stock,
                "sides": "two-sided, long edge" if two_sided else "one-sided",
                "round": round_items,
                "width_mm": round(to_mm(component.size.width), 1),
                "width_in": round(component.size.width / 72, 3),
            }
        )
        page += count
    return parts


def _document_file(game: Game, document: Document, paper: str) -> str:
    return f"{game.folder_name}-{document.id}-{paper}.pdf"


def instructions_html(game: Game, paper: Paper, parts: list[dict[str, Any]], front_pages: int) -> str:
    """The printing-instructions page(s) for one paper."""
    context = {
        **base_context(game),
        "paper": {"id": paper.id, "name": paper.name},
        "parts": parts,
        "documents": [
            {"name": d.name, "file": _document_file(game, d, paper.id), "stock": d.stock} for d in game.documents
        ],
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


def _roots(game: Game) -> list[Path]:
    return [game.root, TEMPLATES, FONTS, ART]


def _chunks(items: Sequence[Any], count: int) -> list[Sequence[Any]]:
    size = -(-len(items) // count) if items else 1
    return [items[i : i + size] for i in range(0, len(items), size)]


def build(game: Game, papers: Sequence[str], out_dir: Path, only: Sequence[str] | None = None) -> BuildResult:
    """Build the home-print PDFs of ``game`` for each paper into ``out_dir``."""
    components = select(game, only)
    known_papers = load_papers()
    plan = plan_faces(game, components)
    styles = [s for c in components for s in c.styles]
    per_paper = {p: sheets_for(game, components, plan, known_papers[p]) for p in papers}
    parts = {p: _page_ranges(sheets, components, 2) for p, sheets in per_paper.items()}

    # Faces in as many chunks as there are cores, plus each paper's instructions
    # (assumed one page long), rendered side by side.
    workers = max(1, min(os.cpu_count() or 1, len(plan.faces) // 16))
    chunks = _chunks(plan.faces, workers)
    jobs = [(faces_html(game, chunk, styles), "card faces") for chunk in chunks]
    jobs += [(instructions_html(game, known_papers[p], parts[p], 1), "printing instructions") for p in papers]
    documents = game.documents if not only else ()
    jobs += [(document_html(game, d, known_papers[p]), f"document {d.id}") for p in papers for d in documents]
    rendered = render_pdfs(jobs, _roots(game))
    face_pdfs = [(data, [f.key for f in chunk]) for data, chunk in zip(rendered, chunks)]
    front = dict(zip(papers, rendered[len(chunks) : len(chunks) + len(papers)]))
    document_pdfs = iter(rendered[len(chunks) + len(papers) :])

    files = []
    placed = 0
    remove_stale(out_dir)
    with Outputs() as outputs:
        for paper_id, sheets in per_paper.items():
            paper = known_papers[paper_id]
            count = _count_pages(front[paper_id])
            if count != 1:  # a long instructions page: number the sheets after it
                parts[paper_id] = _page_ranges(sheets, components, count + 1)
                html = instructions_html(game, paper, parts[paper_id], count)
                front[paper_id] = render_pdf(html, _roots(game), "printing instructions")
            ordered = [s for c in components for s in sheets[c.id]]
            placed = sum(len(s.placements) for s in ordered)
            pdf = impose_pdf(face_pdfs, front[paper_id], ordered, f"{game.title}: print-and-play ({paper.name})")
            target = out_dir / f"{game.folder_name}-{PROFILE}-{paper_id}.pdf"
            outputs.pdf(pdf, target)
            files.append(BuiltFile(target, PROFILE, paper_id, len(pdf.pages)))
        for paper_id in papers:
            for document in documents:
                pdf = pikepdf.open(io.BytesIO(next(document_pdfs)))
                pdf.docinfo = pdf.make_indirect(pikepdf.Dictionary(Title=f"{game.title}: {document.name}", Creator="pnp"))
                target = out_dir / _document_file(game, document, paper_id)
                outputs.pdf(pdf, target)
                files.append(BuiltFile(target, PROFILE, paper_id, len(pdf.pages)))
        manifest = out_dir / "manifest.json"
        outputs.data(json.dumps(manifest_data(game, components, plan, files, out_dir), indent=2).encode() + b"\n", manifest)
        outputs.commit()
    return BuildResult(game, tuple(components), tuple(files), len(plan.faces), placed, manifest)


def manifest_data(game: Game, components: Sequence[Component], plan: FacePlan, files: Sequence[BuiltFile], out_dir: Path) -> dict[str, Any]:
    return {
        "game": game.id,
        "name": game.title,
        "version": game.version,
        "files": [
            {"path": f.path.relative_to(out_dir).as_posix(), "profile": f.profile, "paper": f.paper, "pages": f.pages}
            for f in files
        ],
        "components": [
            {
                "id": c.id,
                "name": c.name,
                "copies": c.copies,
                "faces": len({k for pair in plan.copies[c.id] for k in pair if k is not None}),
                "cards": [
                    {"id": card_id, "front": front, "back": back}
                    for card_id, front, back in plan.cards[c.id]
                ],
            }
            for c in components
        ],
    }

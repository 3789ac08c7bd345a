"""The home build: load -> plan faces -> impose -> render -> place -> write.

Each stage is a plain function; this module only strings them together and
writes the results (atomically) with a manifest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, InputError, UsageError
from pnp.imposition.geometry import Grid, LayoutError, Sheet, grid, impose
from pnp.imposition.layouts import Paper, load_layouts, load_papers
from pnp.model import Component, Game
from pnp.paths import ART, FONTS, TEMPLATES
from pnp.pdf.place import impose_pdf, save_atomic, write_atomic
from pnp.render.document import faces_html, pages_html
from pnp.render.faces import FacePlan, base_context, plan_faces
from pnp.render.templating import environment, render
from pnp.render.weasy import render_pdf
from pnp.units import css

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
            layout: Grid = grid(layouts[component.layout], paper, component.size.width, component.size.height)
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
        parts.append(
            {
                "id": component.id,
                "name": component.name,
                "pages": pages,
                "first": page,
                "last": page + count - 1,
                "copies": component.copies,
                "stock": "card stock",
                "sides": "two-sided, long edge" if two_sided else "one-sided",
            }
        )
        page += count
    return parts


def instructions_pdf(game: Game, paper: Paper, sheets: dict[str, tuple[Sheet, ...]], components: Sequence[Component]) -> tuple[bytes, list[dict[str, Any]]]:
    """The printing-instructions page(s); page ranges account for their own length."""
    env = environment(game.root)
    front_pages = 1
    while True:
        parts = _page_ranges(sheets, components, front_pages + 1)
        context = {
            **base_context(game),
            "paper": {"id": paper.id, "name": paper.name},
            "parts": parts,
            "front_pages": "1" if front_pages == 1 else f"1\u2013{front_pages}",
            "square_mm": CALIBRATION_MM,
        }
        body = render(env, INSTRUCTIONS, context, "the printing instructions")
        page_css = f"<style>@page {{ size: {css(paper.width)} {css(paper.height)}; margin: 15mm; }}</style>"
        data = render_pdf(pages_html(game, page_css + body, [INSTRUCTIONS_CSS]), _roots(game), "printing instructions")
        count = _count_pages(data)
        if count == front_pages:
            return data, parts
        front_pages = count


def _count_pages(data: bytes) -> int:
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)


def _roots(game: Game) -> list[Path]:
    return [game.root, TEMPLATES, FONTS, ART]


def build(game: Game, papers: Sequence[str], out_dir: Path, only: Sequence[str] | None = None) -> BuildResult:
    """Build the home-print PDFs of ``game`` for each paper into ``out_dir``."""
    components = select(game, only)
    known_papers = load_papers()
    plan = plan_faces(game, components)
    styles = [s for c in components for s in c.styles]
    per_paper = {p: sheets_for(game, components, plan, known_papers[p]) for p in papers}
    faces_pdf = render_pdf(faces_html(game, plan.faces, styles), _roots(game), "card faces")
    keys = [f.key for f in plan.faces]
    files = []
    placed = 0
    for paper_id, sheets in per_paper.items():
        paper = known_papers[paper_id]
        front, _ = instructions_pdf(game, paper, sheets, components)
        ordered = [s for c in components for s in sheets[c.id]]
        placed = sum(len(s.placements) for s in ordered)
        pdf = impose_pdf(faces_pdf, keys, front, ordered, f"{game.title}: print-and-play ({paper.name})")
        target = out_dir / f"{game.folder_name}-{PROFILE}-{paper_id}.pdf"
        save_atomic(pdf, target)
        files.append(BuiltFile(target, PROFILE, paper_id, len(pdf.pages)))
    manifest = out_dir / "manifest.json"
    write_atomic(json.dumps(manifest_data(game, components, plan, files, out_dir), indent=2).encode() + b"\n", manifest)
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

"""The home build strung together: plan -> render -> impose and write, over
frozen values, committed in one step."""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pikepdf

from pnp import words
from pnp.commit import Outputs, claimed, write_record
from pnp.errors import Diagnostic, Level, Source
from pnp.imposition.booklet import booklets
from pnp.imposition.cutmarks import registration
from pnp.imposition.geometry import Sheet
from pnp.model import Component, Game, Paper
from pnp.output.boxes import boxes_file, boxes_pdf
from pnp.output.cutfiles import Cut, cut_folder, cut_shape, sheet_files
from pnp.output.home.manifest import Place, manifest_data, merged, note_places
from pnp.output.home.pages import count_pages, document_html, in_print_order, instructions_html, page_ranges
from pnp.output.home.plan import HomePlan, document_file, hand_cut, plan_home, variant, whole
from pnp.output.home.printable import FaceText, edge_diagnostics, face_text, near_edge
from pnp.output.home.registration import registration_file, registration_html
from pnp.output.home.shifted import index_html, shifted_file, shifted_sheets
from pnp.output.kept import INDEX, Kept, key_of
from pnp.output.request import Request
from pnp.output.result import Built, BuiltFile
from pnp.pdf.place import ImposedFile, write_imposed
from pnp.render.cache import RenderCache
from pnp.render.dispatch import render_pdf
from pnp.render.document import faces_html
from pnp.render.findings import LayoutFinding, LayoutProblem, document_diagnostics, layout_diagnostics, raise_errors, safe_box
from pnp.render.layout import FacePages, RenderFailed, render_build
from pnp.render.scope import scope_for
from pnp.units import to_mm


def home(game: Game, components: Sequence[Component], papers: Sequence[str], out_dir: Path, request: Request) -> Built:
    """The home-print PDFs of ``components`` (and of the game's modules' cards
    of them) for each of ``papers``, the printing instructions, documents,
    registration test and manifest, by ``request`` (:class:`Request`: gutter
    fold, butted, ink saver, back offset, shifted backs, a reprint ...).
    Text that overflows, leaves a card's safe zone or lies over other text,
    and text or marks nearer a paper edge than the profile's
    ``printable_margin``, are warnings in the result, or (``strict``) an
    error raised before anything is written. ``out_dir`` is held for this
    build alone while it runs."""
    with claimed(out_dir):
        plan = plan_home(game, components, papers, request)
        rendered = render_home(game, plan, request, out_dir)
        return write_home(game, plan, rendered, request, out_dir)



@dataclass(frozen=True)
class Rendered:
    """Stage 4's results: every face's page, each file's instructions, each document."""

    faces: FacePages
    front: dict[tuple[int, str], bytes]
    documents: tuple[bytes, ...]
    problems: tuple[Diagnostic, ...]
    cache: RenderCache



def render_home(game: Game, plan: HomePlan, request: Request, out_dir: Path) -> Rendered:
    """Stage 4: faces from the cache or laid out now, with every file's
    instructions (assumed one page long) and documents, on every core."""
    cache = RenderCache(out_dir / ".cache" / "render")
    keys = list(plan.sheets)
    jobs = [
        (instructions_html(game, plan.papers[p], plan.parts[(i, p)], 1, plan.split[i].module,
                           plan.others(game, i, p, variant(request), whole(request)), request.gutterfold, _shifted_name(game, plan, request, (i, p)),
                           _cut_note(game, plan, request, (i, p))),
         "printing instructions")
        for i, p in keys
    ]
    named = [f"printing instructions ({paper})" for _, paper in keys]
    jobs += [(document_html(game, d, plan.papers[p]), f"document {d.id}") for p in plan.chosen for d in plan.documents]
    named += [document_file(game, d, p) for p in plan.chosen for d in plan.documents]
    jobs += [(registration_html(game, plan.papers[p], request.shifted_backs), "the registration test") for p in _registration_papers(plan, request)]
    named += [registration_file(plan.papers[p]) for p in _registration_papers(plan, request)]
    styles = list(plan.styles)
    try:
        face_pdfs, findings, laid_out = render_build(
            plan.faces, lambda chunk: faces_html(game, chunk, styles), safe_box, jobs, scope_for(game), cache
        )
    except RenderFailed as failed:  # reported with the findings of every card and document that did lay out
        raise LayoutProblem(_diagnostics(plan, named, failed.faces, failed.documents, request.strict, failed.diagnostics)) from None
    problems = raise_errors(_diagnostics(plan, named, findings, [found for _, found in laid_out], request.strict))
    rendered = [data for data, _ in laid_out]
    if cache.damaged:
        problems.append(Diagnostic(
            Source(out_dir / ".cache" / "render"), "",
            f"the render cache held {words.count(cache.damaged, 'damaged page or entry', 'damaged pages or entries')}; they were dropped and laid out again",
            Level.WARNING,
        ))
    return Rendered(face_pdfs, dict(zip(keys, rendered[: len(keys)])), tuple(rendered[len(keys) :]), tuple(problems), cache)



def _diagnostics(
    plan: HomePlan, named: Sequence[str], faces: Mapping[str, Sequence[LayoutFinding]],
    documents: Sequence[Sequence[LayoutFinding] | None], strict: bool, failed: Sequence[Diagnostic] = (),
) -> list[Diagnostic]:
    """The cards' findings, what ``failed`` to lay out, then each (``named``)
    document's findings (None: it failed), as diagnostics."""
    return [
        *layout_diagnostics(plan.components, plan.faces, faces, strict),
        *failed,
        *document_diagnostics([(name, found) for name, found in zip(named, documents) if found is not None], strict),
    ]



def write_home(game: Game, plan: HomePlan, rendered: Rendered, request: Request, out_dir: Path) -> Built:
    """Stages 5 and 6: impose and write every file with the manifest, committed in one step."""
    files: list[BuiltFile] = []
    placed = 0
    found: dict[str, Place] = {}
    """Where each face is first drawn (file, page, box): for `pnp diff`."""
    edges = _Edges(plan, rendered, request)
    cut_of = _cuts(game, plan, request)
    kept = Kept(out_dir)
    faces = _faces_key(rendered.faces)
    with Outputs(out_dir) as outputs:
        imposed: list[ImposedFile] = []
        keys: list[tuple[Path, str]] = []

        def impose(front: bytes | None, sheets: Sequence[Sheet], title: str, target: Path) -> None:
            key = key_of([faces, front or b"", repr(tuple(sheets)), title])
            if not kept.unchanged(target, key):
                imposed.append((front, sheets, title, outputs.stage(target)))
                keys.append((target, key))

        for (index, paper_id), book_sheets in plan.sheets.items():
            book = plan.split[index]
            front, count = _front_matter(game, plan, rendered, request, (index, paper_id))
            ordered = in_print_order(book_sheets)
            if index == 0:
                placed = sum(len(s.placements) for s in ordered)
            paper = plan.papers[paper_id]
            title = f"{game.title}: {book.module.name if book.module else 'print-and-play'} ({paper.name})"
            target = out_dir / _home_file(game, plan, request, (index, paper_id))
            edges.check(target, front, ordered)
            impose(front, ordered, title, target)
            note_places(found, ordered, target.name, count + 1)
            files.append(BuiltFile(target, request.profile.id, paper_id, count + len(ordered), book.module.id if book.module else None))
            for path, content in sheet_files(target, count + 1, ordered, cut_of) if cut_of is not None else ():
                outputs.data(content, path)
                files.append(BuiltFile(path, request.profile.id, paper_id, None, book.module.id if book.module else None))
            name = _shifted_name(game, plan, request, (index, paper_id))
            if name is not None:
                cover, copies, pages = _shifted(game, paper, target.name, count, ordered, request.offset)
                impose(cover, copies, f"{title}: backs moved", out_dir / name)
                files.append(BuiltFile(out_dir / name, request.profile.id, paper_id, pages, book.module.id if book.module else None))
        laid_out = iter(rendered.documents)
        for paper_id in plan.chosen:
            for document in plan.documents:
                edges.check(out_dir / document_file(game, document, paper_id), next(laid_out), ())
        for paper_id in _registration_papers(plan, request):
            edges.check(out_dir / registration_file(plan.papers[paper_id]), next(laid_out), ())
        problems = raise_errors(edges.found)
        if imposed:
            write_imposed(rendered.faces, imposed, os.cpu_count() or 1)
        for (target, key), (_, _, _, staged) in zip(keys, imposed):
            kept.written(target, key, staged.read_bytes())
        documents = iter(rendered.documents)
        for paper_id in plan.chosen:
            for document in plan.documents:
                laid, title = next(documents), f"{game.title}: {document.name}"
                target = out_dir / document_file(game, document, paper_id)
                _save(kept, outputs, laid, title, target)
                files.append(BuiltFile(target, request.profile.id, paper_id, count_pages(laid)))
                for name, imposed_pdf in booklets(_titled(laid, title), plan.papers[paper_id], target.name) if document.booklet else ():
                    outputs.pdf(imposed_pdf, out_dir / name)
                    files.append(BuiltFile(out_dir / name, request.profile.id, paper_id, len(imposed_pdf.pages)))
        for paper_id in plan.chosen if whole(request) else ():
            boxes = boxes_pdf(game, plan.papers[paper_id])
            if boxes is not None:
                outputs.pdf(boxes, out_dir / boxes_file(game, paper_id))
                files.append(BuiltFile(out_dir / boxes_file(game, paper_id), request.profile.id, paper_id, len(boxes.pages)))
        for paper_id in _registration_papers(plan, request):
            laid = next(documents)
            target = out_dir / registration_file(plan.papers[paper_id])
            _save(kept, outputs, laid, f"Duplex registration test ({paper_id})", target)
            files.append(BuiltFile(target, request.profile.id, paper_id, count_pages(laid)))
        # A reprint keeps the full build's manifest as it was (a baseline for the next diff).
        manifest = out_dir / ("manifest-reprint.json" if request.reprint else "manifest.json")
        data = manifest_data(game, plan.components, merged(plan.plans), files, out_dir, found) | {"ink_saver": request.ink_saver}
        outputs.data(json.dumps(data, indent=2).encode() + b"\n", manifest)
        outputs.commit()
    # After the commit, outside it (its journal holds one folder's moves): a
    # record older than the files it names only makes the next build write them again.
    write_record(kept.record(), out_dir / INDEX)
    cache = rendered.cache
    by_hand = hand_cut(plan, request.profile.cut) if request.profile.cut is not None else []
    return Built(
        game, request.profile, out_dir, tuple(files), manifest, plan.components, rendered.problems + tuple(problems) + tuple(by_hand),
        faces=len(plan.faces), placed=placed, rendered=cache.misses, cached=cache.hits, faces_rendered=cache.face_misses,
    )


def _faces_key(faces: FacePages) -> bytes:
    """What the face documents hold, for the keys of the files imposed from
    them: a cached document's name carries its content's digest."""
    parts = []
    for document, keys in faces:
        named = document.name if isinstance(document, Path) else hashlib.sha256(document).hexdigest()
        parts.append(f"{named} {' '.join(key or '-' for key in keys)}")
    return "\n".join(parts).encode()


def _save(kept: Kept, outputs: Outputs, data: bytes, title: str, target: Path) -> None:
    """A laid-out document saved to ``target`` under ``title``, unless the
    last build saved the same there."""
    key = key_of([data, title])
    if not kept.unchanged(target, key):
        kept.written(target, key, outputs.pdf(_titled(data, title), target).read_bytes())


def _titled(data: bytes, title: str) -> pikepdf.Pdf:
    pdf = pikepdf.open(io.BytesIO(data))
    pdf.docinfo = pdf.make_indirect(pikepdf.Dictionary(Title=title, Creator="pnp"))
    return pdf


def _cuts(game: Game, plan: HomePlan, request: Request) -> Callable[[str], Cut | None] | None:
    """Print-and-cut: how the piece of each face key is cut (None: not
    cut); None for a build without a cut profile."""
    cut = request.profile.cut
    if cut is None:
        return None
    shapes = {c.id: cut_shape(game, c, cut) for c in plan.components}
    of_face = {face.key: shapes.get(face.component) for face in plan.faces}
    return lambda key: of_face.get(key)


def _cut_note(game: Game, plan: HomePlan, request: Request, key: tuple[int, str]) -> dict[str, str] | None:
    """What a print-and-cut file's instructions say: the machine, its marks'
    settings, the cut files' folder and the area the machine cuts."""
    cut = request.profile.cut
    if cut is None:
        return None
    area = registration(cut, plan.papers[key[1]]).area
    return {
        "machine": cut.machine, "folder": cut_folder(_home_file(game, plan, request, key)),
        "inset": f"{to_mm(cut.inset):g}", "length": f"{to_mm(cut.length):g}",
        "area": f"{to_mm(area.width):.0f} x {to_mm(area.height):.0f}",
    }


class _Edges:
    """Text and marks nearer a paper edge than the profile's
    ``printable_margin`` (:mod:`pnp.output.home.printable`), file by file."""

    def __init__(self, plan: HomePlan, rendered: Rendered, request: Request):
        self.margin = request.profile.printable_margin
        self.strict = request.strict
        self.faces = rendered.faces
        self.text: dict[str, FaceText] = {}
        """Faces' text boxes, read only for faces placed near a paper edge."""
        sources = {f"{c.id}/{card.id}": card.source for c in plan.components for card in c.cards}
        self.cards = {
            face.key: (face.label, sources.get(face.label.rsplit(" ", 1)[0], Source(Path(face.component)))) for face in plan.faces
        }
        self.found: list[Diagnostic] = []

    def check(self, target: Path, front: bytes | None, sheets: Sequence[Sheet]) -> None:
        if self.margin is not None:
            wanted = near_edge(sheets, self.margin) - self.text.keys()
            if wanted:
                self.text.update(face_text(self.faces, wanted))
            self.found += edge_diagnostics(target, front, sheets, self.text, self.cards, self.margin, self.strict)



def _registration_papers(plan: HomePlan, request: Request) -> tuple[str, ...]:
    """The papers a registration test page is written for: every paper of a
    whole duplex build (not of --only or a reprint, which print pieces again)."""
    return () if request.gutterfold or request.only is not None or request.reprint else plan.chosen


def _home_file(game: Game, plan: HomePlan, request: Request, key: tuple[int, str]) -> str:
    return f"{plan.split[key[0]].stem(game)}-{variant(request)}-{key[1]}.pdf"


def _shifted_name(game: Game, plan: HomePlan, request: Request, key: tuple[int, str]) -> str | None:
    """The name of a home file's shifted copy (:mod:`pnp.output.home.shifted`):
    when asked for, and the file has backs to move."""
    if not request.shifted_backs or not any(s.side == "back" for held in plan.sheets[key].values() for s in held):
        return None
    return shifted_file(_home_file(game, plan, request, key))


def _shifted(
    game: Game, paper: Paper, home: str, front_pages: int, sheets: Sequence[Sheet], base: tuple[float, float]
) -> tuple[bytes, list[Sheet], int]:
    """The shifted copy of a home file: its index page, laid out again with
    every range moved on if it took more than one; its sheets; its page count."""
    span = (front_pages + 1, front_pages + len(sheets))
    index = render_pdf(index_html(game, paper, home, span, base), scope_for(game), "the shifted backs' index")
    if count_pages(index) != 1:
        index = render_pdf(index_html(game, paper, home, span, base, count_pages(index)), scope_for(game), "the shifted backs' index")
    copies = shifted_sheets(sheets, base)
    return index, copies, count_pages(index) + len(copies)


def _front_matter(game: Game, plan: HomePlan, rendered: Rendered, request: Request, key: tuple[int, str]) -> tuple[bytes, int]:
    """A file's instructions and their page count: laid out again, with the
    sheets numbered after them, when they did not fit on one page."""
    index, paper_id = key
    front = rendered.front[key]
    count = count_pages(front)
    if count != 1:
        book = plan.split[index]
        parts = page_ranges(plan.sheets[key], book.components, count + 1, plan.layouts)
        html = instructions_html(
            game, plan.papers[paper_id], parts, count, book.module, plan.others(game, index, paper_id, variant(request), whole(request)), request.gutterfold,
            _shifted_name(game, plan, request, key), _cut_note(game, plan, request, key),
        )
        front = render_pdf(html, scope_for(game), "printing instructions")
        count = count_pages(front)
    return front, count

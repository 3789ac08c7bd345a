"""Print-ready PDFs for printers: one file per component, one page per card side.

Each page is exactly a card side with the profile's bleed (TrimBox and BleedBox
set, no marks), in the order the printer wants (backs first for DriveThruCards,
fronts first for factories). A CMYK profile converts every colour with the
palette and the ICC profile, embeds that profile as the PDF/X output intent and
identifies the file as PDF/X-4. Every file is preflighted before it is kept.
"""

from __future__ import annotations

import io
import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Required, TypedDict

import pikepdf
from pikepdf import Name

from pnp.commit import Outputs, claimed, save_pdf
from pnp.errors import Level, PnpError
from pnp.model import Component, Game
from pnp.output.parts import Part, split_modules, with_backs
from pnp.output.profiles import Profile
from pnp.output.raster import with_bleed
from pnp.output.request import Request
from pnp.output.result import Built, BuiltFile
from pnp.pdf.dieline import add_die_lines, add_die_paths, die_shape
from pnp.pdf.fontdicts import merge_font_dicts
from pnp.pdf.place import face_document
from pnp.pdf.fonts import merge_font_files
from pnp.pdf.shared import share_xobjects
from pnp.render.cache import RenderCache
from pnp.render.document import faces_html
from pnp.dates import build_date
from pnp.render.faces import Face, FacePlan, plan_faces
from pnp.render.findings import layout_diagnostics, raise_errors
from pnp.render.inspect import safe_box
from pnp.render.layout import render_faces
from pnp.render.scope import scope_for
from pnp.words import count

if TYPE_CHECKING:
    from pnp.pdf.flatten import Flattening
    from pnp.preflight import Requirements
    from pnp.preflight.report import Report
    from pnp.preflight.run import Checked


class _Verdict(TypedDict):
    """A file's preflight, as its index entry tells it."""

    passed: bool
    max_ink: float | None
    min_ppi: float | None
    fonts: int
    failures: list[str]


class _FileEntry(TypedDict, total=False):
    """A file's entry in the export's index.json (a card part's or a box's),
    its keys in the order they are written."""

    path: Required[str]
    profile: Required[str]
    component: str
    module: str
    box: str
    inner_mm: list[float]
    cards: int
    pages: int
    order: list[str]
    flattened: list[int]
    """Flattening to PDF/X-1a: the pages whose transparency was flattened,"""
    rasterised: list[int]
    """and those now partly or wholly an image."""
    preflight: _Verdict


class PreflightFailed(PnpError):
    """An export does not meet its printer's requirements; nothing was written."""

    exit_code = 1


def requirements(profile: Profile, component: Component | None = None) -> Requirements:
    """What preflight checks for ``profile`` (and, given one, a component's trim)."""
    from pnp.pdf.pdfx import STANDARDS
    from pnp.preflight import Requirements

    standard = STANDARDS.get(profile.pdfx)
    return Requirements(
        bleed=profile.bleed if component is None else component.bleed,
        trim=None if component is None else (component.size.width, component.size.height),
        cmyk=profile.colour == "cmyk",
        output_intent=standard is not None,
        pdfx=None if standard is None else standard.version,
        pdfx_conformance=None if standard is None else standard.conformance,
        flat=standard is not None and standard.flat,
        min_ppi=profile.min_ppi,
        max_ink=profile.max_ink,
    )


def accepted(components: Sequence[Component], profile: Profile) -> tuple[list[Component], list[str]]:
    """The components the printer takes, and a note for each it does not."""
    if not profile.accepts:
        return list(components), []
    keep = [c for c in components if c.size.name in profile.accepts]
    skipped = [
        f"{c.id}: size {c.size.name} ({c.size.width / 72 * 25.4:.1f} x {c.size.height / 72 * 25.4:.1f} mm) "
        f"is not one {profile.id} prints ({', '.join(profile.accepts)})"
        for c in components
        if c.size.name not in profile.accepts
    ]
    return keep, skipped


def print_pdfs(game: Game, components: Sequence[Component], papers: Sequence[str], out_dir: Path, request: Request) -> Built:
    """Write ``<out_dir>/<profile>/<game>-<component>.pdf`` for each component,
    and ``<game>-<module>-<component>.pdf`` for each optional module's cards of
    it; a one-sided component is given a plain back (:func:`with_backs`).
    Each page is one card side, whatever the ``papers``. A file that fails
    its preflight stops the export unless ``request.force``."""
    profile = request.profile
    chosen, skipped = accepted(components, profile)
    if not chosen:
        raise PreflightFailed(f"profile {profile.id}: none of the components is a size it prints:\n  " + "\n  ".join(skipped))
    parts, notes = with_backs(split_modules(game, with_bleed(chosen, profile.bleed)))
    plans = {part.id: plan_faces(game, [part.component]) for part in parts}
    faces = list({face.key: face for plan in plans.values() for face in plan.faces}.values())
    styles = list(dict.fromkeys(s for part in parts for s in part.component.styles))
    components_used = [part.component for part in parts]
    with claimed(out_dir):  # the render cache and the results are in that folder
        cache = RenderCache(out_dir / ".cache" / "render")
        rendered, found = render_faces(faces, lambda chunk: faces_html(game, chunk, styles), safe_box, scope_for(game), cache)
        raise_errors([d for d in layout_diagnostics(components_used, faces, found, False) if d.level is Level.ERROR])
        documents = _face_documents(game, rendered, profile)
        return _write(game, parts, plans, documents, {f.key: f for f in faces}, request, out_dir, (skipped, notes))


def _write(
    game: Game,
    parts: Sequence[Part],
    plans: dict[str, FacePlan],
    documents: Sequence[tuple[bytes, Sequence[str | None]]],
    by_key: dict[str, Face],
    request: Request,
    out_dir: Path,
    notes: tuple[list[str], list[str]],
) -> Built:
    """Write each part's file, preflight it, and the index. ``documents``:
    the laid-out faces' PDFs, as the profile converted them, with the face
    key of each page. ``notes``: the components skipped, and the warnings,
    each with why."""
    skipped, warnings = notes
    profile = request.profile
    folder = out_dir / profile.id
    when = datetime.fromisoformat(build_date()).replace(tzinfo=UTC)  # midnight UTC: fixed by SOURCE_DATE_EPOCH
    files: list[_FileEntry] = []
    with Outputs(out_dir) as outputs:
        batch = _Batch(outputs, profile, when, [], warnings)
        targets = [folder / f"{game.folder_name}-{part.id}.pdf" for part in parts]
        jobs = [(index, str(outputs.stage(target)), str(target)) for index, target in enumerate(targets)]
        from pnp.parallel import fork_map
        from pnp.preflight.run import ghostscript

        gs = ghostscript([requirements(profile)])
        share = (game, parts, plans, documents, by_key, profile, when, out_dir, gs)
        made = fork_map(_part_job, jobs, os.cpu_count() or 1, share=share, label="writing")
        checked: dict[Path, Checked | Report] = {}
        for (entry, said, verdict), (_, staged, _), part, target in zip(made, jobs, parts, targets):
            batch.staged.append((Path(staged), requirements(profile, part.component), target))
            batch.warnings += [said] if said is not None else []
            files.append(entry)
            checked[Path(staged)] = verdict
        if profile.die_line is not None and not request.only:
            files += _stage_boxes(game, folder, batch)
        reports, failures = _preflight_all(batch.staged, files, checked, gs)
        if failures and not request.force:
            found = Counter(failures)  # a picture drawn on every face is one problem, told once
            raise PreflightFailed(
                f"{profile.id}: preflight found {count(len(found), 'problem')}; nothing was written (--force writes anyway):\n  "
                + "\n  ".join(line if times == 1 else f"{line} ({times} times)" for line, times in found.items())
            )
        index = {"game": game.id, "profile": profile.id, "skipped": skipped, "warnings": warnings, "files": files}
        outputs.data(json.dumps(index, indent=2).encode() + b"\n", folder / "index.json")
        outputs.commit()
    built = tuple(BuiltFile(out_dir / f["path"], profile.id, pages=f["pages"], module=f.get("module")) for f in files)
    return Built(
        game, profile, folder, built, folder / "index.json", tuple(p.component for p in parts),
        notes=tuple(warnings), skipped=tuple(skipped), reports=tuple(reports),
    )


def _part_job(index: int, staged: str, target: str) -> tuple[_FileEntry, str | None, Checked | Report]:
    """On a worker: write part ``index``'s file for ``target`` into ``staged`` (see
    :func:`_part_file`) from the shared documents it draws on, each opened
    here, and check it (all but its ink: :func:`_preflight_all`). Returns its
    index entry, what flattening it warns of, and what the checks found."""
    from pnp.parallel import shared
    from pnp.preflight.run import check

    game, parts, plans, documents, by_key, profile, when, out_dir, gs = shared()
    part = parts[index]
    wanted = {key for pair in plans[part.id].copies[part.component.id] for key in pair if key is not None}
    sources: list[pikepdf.Pdf] = []
    try:
        pages: dict[str, pikepdf.Page] = {}
        for data, keys in documents:
            if wanted.intersection(keys):
                sources.append(pikepdf.open(io.BytesIO(data)))  # a page is only valid while its PDF is open
                pages.update((key, sources[-1].pages[i]) for i, key in enumerate(keys) if key is not None)
        entry, said = _part_file(game, part, plans[part.id], pages, by_key, _Stamp(profile, when), (Path(staged), Path(target)), out_dir)
    finally:
        for source in sources:
            source.close()
    return entry, said, check(Path(staged), requirements(profile, part.component), gs)


@dataclass(frozen=True)
class _Stamp:
    """What marks every file of an export: its profile and build time."""

    profile: Profile
    when: datetime


def _part_file(
    game: Game, part: Part, plan: FacePlan, pages: dict[str, pikepdf.Page], by_key: dict[str, Face], stamp: _Stamp,
    where: tuple[Path, Path], out_dir: Path,
) -> tuple[_FileEntry, str | None]:
    """Write ``part``'s file (``where``: its staged file, and the target it
    is staged for): one page per card side, in the profile's order. Returns
    its index entry and what flattening it warns of."""
    component = part.component
    profile = stamp.profile
    sides = ("back", "front") if profile.order == "back-front" else ("front", "back")
    order = []
    for front, back in plan.copies[component.id]:
        pair = {"front": front, "back": back}
        order += [(side, pair[side]) for side in sides if pair[side] is not None]
    title = f"{game.title}: {part.name} ({profile.id})"
    pdf = _card_pages(pages, by_key, [key for _, key in order if key is not None], title)
    share_xobjects(pdf)  # each picture once in the file, as the home build keeps it
    merge_font_files(pdf)
    merge_font_dicts(pdf)
    if profile.die_line is not None and (shape := die_shape(game, component)) is not None:
        add_die_lines(pdf, shape, profile.die_line)
    staged, target = where
    entry: _FileEntry = {"path": target.relative_to(out_dir).as_posix(), "profile": profile.id, "component": component.id}
    if part.module:
        entry["module"] = part.module.id
    entry["cards"] = sum(card.copies for card in component.cards)
    entry["pages"] = len(pdf.pages)
    entry["order"] = [side for side, _ in order[: len(sides)]]
    return entry, _save(pdf, staged, target, title, stamp, entry)


def _save(pdf: pikepdf.Pdf, staged: Path, target: Path, title: str, stamp: _Stamp, entry: _FileEntry) -> str | None:
    """Write ``pdf`` into ``staged`` as the profile's PDF/X; what flattening
    did goes at the end of ``entry``. Returns what flattening warns of."""
    pdf, version, flattening = _identify(pdf, title, stamp.when, stamp.profile)
    save_pdf(pdf, staged, min_version="1.6", version=version)
    if flattening is None:
        return None
    entry["flattened"], entry["rasterised"] = list(flattening.transparent), list(flattening.rasterised)
    return flattening.note(target.name)


def _identify(pdf: pikepdf.Pdf, title: str, when: datetime, profile: Profile) -> tuple[pikepdf.Pdf, str, Flattening | None]:
    """``pdf`` as the profile's PDF/X (flattened first for X-1a), the exact PDF
    version to write it as (empty: 1.6 or later, as it needs), and what flattening did."""
    if profile.pdfx == "none" or profile.icc is None:
        return pdf, "", None
    from pnp.pdf.pdfx import STANDARDS, mark_pdfx, output_intent

    standard = STANDARDS[profile.pdfx]
    flattening = None
    if standard.flat:
        from pnp.pdf.flatten import flatten

        pdf, flattening = flatten(pdf, standard.pdf_version, profile.dpi)
    mark_pdfx(pdf, title, when, output_intent(profile.output_condition, profile.icc), standard)
    return pdf, standard.pdf_version if standard.flat else "", flattening


@dataclass
class _Batch:
    """The files of one export as they are staged, to preflight together."""

    outputs: Outputs
    profile: Profile
    when: datetime
    staged: list[tuple[Path, Requirements, Path]]
    """Each staged file, what preflight asks of it, and its target."""
    warnings: list[str]

    def stage(self, pdf: pikepdf.Pdf, target: Path, title: str, wanted: Requirements, entry: _FileEntry) -> None:
        """Stage ``pdf`` for ``target`` as the profile's PDF/X (:func:`_save`), to be checked against ``wanted``."""
        staged = self.outputs.stage(target)
        said = _save(pdf, staged, target, title, _Stamp(self.profile, self.when), entry)
        self.staged.append((staged, wanted, target))
        self.warnings += [said] if said is not None else []


def _stage_boxes(game: Game, folder: Path, batch: _Batch) -> list[_FileEntry]:
    """Stage ``<game>-box-<id>.pdf`` for each tuck box: its net with the
    profile's bleed, converted like the cards, the die line and creases in
    spot colours on the die-line layer. Returns their index entries."""
    from pnp.output.boxes import factory_box

    profile = batch.profile
    assert profile.die_line is not None
    entries: list[_FileEntry] = []
    for box in game.boxes:
        made = factory_box(game, box, profile.bleed or 0.0)
        pdf = made.pdf
        if profile.colour == "cmyk" and profile.icc is not None:
            from pnp.colour.convert import convert_pdf

            convert_pdf(pdf, game.palette, profile.icc)
        add_die_paths(pdf, [(pdf.pages[0], made.cut, made.creases)], profile.die_line)
        title = f"{game.title}: {box.name} ({profile.id})"
        pdf.docinfo[Name.Title] = title
        pdf.docinfo[Name.Creator] = "pnp"
        target = folder / f"{game.folder_name}-box-{box.id}.pdf"
        inner = [round(v, 2) for v in (made.inner.width, made.inner.height, made.inner.depth)]
        entry: _FileEntry = {
            "path": target.relative_to(folder.parent).as_posix(), "profile": profile.id, "box": box.id, "inner_mm": inner, "pages": 1,
        }
        batch.stage(pdf, target, title, replace(requirements(profile), trim=made.trim), entry)
        entries.append(entry)
    return entries


def _preflight_all(
    staged: Sequence[tuple[Path, Requirements, Path]], files: Sequence[_FileEntry], checked: dict[Path, Checked | Report], gs: str | None
) -> tuple[list[Report], list[str]]:
    """Preflight each staged file against the printer's requirements: the
    checks the workers that wrote them made (``checked``), the others' here,
    then every file's ink together (:func:`pnp.preflight.run.finish`); its
    verdict goes into its index entry. Returns the reports and every failure."""
    from pnp.preflight.run import check, finish

    checks = [checked[temporary] if temporary in checked else check(temporary, wanted, gs) for temporary, wanted, _ in staged]
    reports = finish(checks, [wanted for _, wanted, _ in staged], gs, os.cpu_count() or 1)
    failures: list[str] = []
    for report, (_, _, target), entry in zip(reports, staged, files):
        entry["preflight"] = {
            "passed": report.ok,
            "max_ink": None if report.max_ink is None else round(report.max_ink, 1),
            "min_ppi": None if report.min_ppi is None else round(report.min_ppi, 1),
            "fonts": report.fonts,
            "failures": [f.message for f in report.failures],
        }
        failures += [f"{target.name}: [{f.check}] {f.message}" for f in report.failures]
    return reports, failures


def _face_documents(
    game: Game, rendered: Sequence[tuple[Path | bytes, Sequence[str | None]]], profile: Profile
) -> list[tuple[bytes, Sequence[str | None]]]:
    """Each laid-out PDF's bytes, converted to CMYK once when the profile says
    so (the PDFs side by side on every core), with the face key of each page."""
    documents = [face_document(data) for data, _ in rendered]
    if profile.colour == "cmyk" and profile.icc is not None:
        from pnp.colour.convert import convert_documents

        documents = convert_documents(documents, game.palette, profile.icc)
    for data, (_, keys) in zip(documents, rendered):
        with pikepdf.open(io.BytesIO(data)) as source:
            if len(source.pages) != len(keys):
                raise PreflightFailed(f"{len(source.pages)} pages rendered for {len(keys)} faces: a face overflowed its page")
    return [(data, keys) for data, (_, keys) in zip(documents, rendered)]


def _card_pages(pages: dict[str, pikepdf.Page], faces: dict[str, Face], keys: Sequence[str], title: str) -> pikepdf.Pdf:
    """One page per side: the face drawn once as a form, the page its exact size."""
    out = pikepdf.new()
    forms: dict[str, pikepdf.Object] = {}
    for key in keys:
        if key not in forms:
            forms[key] = out.copy_foreign(pages[key].as_form_xobject())
        face = faces[key]
        w, h, b = face.width, face.height, face.bleed
        page = out.add_blank_page(page_size=(w, h))
        page.obj.TrimBox = pikepdf.Array([b, b, w - b, h - b])
        page.obj.BleedBox = pikepdf.Array([0, 0, w, h])
        page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F0=forms[key]))
        page.Contents = out.make_stream(b"q /F0 Do Q\n")
    out.docinfo[Name.Title] = title
    out.docinfo[Name.Creator] = "pnp"
    return out

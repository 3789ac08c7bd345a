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
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pikepdf
from pikepdf import Name

from pnp.commit import Outputs, claimed
from pnp.errors import Level, PnpError
from pnp.model import Component, Game
from pnp.output.parts import Part, split_modules, with_backs
from pnp.output.printfile import FileEntry, Stamp, part_file, save
from pnp.output.profiles import Profile
from pnp.output.raster import with_bleed
from pnp.output.request import Request
from pnp.output.result import Built, BuiltFile
from pnp.output.workqueue import Queue
from pnp.pdf.dieline import add_die_paths
from pnp.pdf.place import face_document
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
    from pnp.preflight import Requirements
    from pnp.preflight.report import Report
    from pnp.preflight.run import Checked


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
        documents = _face_documents(rendered)
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
    the laid-out faces' PDFs, with the face key of each page (converted as
    the profile says by the workers that draw on them). ``notes``: the
    components skipped, and the warnings, each with why."""
    skipped, warnings = notes
    profile = request.profile
    folder = out_dir / profile.id
    stamp = Stamp(profile, datetime.fromisoformat(build_date()).replace(tzinfo=UTC))  # midnight UTC: fixed by SOURCE_DATE_EPOCH
    with Outputs(out_dir) as outputs:
        targets = [folder / f"{game.folder_name}-{part.id}.pdf" for part in parts]
        staged = [(outputs.stage(target), requirements(profile, part.component), target) for part, target in zip(parts, targets)]
        boxes = _stage_boxes(game, folder, outputs, stamp) if profile.die_line is not None and not request.only else []
        staged += [(path, wanted, target) for _, path, wanted, target, _ in boxes]
        costs = [_cost(plans[part.id].copies[part.component.id]) for part in parts] + [1 + FACE_COST] * len(boxes)  # a box: one page, one face
        order = tuple(sorted(range(len(staged)), key=lambda item: -costs[item]))  # the costliest first
        from pnp.preflight.run import ghostscript

        gs = ghostscript([requirements(profile)])
        drawn = Counter(n for part in parts for n in _drawn_on(documents, plans[part.id].copies[part.component.id]))
        shared = frozenset(number for number, times in drawn.items() if times > 1)
        with Queue(order) as queue:
            made = _made(_Files(game, tuple(parts), plans, documents, shared, by_key, stamp, out_dir, gs, tuple(staged), queue))
        files = [entry for entry, _, _ in made[: len(parts)] if entry is not None] + [entry for entry, *_ in boxes]
        assert len(files) == len(staged)  # a part's entry is the worker's, never None
        warnings += [said for _, said, _ in made[: len(parts)] if said is not None] + [said for *_, said in boxes if said is not None]
        failures = _verdicts(files, [report for _, _, report in made], targets + [target for *_, target, _ in boxes])
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
        notes=tuple(warnings), skipped=tuple(skipped), reports=tuple(report for _, _, report in made),
    )


FACE_COST = 12
"""What a distinct face costs to write, check and render for the ink check,
in pages drawn (about, measured on B04's factory export)."""


def _cost(copies: Sequence[tuple[str | None, str | None]]) -> int:
    """About how long a file of these cards' sides takes, in pages."""
    keys = [key for pair in copies for key in pair if key is not None]
    return len(keys) + FACE_COST * len(set(keys))


@dataclass(frozen=True)
class _Files:
    """An export's files as its workers share them (:func:`_file_job`): the
    parts to write from the laid-out ``documents`` (those ``shared`` by
    several parts converted once a worker), and every file ``staged`` (the
    parts', then each tuck box's, written already), each with what
    preflight asks of it and its target."""

    game: Game
    parts: tuple[Part, ...]
    plans: dict[str, FacePlan]
    documents: Sequence[tuple[bytes, Sequence[str | None]]]
    shared: frozenset[int]
    by_key: dict[str, Face]
    stamp: Stamp
    out_dir: Path
    gs: str | None
    staged: tuple[tuple[Path, Requirements, Path], ...]
    queue: Queue
    """Their places in ``staged``, in the order they are to be taken."""


def _made(files: _Files) -> list[tuple[FileEntry | None, str | None, Report]]:
    """Each staged file's index entry (None for a box: the parent made it),
    what flattening it warns of, and its preflight, in order: written and
    checked on every core, one job a file (:func:`_file_job`), the
    costliest first; each worker measures the ink of the files it wrote
    once none is left to take, while the others still write."""
    global _WORKER
    from pnp.parallel import fork_map
    from pnp.preflight.run import finish

    workers = max(1, min(os.cpu_count() or 1, len(files.staged)))
    _WORKER = _Worker()  # nothing from an earlier export in this process, nor in the workers it forks
    made: dict[int, tuple[FileEntry | None, str | None, Checked | Report]] = {}
    measured: dict[int, Report] = {}
    for item, entry, said, checked, reports in fork_map(
        _file_job, [(number,) for number in range(len(files.staged))], workers, share=files, label="writing"
    ):
        made[item] = (entry, said, checked)
        measured.update(reports)
    _WORKER = _Worker()
    left = [item for item in made if item not in measured]  # a worker saw a file left to take, then the other took it
    measured.update(zip(left, finish([made[item][2] for item in left], [files.staged[item][1] for item in left], files.gs, workers)))
    return [(made[item][0], made[item][1], measured[item]) for item in range(len(files.staged))]


@dataclass
class _Worker:
    """What a worker keeps from one file it writes to the next (:func:`_file_job`)."""

    written: list[tuple[int, Checked | Report]] = field(default_factory=list)
    """The files it wrote and checked whose ink is not measured yet, by place among the staged."""
    converted: dict[int, bytes] = field(default_factory=dict)
    """Documents several parts draw on, converted (:func:`_converted`)."""


_WORKER = _Worker()


def _file_job(job: int) -> tuple[int, FileEntry | None, str | None, Checked | Report, list[tuple[int, Report]]]:
    """On a worker: take the next file (:meth:`Queue.take`: each job, whatever its number, one),
    write it if it is a part's (:func:`_part_written`), check it, and when
    no file is left to take, measure the ink of all this worker wrote in
    one Ghostscript run. Returns the file's place among the staged, its
    index entry, warning and checks, and the reports of the files measured."""
    from pnp.parallel import shared
    from pnp.preflight.run import check, finish

    files: _Files = shared()
    item = files.queue.take()
    assert item is not None  # as many jobs as files
    staged, wanted, _ = files.staged[item]
    entry, said = _part_written(files, item, _WORKER.converted) if item < len(files.parts) else (None, None)
    checked = check(staged, wanted, files.gs)
    _WORKER.written.append((item, checked))
    if files.queue.left():
        return item, entry, said, checked, []
    written, _WORKER.written = _WORKER.written, []
    reports = finish([c for _, c in written], [files.staged[number][1] for number, _ in written], files.gs, 1)
    return item, entry, said, checked, [(number, report) for (number, _), report in zip(written, reports)]


def _drawn_on(documents: Sequence[tuple[bytes, Sequence[str | None]]], copies: Sequence[tuple[str | None, str | None]]) -> list[int]:
    """The documents holding a face of ``copies``, by number."""
    wanted = {key for pair in copies for key in pair if key is not None}
    return [number for number, (_, keys) in enumerate(documents) if wanted.intersection(keys)]


def _part_written(files: _Files, index: int, converted: dict[int, bytes]) -> tuple[FileEntry, str | None]:
    """Write part ``index``'s file (:func:`part_file`) from the laid-out
    documents it draws on, each opened here, converted here first when the
    profile says so (kept in ``converted`` when shared by several parts).
    Returns its index entry and what flattening it warns of."""
    part = files.parts[index]
    plan = files.plans[part.id]
    sources: list[pikepdf.Pdf] = []
    try:
        pages: dict[str, pikepdf.Page] = {}
        for number in _drawn_on(files.documents, plan.copies[part.component.id]):
            keys = files.documents[number][1]
            sources.append(pikepdf.open(io.BytesIO(_converted(files, number, converted))))  # a page is only valid while its PDF is open
            pages.update((key, sources[-1].pages[i]) for i, key in enumerate(keys) if key is not None)
        staged, _, target = files.staged[index]
        return part_file(files.game, part, plan, pages, files.by_key, files.stamp, (staged, target), files.out_dir)
    finally:
        for source in sources:
            source.close()


def _converted(files: _Files, number: int, converted: dict[int, bytes]) -> bytes:
    """Document ``number`` as the profile's colour wants it: converted to
    CMYK here (:func:`pnp.colour.convert.convert_document`), once a process
    when several parts draw on it."""
    profile = files.stamp.profile
    if profile.colour != "cmyk" or profile.icc is None:
        return files.documents[number][0]
    if number in converted:
        return converted[number]
    from pnp.colour.convert import convert_document

    data = convert_document(files.documents[number][0], files.game.palette, profile.icc)
    if number in files.shared:
        converted[number] = data
    return data


def _stage_boxes(game: Game, folder: Path, outputs: Outputs, stamp: Stamp) -> list[tuple[FileEntry, Path, Requirements, Path, str | None]]:
    """Stage ``<game>-box-<id>.pdf`` for each tuck box: its net with the
    profile's bleed, converted like the cards, the die line and creases in
    spot colours on the die-line layer. Returns each one's index entry,
    staged file, what preflight asks of it, target, and what flattening
    warns of."""
    from pnp.output.boxes import factory_box

    profile = stamp.profile
    assert profile.die_line is not None
    staged: list[tuple[FileEntry, Path, Requirements, Path, str | None]] = []
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
        entry: FileEntry = {
            "path": target.relative_to(folder.parent).as_posix(), "profile": profile.id, "box": box.id, "inner_mm": inner, "pages": 1,
        }
        path = outputs.stage(target)
        said = save(pdf, path, target, title, stamp, entry)
        staged.append((entry, path, replace(requirements(profile), trim=made.trim), target, said))
    return staged


def _verdicts(files: Sequence[FileEntry], reports: Sequence[Report], targets: Sequence[Path]) -> list[str]:
    """Each file's preflight ``reports`` as the verdict in its index entry.
    Returns every failure, each with the name of its file."""
    failures: list[str] = []
    for report, target, entry in zip(reports, targets, files):
        entry["preflight"] = {
            "passed": report.ok,
            "max_ink": None if report.max_ink is None else round(report.max_ink, 1),
            "min_ppi": None if report.min_ppi is None else round(report.min_ppi, 1),
            "fonts": report.fonts,
            "failures": [f.message for f in report.failures],
        }
        failures += [f"{target.name}: [{f.check}] {f.message}" for f in report.failures]
    return failures


def _face_documents(rendered: Sequence[tuple[Path | bytes, Sequence[str | None]]]) -> list[tuple[bytes, Sequence[str | None]]]:
    """Each laid-out PDF's bytes, with the face key of each page."""
    documents = [(face_document(data), keys) for data, keys in rendered]
    for data, keys in documents:
        with pikepdf.open(io.BytesIO(data)) as source:
            if len(source.pages) != len(keys):
                raise PreflightFailed(f"{len(source.pages)} pages rendered for {len(keys)} faces: a face overflowed its page")
    return documents

"""Stage 4 for a whole build: every face and document it needs, from the
render cache (:mod:`pnp.render.cache`) or laid out now, on every core.

Faces are laid out in short runs whose cut depends on the faces alone, so
what a build writes never depends on what the cache held before it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import AssetError, BuildError, Diagnostic, InputError
from pnp.render.cache import FaceIndex, RenderCache, finding_entry, job_key
from pnp.render.cachelimit import cache_limit
from pnp.render.dispatch import render_each
from pnp.render.faces import Face
from pnp.render.findings import LayoutFinding
from pnp.render.scope import Scope

RUN_ENDS = 4
"""On average one face in this many ends a run (see :func:`face_runs`)."""
LONGEST_RUN = 16


def face_runs(faces: Sequence[Face]) -> list[list[Face]]:
    """The faces cut into the runs that are laid out together, one document
    each. A run ends after a face whose own key says so (about one in
    :data:`RUN_ENDS`), at :data:`LONGEST_RUN` faces, and where the face size
    changes, so the runs depend on the faces alone, never on what the cache
    holds: a warm build and a cold one lay out the same documents and give
    the same bytes (each document embeds the glyphs its faces use), and an
    edit lays out again only the run of the face it changed. (One size per
    run also means one stylesheet text per size, parsed once per process:
    :mod:`pnp.render.sheets`.)"""
    runs: list[list[Face]] = []
    run: list[Face] = []
    for face in faces:
        if run and _size(run[-1]) != _size(face):
            runs.append(run)
            run = []
        run.append(face)
        if int(face.key[:8], 16) % RUN_ENDS == 0 or len(run) == LONGEST_RUN:
            runs.append(run)
            run = []
    return runs + [run] if run else runs


def _size(face: Face) -> tuple[float, float, float, float]:
    return (face.trim_width, face.trim_height, face.bleed, face.safe)


FacePages = list[tuple["Path | bytes", list["str | None"]]]
"""(the cached PDF file, face key per page or None) per cached document
holding faces; the PDF's bytes instead when the cache is in memory (no
folder). Read with :func:`pnp.pdf.place.face_document`, when needed: a big
build holds its faces' paths, not their bytes."""
Documents = list[tuple[bytes, list[LayoutFinding]]]
"""Each document's pdf bytes and the findings of its layout (headings left at
a page's foot: :mod:`pnp.render.keep`), in the order they were asked for."""


def render_faces(
    faces: Sequence[Face],
    html_for: Callable[[Sequence[Face]], str],
    safe_for: Callable[[Face], tuple[float, float, float, float]],
    scope: Scope,
    cache: RenderCache,
    workers: int | None = None,
) -> tuple[FacePages, dict[str, list[LayoutFinding]]]:
    """Every face's laid-out page, from the cache one face at a time.

    Each face is found by its identity (its key,
    :class:`pnp.render.faces.FaceIdentity`) in the build's frame. Faces are
    laid out in short runs (:func:`face_runs`), each run one cached document,
    so an edit to one card lays out just its run; an index (``faces.json``)
    says which cached document and page holds each face, with that page's
    layout findings.

    Returns ``(pdf file or bytes, face key per page or None)`` per document used, and
    the findings by face key."""
    pages, found, _ = render_build(faces, html_for, safe_for, (), scope, cache, workers)
    return pages, found


def render_build(
    faces: Sequence[Face],
    html_for: Callable[[Sequence[Face]], str],
    safe_for: Callable[[Face], tuple[float, float, float, float]],
    documents: Sequence[tuple[str, str]],
    scope: Scope,
    cache: RenderCache,
    workers: int | None = None,
) -> tuple[FacePages, dict[str, list[LayoutFinding]], Documents]:
    """:func:`render_faces`, and (html, what) ``documents`` from the cache too,
    in one pass: whatever the cache lacks, faces and documents alike, is laid
    out together, longest first, so every core stays busy to the end. Returns
    the faces' pages and findings, and each document's PDF bytes with its
    findings (kept in the index beside the faces', so a warm build reports
    them as a cold one does).

    When faces or documents fail to lay out, :class:`RenderFailed` gives
    every failure with the findings of all that did lay out; what did is
    kept in the cache."""
    limit = cache_limit()
    index = cache.face_index()
    work = _work(faces, html_for, documents, scope, cache, index)
    fresh, failed = _lay_out(work, html_for, safe_for, documents, scope, cache, index, workers)
    if failed:
        raise _failed(faces, work, index, failed)
    pages = _documents(faces, work.keys, index)
    out, found = _collect(faces, work.keys, index, pages, cache)
    cache.hits += len(pages.keys() - fresh)
    if work.todo or work.unstored:
        cache.prune(limit, set(pages) | set(work.document_keys))
    return out, found, [(data, work.found[i]) for i, data in enumerate(work.stored) if data is not None]


class RenderFailed(AssetError):
    """Faces or documents of a build that could not be laid out: every one's
    diagnostics (runs of faces first, then documents, in the order asked
    for), with the findings of the rest: ``faces`` by face key (the faces that
    laid out) and ``documents`` (per document, None where it failed), so the
    build reports the failures and the cards' errors together."""

    def __init__(
        self, diagnostics: Sequence[Diagnostic], faces: dict[str, list[LayoutFinding]] | None = None,
        documents: Sequence[list[LayoutFinding] | None] = (),
    ):
        super().__init__(list(dict.fromkeys(diagnostics)))
        self.faces = faces or {}
        self.documents = tuple(documents)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.diagnostics, self.faces, self.documents))


def _failed(faces: Sequence[Face], work: _Work, index: FaceIndex, failed: dict[int, InputError]) -> RenderFailed:
    """The build's failures, with the findings of every face and document that did lay out."""
    lost = {face.key for number in failed if number < len(work.todo) for face in work.todo[number][0]}
    found = {
        face.key: [LayoutFinding(**f) for f in index[work.keys[face.key]]["findings"]]
        for face in faces if face.key not in lost
    }
    documents = [findings if data is not None else None for data, findings in zip(work.stored, work.found)]
    return RenderFailed([d for number in sorted(failed) for d in failed[number].diagnostics], found, documents)


@dataclass
class _Work:
    """What a build must lay out: the runs of faces the cache cannot give as
    their run's document would, and the documents it does not hold."""

    keys: dict[str, str]
    """Each face's index key, by face key: its identity (the face key, which
    covers its HTML, stylesheets, fonts, art and geometry) in this build's
    frame (the cache key of a document with no face: engine versions and
    every stylesheet the build links, its own components' or not)."""
    todo: list[tuple[list[Face], str]]
    """Runs to lay out, each with its document's key."""
    document_keys: list[str]
    stored: list[bytes | None]
    """Each document's bytes, from the cache or (once laid out) new."""
    found: list[list[LayoutFinding]]
    """Each document's findings, from the index or (once laid out) new."""
    unstored: list[int]


def _work(
    faces: Sequence[Face], html_for: Callable[[Sequence[Face]], str], documents: Sequence[tuple[str, str]],
    scope: Scope, cache: RenderCache, index: FaceIndex,
) -> _Work:
    roots = [root.resolve() for root in scope.roots]
    hashed: dict[Path, str] = {}
    frame = job_key(html_for([]), roots, hashed)
    keys = {face.key: hashlib.sha256(f"{frame} {face.key} {face.component}".encode()).hexdigest() for face in faces}
    runs = face_runs(faces)
    run_keys = [job_key(html_for(run), roots, hashed) for run in runs]
    todo = [
        (run, key) for run, key in zip(runs, run_keys)
        if not all(_cached_at(cache, index, keys[f.key], key, page) for page, f in enumerate(run))
    ]
    missing = sum(len(run) for run, _ in todo)
    cache.face_hits += len(faces) - missing
    cache.face_misses += missing
    document_keys = [job_key(html, roots, hashed) for html, _ in documents]
    found = [_document_findings(index, k) for k in document_keys]
    stored: list[bytes | None] = [cache.get(k) if f is not None else None for k, f in zip(document_keys, found)]
    unstored = [i for i, data in enumerate(stored) if data is None]
    cache.hits += len(documents) - len(unstored)
    return _Work(keys, todo, document_keys, stored, [f or [] for f in found], unstored)


def _document_findings(index: FaceIndex, key: str) -> list[LayoutFinding] | None:
    """A cached document's findings, or None when the index holds none for it
    (or holds them damaged): then the document is laid out again."""
    entry = index.get(key)
    try:
        return [LayoutFinding(**f) for f in entry["findings"]] if isinstance(entry, dict) and entry.get("document") == key else None
    except (TypeError, KeyError):
        return None


def _cached_at(cache: RenderCache, index: FaceIndex, face: str, document: str, page: int) -> bool:
    """Whether the index holds the face with content key ``face`` on ``page``
    of ``document``, the very page its run's document puts it on."""
    return cache.has_face(index, face) and index[face]["document"] == document and index[face]["page"] == page


def _lay_out(
    work: _Work, html_for: Callable[[Sequence[Face]], str], safe_for: Callable[[Face], tuple[float, float, float, float]],
    documents: Sequence[tuple[str, str]], scope: Scope, cache: RenderCache, index: FaceIndex, workers: int | None,
) -> tuple[set[str], dict[int, InputError]]:
    """Lay out what ``work`` lists, longest first, and keep the pages in the
    cache and the index. Returns the keys of the documents made now, and the
    error of each job that failed (runs of faces numbered first, then documents)."""
    chunks = [run for run, _ in work.todo]
    jobs: list[tuple[str, str, list[tuple[float, float, float, float]] | None]] = [
        (html_for(chunk), "card faces", [safe_for(f) for f in chunk]) for chunk in chunks
    ]
    jobs += [(documents[i][0], documents[i][1], None) for i in work.unstored]
    if not jobs:
        return set(), {}
    order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][0]))  # longest first
    keys = [document for _, document in work.todo] + [work.document_keys[i] for i in work.unstored]
    results: dict[int, list[LayoutFinding] | InputError] = {}
    for at, result in enumerate(render_each([jobs[i] for i in order], scope, workers)):  # to the end: the renderer's last word too
        number = order[at]
        if not isinstance(result, InputError):
            cache.put(keys[number], result[0])  # each PDF into the cache as it comes, not all held till the last
            if number >= len(chunks):
                work.stored[work.unstored[number - len(chunks)]] = result[0]
        results[number] = result if isinstance(result, InputError) else result[1]
    failed = {number: result for number, result in results.items() if isinstance(result, InputError)}
    cache.misses += len(jobs)
    fresh: set[str] = set()
    for number, (chunk, document) in enumerate(work.todo):
        findings = results[number]
        if isinstance(findings, InputError):
            continue
        fresh.add(document)
        for page, face in enumerate(chunk):
            index[work.keys[face.key]] = {
                "document": document,
                "page": page,
                "pages": len(chunk),
                "findings": [finding_entry(f, 0) for f in findings if f.page == page],
            }
    for number, i in enumerate(work.unstored, start=len(chunks)):
        findings = results[number]
        if isinstance(findings, InputError):
            continue
        key = work.document_keys[i]
        work.found[i] = findings
        index[key] = {"document": key, "findings": [finding_entry(f, f.page) for f in findings]}
    cache.save_face_index(index)
    return fresh, failed


def _documents(faces: Sequence[Face], keys: dict[str, str], index: FaceIndex) -> dict[str, list[str | None]]:
    """Each run document the faces come from, with the face key on each of its pages."""
    pages: dict[str, list[str | None]] = {}
    for face in faces:
        entry = index[keys[face.key]]
        pages.setdefault(entry["document"], [None] * entry["pages"])[entry["page"]] = face.key
    return pages


def _collect(
    faces: Sequence[Face], keys: dict[str, str], index: FaceIndex, pages: dict[str, list[str | None]], cache: RenderCache
) -> tuple[FacePages, dict[str, list[LayoutFinding]]]:
    """Every face's document (its file, or bytes) and page, and its findings, from the index."""
    found = {face.key: [LayoutFinding(**f) for f in index[keys[face.key]]["findings"]] for face in faces}
    out: FacePages = []
    for document, keyed in pages.items():
        held: Path | bytes | None = cache.located(document) if cache.folder is not None else cache.memory.get(document)
        if held is None:
            raise BuildError(
                f"{cache.folder}: a cached page vanished during the build (another build of the same folder trimming "
                "its cache?); nothing was written: run the build again"
            )
        out.append((held, keyed))
    return out, found

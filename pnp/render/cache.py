"""Rendered pages kept by content: a build renders only what changed.

A job's key is a hash of its HTML, of every file it refers to (stylesheets,
fonts, art, and the files those stylesheets refer to) and of the versions of
pnp, WeasyPrint and the libraries it lays text out with (:func:`engine_versions`). Entries live under ``output/<game>/.cache/``, so
deleting output/ gives a cold build. A build whose pages are all cached never
imports WeasyPrint. A build that laid something out then trims the cache to
:func:`pnp.render.cachelimit.cache_limit`, deleting the pages used longest ago.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from io import BytesIO
from pathlib import Path
from typing import NotRequired, TypedDict

import pikepdf

from pnp import __version__
from pnp.errors import UsageError
from pnp.render.artforms import DRAWING as ARTFORMS
from pnp.render.fontconfig import CONFIG as FONTCONFIG
from pnp.render.libraries import library_versions
from pnp.render.findings import KINDS, Kind, LayoutFinding
from pnp.render.inspect import CHECKS
from pnp.render.references import hashed_references


class FindingEntry(TypedDict):
    """A :class:`pnp.render.findings.LayoutFinding` as the face index keeps it."""

    page: int
    kind: Kind
    element: str
    message: str


def finding_entry(finding: LayoutFinding, page: int) -> FindingEntry:
    """``finding`` for the face index, on ``page`` of its document."""
    return {"page": page, "kind": finding.kind, "element": finding.element, "message": finding.message}


class IndexEntry(TypedDict):
    """An entry of the face index (JSON, read back unchecked: see
    :meth:`RenderCache.has_face`): a face, on ``page`` of its run's document
    of ``pages``, or a document of its own (no ``page``, no ``pages``)."""

    document: str
    findings: list[FindingEntry]
    page: NotRequired[int]
    pages: NotRequired[int]


FaceIndex = dict[str, IndexEntry]
"""The face index: entries by face key (or a document's cache key)."""


@cache
def engine_versions() -> str:
    """What lays pages out, each with its version: the Python packages and
    the system libraries that decide where each glyph lands and how a PDF is
    written, and pnp's font configuration. A change in any of them is a new key."""
    parts = [f"pnp {__version__}"]
    for package in ("weasyprint", "pydyf", "fonttools", "tinycss2", "cssselect2", "tinyhtml5", "pillow"):
        try:
            parts.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            parts.append(f"{package} none")
    parts += [f"{name} {found}" for name, found in library_versions().items()]
    parts.append(f"layout checks {CHECKS}")
    parts.append(ARTFORMS)
    parts.append(f"fontconfig.conf {hashlib.sha256(FONTCONFIG.read_bytes()).hexdigest()[:16]}")
    return "; ".join(parts)


def job_key(html: str, roots: Sequence[Path], memo: dict[Path, str] | None = None) -> str:
    """The render-cache key of laying ``html`` out: its text, every file it
    refers to inside ``roots`` (what the renderer may read) and
    :func:`engine_versions`. ``memo`` keeps each file's hash for one build."""
    memo = {} if memo is None else memo
    digest = hashlib.sha256()
    digest.update(f"{engine_versions()}\n".encode())
    digest.update(html.encode())
    for path, hashed in sorted(hashed_references(html, roots, memo)):
        digest.update(path.as_posix().encode())
        digest.update(hashed.encode())
    return digest.hexdigest()


class RenderCache:
    """PDF bytes by job key, in a folder (or in memory for one build, when
    ``folder`` is None), and the index of which page holds each face."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.hits = 0
        self.misses = 0
        self.face_hits = 0
        self.face_misses = 0
        self.damaged = 0
        """Cached pages found damaged (cut short, or an index entry that makes
        no sense) in this build: dropped and laid out again."""
        self._held: dict[str, bytes | None] = {}
        self._located: dict[str, Path | None] = {}
        self._pages: dict[str, int] = {}
        self.memory: dict[str, bytes] = {}
        """Documents rendered in this build when there is no folder (no cache)."""
        self._index: FaceIndex | None = None
        self._files: dict[str, str] | None = None

    def face_index(self) -> FaceIndex:
        if self._index is None:
            self._index = {}
            if self.folder is not None:
                path = self.folder / FACE_INDEX
                try:
                    loaded = json.loads(path.read_text()) if path.is_file() else {}
                    self._index = loaded if isinstance(loaded, dict) else {}
                except ValueError:
                    self._index = {}
        return self._index

    def has_face(self, index: FaceIndex, key: str) -> bool:
        entry = index.get(key)
        if entry is None:
            return False
        if not _sound_entry(entry):
            self.damaged += 1
            del index[key]
            return False
        if self.folder is None:
            return entry["document"] in self.memory
        if self.located(entry["document"]) is None:
            return False
        if self._pages.get(entry["document"]) != entry["pages"]:
            self.damaged += 1
            del index[key]
            return False
        return True

    def save_face_index(self, index: FaceIndex) -> None:
        self._index = index
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._write(FACE_INDEX, json.dumps(index, sort_keys=True).encode())

    def get(self, key: str) -> bytes | None:
        """A cached document, marked as just used (pruning keeps what is used)."""
        if self.folder is None:
            return None
        if key not in self._held:  # read once per build: what was checked is what is used
            self._held[key] = self._read(key)
        return self._held[key]

    def located(self, key: str) -> Path | None:
        """Where a cached document is, checked as :meth:`get` checks it (once
        per build) and marked as just used; its bytes are not kept: the
        imposition reads them when it comes to them (:func:`pnp.pdf.place.face_document`)."""
        if self.folder is None:
            return None
        if key not in self._located:
            found = self._held[key] if key in self._held else self._read(key)
            self._located[key] = None if found is None else self.folder / self._names()[key]
        return self._located[key]

    def _read(self, key: str) -> bytes | None:
        """A cached document's bytes, when whole (its digest and pages check);
        a damaged one is deleted."""
        assert self.folder is not None
        name = self._names().get(key)
        if name is None:
            return None
        path = self.folder / name
        try:
            data: bytes | None = path.read_bytes()
        except OSError:
            return None
        pages = _page_count(data or b"") if _digest(data or b"") == name[-len(".pdf") - DIGEST : -len(".pdf")] else None
        if pages is None:
            self.damaged += 1
            path.unlink(missing_ok=True)
            return None
        self._pages[key] = pages
        try:
            os.utime(path)
        except OSError:  # a read-only cache still serves
            pass
        return data

    def _names(self) -> dict[str, str]:
        """Each cached document's file name by key (listed once per build)."""
        if self._files is None:
            self._files = {}
            try:
                with os.scandir(self.folder or ".") as entries:
                    for entry in entries:
                        key = _key_of(entry.name)
                        if key is not None:
                            self._files[key] = entry.name
            except OSError:
                pass
        return self._files

    def prune(self, limit: int, keep: set[str]) -> int:
        """Delete the documents used longest ago until the cache holds at most
        ``limit`` bytes, never one of ``keep`` (this build's); drop index
        entries whose document is gone. Returns the number deleted."""
        if self.folder is None or not self.folder.is_dir():
            return 0
        held = []
        for entry in os.scandir(self.folder):
            if entry.name.endswith(".pdf") and not entry.name.startswith("."):
                try:
                    stat = entry.stat()
                except FileNotFoundError:  # pruned by another build just now
                    continue
                held.append((stat.st_mtime_ns, stat.st_size, entry.name))
        total = sum(size for _, size, _ in held)
        deleted: set[str] = set()
        for _, size, name in sorted(held):
            if total <= limit:
                break
            key = _key_of(name)
            if key not in keep:
                (self.folder / name).unlink(missing_ok=True)
                deleted.add(key or name)
                total -= size
        if deleted:
            index = self.face_index()
            self.save_face_index({k: v for k, v in index.items() if not (isinstance(v, dict) and v.get("document") in deleted)})
        return len(deleted)

    def put(self, key: str, data: bytes) -> None:
        """Keep a laid-out document: in memory when there is no folder, else
        in its file (and not in memory: :meth:`located` gives its path)."""
        if self.folder is None:
            self.memory[key] = data
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"{key}-{_digest(data)}.pdf"
        former = self._names().get(key)
        self._write(name, data)
        if former not in (None, name):
            (self.folder / str(former)).unlink(missing_ok=True)
        self._names()[key] = name
        self._held.pop(key, None)
        self._located[key] = self.folder / name

    def _write(self, name: str, data: bytes) -> None:
        """``data`` as ``name``, whole or not at all: written beside it, then
        renamed; a write the disk refuses (full) leaves no part behind."""
        assert self.folder is not None
        temporary = self.folder / f".{name}.{os.getpid()}.tmp"
        try:
            temporary.write_bytes(data)
            os.replace(temporary, self.folder / name)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise


FACE_INDEX = "faces.json"
"""The index: by content key, each face's document, page and layout findings,
and each whole document's findings (``{"document": key, "findings": [...]}``),
so a build from the cache reports what the layout found."""

DIGEST = 16
"""Hex digits of a document's SHA-256 in its file name (``<key>-<digest>.pdf``):
a cached document whose bytes no longer match its name is damaged."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:DIGEST]


def _key_of(name: str) -> str | None:
    """The key in a cached document's file name, or None for any other file."""
    if name.startswith(".") or not name.endswith(".pdf"):
        return None
    key, _, digest = name[: -len(".pdf")].rpartition("-")
    return key if key and len(digest) == DIGEST else None


_FINDING_KEYS = {"page", "kind", "element", "message"}


def _sound_entry(entry: object) -> bool:
    """Whether an index entry is one this code wrote: anything else (edited,
    damaged, from another version) is dropped and its face laid out again."""
    if not isinstance(entry, dict) or set(entry) != {"document", "page", "pages", "findings"}:
        return False
    document, page, pages, findings = entry["document"], entry["page"], entry["pages"], entry["findings"]
    return (
        isinstance(document, str) and re.fullmatch(r"[0-9a-f]{64}", document) is not None
        and type(page) is int and type(pages) is int and 0 <= page < pages <= 100_000
        and isinstance(findings, list)
        and all(isinstance(f, dict) and set(f) == _FINDING_KEYS and f["kind"] in KINDS for f in findings)
    )


def _page_count(data: bytes) -> int | None:
    """The pages of a cached PDF, or None when it is not whole: cut short
    (no %%EOF at its end) or not a PDF pikepdf reads without repairing.
    Counted once per content in a process (``pnp watch`` rebuilds often)."""
    if not (data.startswith(b"%PDF-") and b"%%EOF" in data[-1024:]):
        return None
    digest = hashlib.sha256(data).digest()
    if digest in _COUNTED:
        return _COUNTED[digest]
    try:
        with pikepdf.open(BytesIO(data), attempt_recovery=False) as pdf:
            pages = len(pdf.pages)
    except pikepdf.PdfError:
        return None
    _COUNTED[digest] = pages
    return pages


_COUNTED: dict[bytes, int] = {}

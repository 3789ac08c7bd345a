"""Rendered pages kept by content: a build renders only what changed.

A job's key is a hash of its HTML, of every file it refers to (stylesheets,
fonts, art, and the files those stylesheets refer to) and of the pnp and
WeasyPrint versions. Entries live under ``output/<game>/.cache/``, so
deleting output/ gives a cold build. A build whose pages are all cached never
imports WeasyPrint.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from urllib.parse import unquote, urlparse

from pnp import __version__

_URI = re.compile(r"file://[^\s\"')]+")
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
_FILE_HASHES: dict[tuple[str, int, int], str] = {}


def _file_hash(path: Path, seen: set[Path]) -> str:
    """A file's hash, and for a stylesheet the hashes of what it refers to."""
    if path in seen:
        return ""
    seen.add(path)
    try:
        stat = path.stat()
    except OSError:
        return "missing"
    memo = (str(path), stat.st_mtime_ns, stat.st_size)
    digest = _FILE_HASHES.get(memo)
    if digest is None:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        _FILE_HASHES[memo] = digest
    if path.suffix == ".css":
        text = path.read_text(errors="replace")
        for ref in _CSS_URL.findall(text):
            parsed = urlparse(ref)
            target = Path(unquote(parsed.path)) if parsed.scheme == "file" else (path.parent / ref)
            if parsed.scheme in ("", "file"):
                digest += _file_hash(target.resolve(), seen)
    return digest


def _engine_version() -> str:
    try:
        return version("weasyprint")
    except PackageNotFoundError:
        return "unknown"


def job_key(html: str) -> str:
    digest = hashlib.sha256()
    digest.update(f"pnp {__version__}; weasyprint {_engine_version()}\n".encode())
    digest.update(html.encode())
    seen: set[Path] = set()
    for uri in sorted(set(_URI.findall(html))):
        path = Path(unquote(urlparse(uri).path))
        digest.update(uri.encode())
        digest.update(_file_hash(path, seen).encode())
    return digest.hexdigest()


class RenderCache:
    """PDF bytes by job key, in a folder (or nowhere, when ``folder`` is None)."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> bytes | None:
        if self.folder is None:
            return None
        path = self.folder / f"{key}.pdf"
        return path.read_bytes() if path.is_file() else None

    def put(self, key: str, data: bytes) -> None:
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        temporary = self.folder / f".{key}.{os.getpid()}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, self.folder / f"{key}.pdf")


def render_cached(jobs: Sequence[tuple[str, str]], roots: Sequence[Path], cache: RenderCache) -> list[bytes]:
    """Like :func:`pnp.render.weasy.render_pdfs`, rendering only jobs not cached."""
    keys = [job_key(html) for html, _ in jobs]
    found: list[bytes | None] = [cache.get(k) for k in keys]
    missing = [i for i, data in enumerate(found) if data is None]
    cache.hits += len(jobs) - len(missing)
    cache.misses += len(missing)
    if missing:
        from pnp.render.weasy import render_pdfs

        for i, data in zip(missing, render_pdfs([jobs[i] for i in missing], roots)):
            cache.put(keys[i], data)
            found[i] = data
    return [data for data in found if data is not None]

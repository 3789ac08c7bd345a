"""The files a document refers to, and keys that do not depend on where they lie.

A face's identity (its key, the hash on its build stamp, what ``pnp diff``
compares) and a document's render-cache key are hashes of its HTML and of
the files it refers to. The HTML names those files by absolute ``file://``
URI; :func:`portable` writes each allowed root as a label instead, so the same
game folder gives the same keys, and the same PDF bytes, wherever it (or the
checkout) lies.

Only regular files inside the allowed roots are ever opened here: anything
else (a path outside them, a FIFO, a device) hashes as refused without being
read, and the renderer then refuses it with a message naming it.
"""

from __future__ import annotations

import hashlib
import re
import stat
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from pnp.paths import confined

FILE_URI = re.compile(r"file://[^\s\"')<>]+")
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
_HASHES: dict[tuple[str, int, int], str] = {}


def referenced(html: str) -> list[Path]:
    """Every file ``html`` names by ``file://`` URI, in order, once each."""
    return list(dict.fromkeys(_uri_path(uri) for uri in dict.fromkeys(FILE_URI.findall(html))))


@lru_cache(maxsize=4096)
def _uri_path(uri: str) -> Path:
    """The path a ``file://`` URI names (faces repeat the same few URIs)."""
    return Path(unquote(urlparse(uri).path))


def file_hash(path: Path, roots: Sequence[Path], seen: set[Path] | None = None) -> str:
    """``path``'s content hash, and for a stylesheet the hashes of the files
    it refers to; ``refused`` for anything but a regular file inside ``roots``
    (never opened), ``missing`` for a file that is not there."""
    seen = set() if seen is None else seen
    real = confined(path, roots)
    if real is None:
        return "refused"
    if real in seen:
        return ""
    seen.add(real)
    try:
        info = real.stat()
    except (OSError, ValueError):
        return "missing"
    if not stat.S_ISREG(info.st_mode):
        return "refused"
    memo = (str(real), info.st_mtime_ns, info.st_size)
    digest = _HASHES.get(memo)
    if digest is None:
        digest = hashlib.sha256(real.read_bytes()).hexdigest()
        _HASHES[memo] = digest
    if real.suffix == ".css":
        for ref in _CSS_URL.findall(real.read_text(errors="replace")):
            parsed = urlparse(ref)
            if parsed.scheme in ("", "file"):
                target = Path(unquote(parsed.path)) if parsed.scheme == "file" else real.parent / unquote(parsed.path)
                digest += file_hash(target, roots, seen)
    return digest


def portable(html: str, labels: Sequence[tuple[str, Path]]) -> str:
    """``html`` with each labelled root's URI (and path) written as its label
    (``pnp-game:/art/x.svg``): the longest roots first, since one may lie
    inside another (pnp's own resources inside a checkout)."""
    for written, label in _replacements(tuple(labels)):
        html = html.replace(written, label)
    return html


@lru_cache(maxsize=64)
def _replacements(labels: tuple[tuple[str, Path], ...]) -> list[tuple[str, str]]:
    """What :func:`portable` replaces, worked out once per set of roots."""
    out = []
    for label, root in sorted(labels, key=lambda item: -len(str(item[1]))):
        out += [(root.as_uri(), f"pnp-{label}:"), (str(root), f"pnp-{label}:")]
    return out

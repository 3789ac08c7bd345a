"""The files a document refers to, and keys that do not depend on where they lie.

A face's identity (its key, the hash on its build stamp, what ``pnp diff``
compares) and a document's render-cache key are hashes of its HTML and of
the files it refers to. The HTML names those files by absolute ``file://``
URI (or relative to the game folder, which the renderer reads them from);
:func:`portable` writes each allowed root as a label instead, so the same
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
from urllib.parse import unquote, urljoin, urlparse

from pnp.paths import confined

FILE_URI = re.compile(r"file://[^\s\"')<>]+")
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
_CSS_IMPORT = re.compile(r"@import\s+['\"]([^'\"]+)['\"]")
_ATTRIBUTE = re.compile(r"\b(?:src|href)\s*=\s*['\"]([^'\"]+)['\"]")
_NAMES = {".css": (_CSS_URL, _CSS_IMPORT), ".svg": (_CSS_URL, _ATTRIBUTE)}
"""How a stylesheet (``url()``, ``@import "x.css"``) and a picture (``href``,
``url()`` in its styles) name the files the renderer reads with them."""
_HASHES: dict[tuple[str, int, int], tuple[str, tuple[Path, ...]]] = {}


def referenced(html: str, base: Path | None = None) -> list[Path]:
    """Every file ``html`` names by ``file://`` URI, in order, once each;
    with ``base`` (the folder relative URLs are read from), then also each
    file a ``src`` or ``href`` attribute or a ``url()`` names relative to it."""
    uris = FILE_URI.findall(html)
    if base is not None:
        prefix = base.as_uri() + "/"
        relative = (ref for pattern in (_ATTRIBUTE, _CSS_URL) for ref in pattern.findall(html))
        uris += [urljoin(prefix, ref.strip()) for ref in relative if not ref.startswith(("#", "file:", "data:"))]
    return list(dict.fromkeys(_uri_path(uri) for uri in dict.fromkeys(uris) if uri.startswith("file:")))


@lru_cache(maxsize=4096)
def _uri_path(uri: str) -> Path:
    """The path a ``file://`` URI names (faces repeat the same few URIs)."""
    return Path(unquote(urlparse(uri).path))


def hashed_references(text: str, roots: Sequence[Path], memo: dict[Path, str]) -> list[tuple[Path, str]]:
    """Each file ``text`` names (:func:`referenced`, relative URLs from the
    first of ``roots``, the game folder, as the renderer reads them), in
    order, with its :func:`file_hash`; ``memo`` keeps each file's hash for
    one build, so a font or a picture many faces show is read once."""
    out = []
    for path in referenced(text, roots[0] if roots else None):
        if path not in memo:
            memo[path] = file_hash(path, roots)
        out.append((path, memo[path]))
    return out


def file_hash(path: Path, roots: Sequence[Path], seen: set[Path] | None = None) -> str:
    """``path``'s content hash, and for a stylesheet or an SVG picture the
    hashes of the files it refers to (:func:`_named`), and theirs in turn;
    ``refused`` for anything but a regular file inside ``roots`` (never
    opened), ``missing`` for a file that is not there. Each content is read
    once per process (by path, time and size)."""
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
    if memo not in _HASHES:
        data = real.read_bytes()
        _HASHES[memo] = (hashlib.sha256(data).hexdigest(), _named(real, data))
    digest, named = _HASHES[memo]
    for target in named:
        digest += file_hash(target, roots, seen)
    return digest


def _named(real: Path, data: bytes) -> tuple[Path, ...]:
    """The local files a stylesheet or an SVG picture (``real``, holding
    ``data``) names: its fonts, pictures and imported stylesheets, relative
    ones from its own folder; none for any other file, a link within itself
    (``#id``) or a URL."""
    patterns = _NAMES.get(real.suffix.lower())
    if patterns is None:
        return ()
    text = data.decode(errors="replace")
    out = []
    for ref in (ref.strip() for pattern in patterns for ref in pattern.findall(text)):
        parsed = urlparse(ref)
        if parsed.scheme in ("", "file") and parsed.path:
            out.append(Path(unquote(parsed.path)) if parsed.scheme == "file" else real.parent / unquote(parsed.path))
    return tuple(out)


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

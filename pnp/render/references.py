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

from pnp.errors import Diagnostic, Source
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


class Refused(Exception):
    """A URL the renderer may not read."""


class Missing(Refused):
    """A URL naming a file that is not there."""


def allowed_file(url: str, roots: Sequence[Path]) -> Path:
    """The file ``url`` names, when the renderer may read it: a regular file
    whose real location lies inside ``roots``; else :class:`Refused`, saying why."""
    parsed = urlparse(url)
    if parsed.scheme != "file":
        raise Refused(f"{url!r}: only local files may be used; the renderer fetches nothing from the network")
    path = confined(Path(unquote(parsed.path)), roots)
    if path is None:
        raise Refused(f"{url!r} lies outside the game folder, the project's templates/, fonts/ and art/, and pnp's own resources")
    if not path.is_file():
        if path.exists():
            raise Refused(f"{url!r} is not a regular file (a device or a pipe?)")
        raise Missing(f"{url!r}: no such file")
    return path


_CSS_REFERENCE = re.compile(r"""url\(\s*(['"]?)([^'")]*)\1\s*\)|@import\s+(['"])([^'"]+)\3""")
_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.DOTALL)


def stylesheet_refusals(html: str, roots: Sequence[Path]) -> list[Diagnostic]:
    """Each ``url()`` or ``@import`` in the stylesheets ``html`` links to (and
    in those they import) that names a file the renderer may not read, at its
    stylesheet's line: refused whether or not a rule that uses it applies (the
    renderer reads only what a page draws). A file that is merely missing is
    left to the renderer, which reports it when a page needs it."""
    out: list[Diagnostic] = []
    seen: set[Path] = set()
    for path in referenced(html):
        if path.suffix == ".css":
            _refusals_in(path, roots, seen, out)
    return out


def _refusals_in(sheet: Path, roots: Sequence[Path], seen: set[Path], out: list[Diagnostic]) -> None:
    try:
        real = allowed_file(sheet.as_uri(), roots)
    except Refused:
        return  # the renderer refuses the stylesheet itself
    if real in seen:
        return
    seen.add(real)
    text = real.read_text(encoding="utf-8", errors="replace")
    text = _CSS_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)  # same lines and columns, no comments
    for match in _CSS_REFERENCE.finditer(text):
        reference = (match.group(2) if match.group(2) is not None else match.group(4)).strip()
        if not reference or reference.startswith("#") or urlparse(reference).scheme == "data":
            continue  # an element of the page (an SVG filter), or data written in place
        url = urljoin(sheet.as_uri(), reference)
        try:
            target = allowed_file(url, roots)
        except Missing:
            continue
        except Refused as exc:
            line = text.count("\n", 0, match.start()) + 1
            col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            out.append(Diagnostic(Source(sheet, line, col), "", f"refused to read {exc}"))
            continue
        if target.suffix == ".css":
            _refusals_in(target, roots, seen, out)

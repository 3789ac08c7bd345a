"""A home build with nothing changed since the last one: said, not redone.

As ``make`` or ``ninja`` do, a home build records what it was made from (in
``.cache/fresh.json`` in the game's output folder): a key over every input,
the report it printed, and each file it wrote with its size and
modification time. The next build of the same game into the same folder
works out the key again; when it is the same and every file is still as
written, the build prints the recorded report and stops, without reading the
cards, checking them or planning a sheet.

The key covers everything a home build's bytes depend on:

- every file under the folders the build may read (:func:`pnp.paths.readable`:
  the game folder, the folders it shares, the project's ``templates/``,
  ``fonts/`` and ``art/``, pnp's own resources), by path, size and
  modification time;
- pnp's own code and data (:func:`pnp.output.kept.code_version`, and the presets),
  the Python packages installed beside it, and the versions of the system
  libraries that lay text out (:func:`pnp.render.libraries.library_versions`);
- the build's date (its stamp), the project (:data:`pnp.paths.HOME`), the
  command's options and the game and output folders. (No ``PNP_*`` setting
  changes what a home build writes.)

A build is recorded only when no input was modified in the two seconds before
it started or while it ran (a file system may keep times to the second), so
an edit made during a build is never taken as built. Builds that read a file
from elsewhere (``--changed-since``) and exports are never recorded.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeGuard

from pnp.commit import read_record, write_record

RECORD = Path(".cache") / "fresh.json"
"""The record, relative to the game's output folder."""

MARGIN_NS = 2_000_000_000
"""An input modified this close (ns) before a build started keeps it from being recorded."""


@dataclass(frozen=True)
class Report:
    """What a build printed: standard error's lines, then standard output's,
    the first of them the summary's head (``pnp build`` ends it with the
    time taken and what was laid out)."""

    err: tuple[str, ...]
    out: tuple[str, ...]


def check_fresh(out_dir: Path, game_dir: Path, options: str) -> Report | None:
    """The recorded report, when the last build of ``game_dir`` into
    ``out_dir`` had the same inputs and ``options`` and its files are
    untouched; else None."""
    record = _read(out_dir / RECORD)
    if record is None:
        return None
    roots, files, key, report = record
    if not all(_may_read(Path(root), game_dir) for root in roots):
        return None
    if not all(_same(out_dir / name, stat) for name, stat in files.items()):
        return None
    inputs, _ = _signature(roots, out_dir)
    return report if _key(inputs, options) == key else None


def remember(out_dir: Path, options: str, roots: Sequence[Path], files: Iterable[Path], report: Report, started_ns: int) -> None:
    """Record a build that read from ``roots`` and wrote ``files``, unless an
    input was modified too near or after ``started_ns`` (time.time_ns())."""
    inputs, newest = _signature([str(root) for root in roots], out_dir)
    if newest >= started_ns - MARGIN_NS:
        forget(out_dir)
        return
    written = {}
    try:
        for path in files:
            stat = path.stat()
            written[path.relative_to(out_dir).as_posix()] = [stat.st_size, stat.st_mtime_ns]
    except (OSError, ValueError):  # a file gone already, or written elsewhere: nothing to record
        forget(out_dir)
        return
    data = {
        "roots": [str(root) for root in roots], "files": written, "key": _key(inputs, options),
        "err": list(report.err), "out": list(report.out),
    }
    write_record(json.dumps(data, indent=1).encode(), out_dir / RECORD)


def forget(out_dir: Path) -> None:
    """Drop the record: the folder's files are no longer what it says."""
    (out_dir / RECORD).unlink(missing_ok=True)


def _key(inputs: str, options: str) -> str:
    from pnp.dates import build_date
    from pnp.output.kept import key_of

    return key_of(["fresh 1", _setting(), build_date(), options, inputs])


@cache
def _setting() -> str:
    """What a build's bytes depend on besides its inputs, options and date,
    the same for every game of a command: pnp's presets (its code is in
    :func:`pnp.output.kept.key_of`), the project, the installed packages and
    the text libraries."""
    from pnp.paths import HOME, PRESETS
    from pnp.render.libraries import library_versions

    presets, _ = _signature([str(PRESETS)], None)
    return "\n".join([presets, str(HOME), _installed(), repr(sorted(library_versions().items()))])


def _installed() -> str:
    """The Python packages installed in the site-packages folders pnp imports
    from, by the names of their metadata folders (which carry their versions)
    and of their ``.pth`` files (editable installs)."""
    names = []
    for entry in sys.path:
        if os.path.basename(entry) not in ("site-packages", "dist-packages"):
            continue
        try:
            names += [f"{entry}/{name}" for name in os.listdir(entry) if name.endswith((".dist-info", ".egg-info", ".egg-link", ".pth"))]
        except OSError:
            continue
    return "\n".join(sorted(names))


def _signature(roots: Sequence[str], skip: Path | None) -> tuple[str, int]:
    """Every file under ``roots`` (but not under ``skip``, the output folder,
    nor Python's byte-code caches) by path, size and modification time, and
    the newest modification time among them."""
    lines, newest = [], 0
    for root in roots:
        lines.append(f"root {root}")
        if not os.path.isdir(root):  # a project without templates/, say: nothing to list, nothing opened
            continue
        for path, stat in _walk(root, None if skip is None else str(skip.resolve())):
            lines.append(f"{path} {stat.st_size} {stat.st_mtime_ns}")
            newest = max(newest, stat.st_mtime_ns)
    return "\n".join(lines), newest


def _walk(folder: str, skip: str | None) -> Iterator[tuple[str, os.stat_result]]:
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        if entry.path == skip or entry.name == "__pycache__":
            continue
        if entry.is_dir():
            yield from _walk(entry.path, skip)
        else:
            try:
                yield entry.path, entry.stat()
            except OSError:
                continue


def _same(path: Path, stat: list[int]) -> bool:
    try:
        now = path.stat()
    except OSError:
        return False
    return [now.st_size, now.st_mtime_ns] == stat


def _read(path: Path) -> tuple[list[str], dict[str, list[int]], str, Report] | None:
    """The record, or None when there is none or anything in it is not as
    :func:`remember` writes it (it is read as untrusted)."""
    data = read_record(path)
    roots, files, key, err, out = (data.get(k) for k in ("roots", "files", "key", "err", "out"))
    if not (_strings(roots) and _strings(err) and _strings(out) and isinstance(key, str) and isinstance(files, dict)):
        return None
    for name, stat in files.items():
        if not (isinstance(stat, list) and len(stat) == 2 and all(type(n) is int for n in stat)) or not _inside(name):
            return None
    return roots, files, key, Report(tuple(err), tuple(out))


def _strings(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _may_read(root: Path, game_dir: Path) -> bool:
    """Whether a recorded root is one a build of ``game_dir`` may read: the
    game folder, a folder beside it (one it shares), or one of the project's
    and pnp's own (:data:`pnp.paths.RENDER_ROOTS`)."""
    from pnp.paths import RENDER_ROOTS

    return root.is_absolute() and ".." not in root.parts and (root == game_dir or root.parent == game_dir.parent or root in RENDER_ROOTS)


def _inside(name: str) -> bool:
    """A recorded file's name stays inside the output folder."""
    parts = Path(name).parts
    return bool(parts) and not Path(name).is_absolute() and ".." not in parts


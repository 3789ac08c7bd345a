"""Files a build wrote before from the same inputs, kept instead of written again.

Each PDF a home build imposes or saves is a function of what goes into it
(the face documents, by their content; the front matter; the sheets; the
title) and of the code that writes it. A build records, for each such file,
a key over those inputs and the SHA-256 of the bytes it wrote, in
``.cache/outputs.json`` in its output folder. The next build that works out
the same key for a file, and finds the file still holding those bytes,
leaves it in place (the commit keeps what it does not replace) instead of
writing it again: a warm build with nothing changed writes only its
manifest. A file edited, deleted or damaged since, or a key that differs in
anything, is written again. The record is read as untrusted: anything
unexpected in it counts as no record.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from pnp.commit import read_record

INDEX = Path(".cache") / "outputs.json"
"""The record, relative to the output folder it describes."""


@cache
def code_version() -> str:
    """What writes the files: pnp's own modules (each one's name, size and
    modification time, so an edited checkout is new code), pikepdf and the
    qpdf and zlib under it, and Python's version."""
    import pikepdf

    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(package).as_posix()} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    digest.update(f"pikepdf {pikepdf.__version__}; qpdf {pikepdf.__libqpdf_version__}; zlib {zlib.ZLIB_RUNTIME_VERSION}; {sys.version}".encode())
    return digest.hexdigest()


def key_of(parts: Iterable[bytes | str]) -> str:
    """A key over ``parts`` (each kept apart from the next) and the code version."""
    digest = hashlib.sha256(code_version().encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


class Kept:
    """The record of an output folder's files: which of them a build may keep."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.before = _read(folder / INDEX)
        self.now: dict[str, tuple[str, str]] = {}

    def unchanged(self, target: Path, key: str) -> bool:
        """Whether ``target`` holds what a build with ``key`` writes: the
        record says so and the file still has the recorded bytes. If so, it
        is recorded for this build too."""
        name = self._name(target)
        recorded = self.before.get(name)
        if recorded is None or recorded[0] != key:
            return False
        try:
            data = target.read_bytes()
        except OSError:
            return False
        if hashlib.sha256(data).hexdigest() != recorded[1]:
            return False
        self.now[name] = recorded
        return True

    def written(self, target: Path, key: str, data: bytes) -> None:
        """Record that ``target`` now holds ``data``, written from ``key``."""
        self.now[self._name(target)] = (key, hashlib.sha256(data).hexdigest())

    def record(self) -> bytes:
        """This build's record, for ``folder / INDEX``."""
        return json.dumps({name: list(entry) for name, entry in sorted(self.now.items())}, indent=1).encode() + b"\n"

    def _name(self, target: Path) -> str:
        return target.relative_to(self.folder).as_posix()


def _read(path: Path) -> dict[str, tuple[str, str]]:
    return {
        name: (entry[0], entry[1])
        for name, entry in read_record(path).items()
        if isinstance(entry, list) and len(entry) == 2 and all(isinstance(e, str) for e in entry)
    }

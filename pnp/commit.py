"""The one way a command's results reach its output folder: all together or
not at all, whenever the process dies.

A command holds its folder (:func:`claimed`), writes every file under a
staged name beside its target (:class:`Outputs`), and commits once. The
commit makes the folder's next version beside it (the files kept from the
current version hard-linked, the new ones moved in) and swaps the two
folders in one system call (Linux ``renameat2`` with ``RENAME_EXCHANGE``):
a reader, or a ``kill -9``, sees the old version or the new one, never a
mix. Where the system cannot swap folders, the moves are written down in a
journal first and a build killed halfway through them is completed by the
next one that holds the folder.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pikepdf

STAGED = ".pnp-staged-"
"""Prefix of files being written; they are moved into place only when a whole command succeeded."""

NEXT = ".pnp-next."
"""Prefix of a folder's next version while it is made (``.pnp-next.<random>.<folder name>``), and
of its previous version once swapped out, until it is removed."""

JOURNAL = ".pnp-commit"
"""Where the system cannot swap folders: the moves of a commit under way, (staged, target) name pairs."""

_UMASK = os.umask(0)
os.umask(_UMASK)


def save_pdf(pdf: pikepdf.Pdf, path: Path, min_version: str = "", version: str = "") -> None:
    """Compressed, with object streams, and the same bytes for the same content.
    With ``version`` (below 1.5, as PDF/X-1a asks), exactly that PDF version, so
    without object streams. Written into ``path`` itself (an open file, not a
    name): given a name, pikepdf writes a temporary file of its own beside it
    (``.pikepdf.NAME...``), which a killed build would leave behind under a name
    no staged-file sweep knows."""
    import pikepdf  # here, not at the top: what only reads or writes records never loads it

    with path.open("wb") as file:
        pdf.save(
            file,
            deterministic_id=True,
            compress_streams=True,
            object_stream_mode=pikepdf.ObjectStreamMode.disable if version else pikepdf.ObjectStreamMode.generate,
            min_version=min_version,
            force_version=version,
        )


class Outputs:
    """A command's files, staged beside their targets and committed together.

    With ``root`` (the folder the command holds, every target inside it) the
    commit swaps in a whole new version of that folder; without it (a lone
    file anywhere) each file is moved into place, itself one step."""

    def __init__(self, root: Path | None = None) -> None:
        self._root = root
        self._pending: list[tuple[Path, Path]] = []

    def stage(self, target: Path) -> Path:
        """A staged file for ``target``, for the caller (or a worker) to write."""
        if self._root is not None and self._root not in target.parents:
            raise ValueError(f"{target} lies outside {self._root}")
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f"{STAGED}{target.name}.", dir=target.parent)
        os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; results are ordinary files
        os.close(fd)
        self._pending.append((Path(name), target))
        return Path(name)

    def pdf(self, pdf: pikepdf.Pdf, target: Path, min_version: str = "", version: str = "") -> Path:
        """Stage ``pdf`` for ``target``; returns the staged file (to check it before commit)."""
        temporary = self.stage(target)
        save_pdf(pdf, temporary, min_version, version)
        return temporary

    def data(self, data: bytes, target: Path) -> None:
        self.stage(target).write_bytes(data)

    def commit(self) -> None:
        """Put every staged file in place, in one step when the system can."""
        if self._root is not None and can_swap(self._root.parent):
            _commit_by_swap(self._root, self._pending)
        else:
            _commit_by_moves(self._pending)
        self._pending.clear()

    def discard(self) -> None:
        for temporary, _ in self._pending:
            temporary.unlink(missing_ok=True)
        self._pending.clear()

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, kind: object, value: object, trace: object) -> None:
        self.discard()


def _commit_by_swap(root: Path, pending: list[tuple[Path, Path]]) -> None:
    fresh = Path(tempfile.mkdtemp(prefix=NEXT, suffix=f".{root.name}", dir=root.parent))
    try:
        shutil.copymode(root, fresh)
        _link_tree(root, fresh, {target for _, target in pending})
        for temporary, target in pending:
            place = fresh / target.relative_to(root)
            place.parent.mkdir(parents=True, exist_ok=True)
            os.replace(temporary, place)
        swap(fresh, root)  # the commit: one system call
    finally:
        shutil.rmtree(fresh, ignore_errors=True)  # the previous version, or a next one that failed


def _link_tree(source: Path, target: Path, replaced: set[Path]) -> None:
    """``target`` gets what ``source`` holds (hard links: no bytes copied),
    except staged files and the files about to be replaced."""
    with os.scandir(source) as entries:
        for entry in entries:
            path, there = Path(entry.path), target / entry.name
            if entry.name.startswith(STAGED) or path in replaced:
                continue
            if entry.is_symlink():
                os.symlink(os.readlink(path), there)
            elif entry.is_dir():
                there.mkdir()
                shutil.copymode(path, there)
                _link_tree(path, there, replaced)
            else:
                try:
                    os.link(path, there, follow_symlinks=False)
                except OSError:  # a file system without hard links
                    shutil.copy2(path, there, follow_symlinks=False)


def _commit_by_moves(pending: list[tuple[Path, Path]]) -> None:
    """Move each staged file into place. When all lie in one folder, the
    moves are first written down in a journal (itself moved into place in one
    step), so a build killed halfway through them is completed by the next one
    that holds the folder (:func:`claimed`), never left half old."""
    folders = {target.parent for _, target in pending}
    journal = next(iter(folders)) / JOURNAL if len(folders) == 1 and len(pending) > 1 else None
    if journal is not None:
        moves = [[temporary.name, target.name] for temporary, target in pending]
        staged = journal.with_name(f"{STAGED}{JOURNAL}")
        staged.write_text(json.dumps(moves))
        os.replace(staged, journal)
    for temporary, target in pending:
        os.replace(temporary, target)
    if journal is not None:
        journal.unlink()


_RENAME_EXCHANGE = 2
_swappable: dict[int, bool] = {}


def _renameat2(first: Path, second: Path, flags: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    function = getattr(libc, "renameat2", None)
    if function is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available")
    at_cwd = -100
    if function(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), flags) != 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number), str(first), None, str(second))


def swap(first: Path, second: Path) -> None:
    """Exchange two folders' names in one step."""
    _renameat2(first, second, _RENAME_EXCHANGE)


def can_swap(folder: Path) -> bool:
    """Whether folders inside ``folder`` can be swapped (tried once per file system)."""
    device = os.stat(folder).st_dev
    if device not in _swappable:
        first = Path(tempfile.mkdtemp(prefix=NEXT, suffix=".", dir=folder))  # a version of no folder
        second = Path(tempfile.mkdtemp(prefix=NEXT, suffix=".", dir=folder))
        try:
            swap(first, second)
            _swappable[device] = True
        except OSError:
            _swappable[device] = False
        finally:
            first.rmdir()
            second.rmdir()
    return _swappable[device]


def _finish_commit(folder: Path) -> None:
    """Complete the moves of a journal commit that a killed build left halfway.
    Only plain names inside ``folder`` are moved (the journal is ours, but a
    journal is never trusted to reach elsewhere)."""
    journal = folder / JOURNAL
    try:
        moves = json.loads(journal.read_text())
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        moves = []
    for move in moves if isinstance(moves, list) else []:
        if not (isinstance(move, list) and len(move) == 2 and all(isinstance(n, str) for n in move)):
            continue
        staged, target = move
        if staged.startswith(STAGED) and "/" not in staged + target and target not in ("", ".", ".."):
            try:
                os.replace(folder / staged, folder / target)
            except FileNotFoundError:  # moved before the kill
                pass
    journal.unlink()


def _tidy(folder: Path) -> None:
    """What a killed command left: a journal commit to finish, staged files,
    and a next (or previous) version of the folder beside it."""
    _finish_commit(folder)
    for parent, _, names in os.walk(folder):
        for name in names:
            if name.startswith(STAGED):
                (Path(parent) / name).unlink(missing_ok=True)
    with os.scandir(folder.parent) as entries:
        for entry in entries:
            owner = entry.name[len(NEXT) :].partition(".")[2] if entry.name.startswith(NEXT) else None
            if owner == folder.name:
                shutil.rmtree(entry.path, ignore_errors=True)
            elif owner == "":  # a probe of can_swap, empty
                with suppress(OSError):
                    os.rmdir(entry.path)


@contextmanager
def claimed(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for one writer: a second command writing there waits
    (saying so) until the first is done, so two never mix or delete each
    other's staged files. The lock is the kernel's (``flock`` on the folder
    itself, so no file is left behind): it goes with the process, so a killed
    build never leaves the folder locked. A commit swaps the folder, so a lock
    won on the folder's previous version is let go and taken again. Once
    held, what a killed command left is tidied away (:func:`_tidy`)."""
    while True:
        folder.mkdir(parents=True, exist_ok=True)
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"pnp: waiting for another build writing to {folder} ...", file=sys.stderr, flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        held, now = os.fstat(handle), _stat(folder)
        if now is not None and (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino):
            break
        os.close(handle)  # the folder was swapped while we waited
    try:
        _tidy(folder)
        yield
    finally:
        os.close(handle)  # and with it the lock


def _stat(folder: Path) -> os.stat_result | None:
    try:
        return os.stat(folder)
    except FileNotFoundError:
        return None


def write_atomic(data: bytes, target: Path) -> None:
    """One file, written beside its target and moved into place."""
    with Outputs() as out:
        out.data(data, target)
        out.commit()


def write_record(data: bytes, target: Path) -> None:
    """A file a build keeps for the next one (a hint the next build checks
    before it trusts it), written as :func:`write_atomic` writes, or not at
    all when another command took the folder over meanwhile: a build may
    record after it has let its folder go, and the next holder tidies staged
    files away (:func:`claimed`) or swaps the folder out from under it. A
    record lost only makes the next build do its work again."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(data, target)
    except FileNotFoundError:
        pass


def read_record(path: Path) -> dict[str, object]:
    """A JSON object a build kept for the next one (written with
    :func:`write_record`), or {} when there is none or it is not an object:
    the caller checks every value it takes from it (records are read as untrusted)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}

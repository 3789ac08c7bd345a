"""``pnp watch``: rebuild a game whenever one of its files is saved.

The watcher polls file times and sizes (no extra dependency, works on every
file system) in the game folder and in the project's templates/, art/ and
fonts/. A rebuild runs in this process, so WeasyPrint, the fonts and the
templates stay loaded, and the face cache means an edit lays out only the
faces it changed. Bad input is reported and the watch goes on.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError
from pnp.paths import RENDER_ROOTS
from pnp.words import count, listed

Snapshot = dict[str, tuple[int, int]]
POLL_SECONDS = 0.2
SETTLE_SECONDS = 0.05
"""After a change is seen, wait this long for an editor to finish writing."""


def scratch(name: str) -> bool:
    """An editor's own file beside the one being edited, never part of a game:
    hidden (LibreOffice's ``.~lock.cards.ods#``, vim's swap files), Office's
    ``~$cards.xlsx`` owner file, emacs's ``#cards.yaml#`` and ``cards.yaml~``."""
    return name.startswith((".", "~$")) or name.endswith("~") or (name.startswith("#") and name.endswith("#"))


def snapshot(roots: Iterable[Path], skip: Iterable[Path] = ()) -> Snapshot:
    """(mtime, size) of every file under ``roots``, leaving out ``skip``,
    hidden folders and editors' :func:`scratch` files (opening a workbook
    writes a lock file: no reason to rebuild)."""
    skipped = [s.resolve() for s in skip]
    out: Snapshot = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            here = Path(folder).resolve()
            dirs[:] = [d for d in dirs if not d.startswith(".") and (here / d) not in skipped]
            for name in files:
                if scratch(name):
                    continue
                try:
                    stat = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                out[os.path.join(folder, name)] = (stat.st_mtime_ns, stat.st_size)
    return out


def changed_files(before: Snapshot, after: Snapshot) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


@dataclass(frozen=True)
class Rebuild:
    seconds: float
    cards: tuple[str, ...]
    """component/card of every card whose faces changed (added ones too)."""
    faces: int
    """Faces laid out anew."""
    changed: tuple[str, ...] = ()
    """Names of the files written whose bytes differ from the last build's (new ones too)."""
    same: int = 0
    """Files written again with the very bytes they had: nothing to reprint."""


def _cards(manifest: Path) -> dict[str, tuple[str | None, str | None]]:
    from pnp.output.home.manifest import cards_by_id as by_id

    if not manifest.is_file():
        return {}
    cards = by_id(json.loads(manifest.read_text()))
    return {f"{component}/{card}": (v.get("front"), v.get("back")) for (component, card), v in cards.items()}


def _digests(folder: Path, names: Iterable[str]) -> dict[str, str]:
    """sha256 of each named file in ``folder`` that exists."""
    out = {}
    for name in names:
        try:
            out[name] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        except OSError:
            continue
    return out


def _built_names(manifest: Path) -> list[str]:
    if not manifest.is_file():
        return []
    return [str(f["path"]) for f in json.loads(manifest.read_text()).get("files", ())]


def rebuild(game_dir: Path, papers: list[str], out: Path, stamp: bool) -> tuple[Rebuild, list[str]]:
    """One in-process build (a home build; ``stamp``: as the home profile
    says, else none); returns what changed and the warnings to show."""
    from pnp.loading.loader import load_game
    from pnp.output.request import Request
    from pnp.output.stage import build

    started = time.perf_counter()
    game = load_game(game_dir)
    folder = out / game.folder_name
    before = _cards(folder / "manifest.json")
    old = _digests(folder, _built_names(folder / "manifest.json"))
    result = build(game, papers, folder, Request(no_stamp=not stamp))
    after = _cards(result.manifest)
    changed = tuple(sorted(k for k, v in after.items() if before.get(k) != v))
    new = _digests(folder, [f.path.name for f in result.files])
    files = tuple(name for name, digest in new.items() if old.get(name) != digest)
    took = time.perf_counter() - started
    warnings = [str(w) for w in (*game.warnings, *result.warnings)]
    return Rebuild(took, changed, result.faces_rendered, files, len(new) - len(files)), warnings


def warm_up() -> None:
    """Load WeasyPrint and lay out a line of text before the first save, so
    the first rebuild is as quick as the later ones (the first build may have
    found every face in the cache and loaded nothing)."""
    from pnp.render.weasy import load_weasyprint, prime

    load_weasyprint()
    prime()


_KINDS = {
    ".css": "stylesheet", ".html": "template", ".htm": "template", ".j2": "template", ".jinja": "template",
    ".svg": "art", ".png": "art", ".jpg": "art", ".jpeg": "art", ".webp": "art",
    ".ttf": "font", ".otf": "font", ".woff": "font", ".woff2": "font",
    ".yaml": "data file", ".yml": "data file", ".csv": "data file", ".tsv": "data file", ".xlsx": "data file", ".ods": "data file",
    ".py": "rules file",
}


def what_changed(files: Sequence[str]) -> str:
    """The saved files in a reader's words: ``stylesheet persuasion.css``, or
    for many, how many and of which kinds."""
    kinds = [_KINDS.get(Path(f).suffix.lower(), "file") for f in files]
    if len(files) <= 3:
        return listed([f"{kind} {Path(f).name}" for kind, f in zip(kinds, files)])
    return f"{count(len(files), 'file')} ({', '.join(sorted(set(kinds)))})"


def describe(result: Rebuild, touched: Sequence[str] = ()) -> str:
    """One line on a rebuild; ``touched``: the files whose save started it."""
    took = f"rebuilt in {result.seconds:.2f} s"
    files = _files(result)
    if not result.cards:
        if not result.faces:
            return f"{took}: nothing changed; {files}"
        # Faces laid out again, yet no card's identity changed: a new date on the
        # stamps, a stylesheet of another component in the same document, a new pnp.
        cause = what_changed(touched) if touched else "a template, stylesheet, art or font file"
        return f"{took}: {cause} changed: {count(result.faces, 'face')} laid out again; {files}; no card data changed"
    if len(result.cards) <= 6:
        what = f"{count(len(result.cards), 'card')} changed: {', '.join(result.cards)}"
    else:
        what = f"{len(result.cards)} cards changed: {', '.join(result.cards[:5])} and {len(result.cards) - 5} more"
    return f"{took}: {what}; {count(result.faces, 'face')} laid out; {files}"


def _files(result: Rebuild) -> str:
    """Which files to print again: ``1 file changed: x.pdf (2 the same)``."""
    if not result.changed:
        return f"no file changed ({count(result.same, 'file')} the same)" if result.same else "no file written"
    names = listed(list(result.changed)) if len(result.changed) <= 3 else f"{', '.join(result.changed[:2])} and {len(result.changed) - 2} more"
    same = f" ({result.same} the same)" if result.same else ""
    return f"{count(len(result.changed), 'file')} changed: {names}{same}"


def watch(
    game_dir: Path,
    papers: list[str],
    out: Path,
    stamp: bool,
    say: Callable[[str], None],
    warn: Callable[[str], None],
    builds: int | None = None,
) -> None:
    """Build once, then again after every change, until interrupted (or
    ``builds`` rebuilds). Stylesheets stay parsed between rebuilds until saved
    (:func:`pnp.render.sheets.session`)."""
    from pnp.render.sheets import session

    with session():
        roots = [game_dir, *RENDER_ROOTS]
        skip = [out]

        def attempt(touched: Sequence[str] = ()) -> None:
            try:
                result, warnings = rebuild(game_dir, papers, out, stamp)
            except PnpError as exc:
                warn(exc.format_message())
                say("not rebuilt: fix the problem above and save again")
                return
            for line in warnings:
                warn(line)
            say(describe(result, touched))

        attempt()
        seen = snapshot(roots, skip)  # before warming up: a save meanwhile is seen at the first poll
        warm_up()
        say(f"watching {game_dir} (and templates/, art/, fonts/); Ctrl-C stops")
        done = 0
        while builds is None or done < builds:
            time.sleep(POLL_SECONDS)
            now = snapshot(roots, skip)
            if now == seen:
                continue
            time.sleep(SETTLE_SECONDS)
            now = snapshot(roots, skip)
            files = changed_files(seen, now)
            seen = now
            say(f"changed: {', '.join(_short(f) for f in files[:3])}{' ...' if len(files) > 3 else ''}")
            attempt(files)
            done += 1


def _short(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path

"""A game's folder, its engine, and the pnp command run on it, for its tests.

A game's tests name their game by its folder (:func:`game_folder` of the test
file), so they travel with it: copied into another project, or anywhere,
they test the same folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Protocol

from pnp.model import Game

Runner = Callable[[tuple[str, ...], Path, float], "subprocess.CompletedProcess[str]"]
"""How :func:`run_pnp` runs a command: (arguments, folder, timeout) -> its result."""

DATE = "1767225600"
"""The one build date of every test build (2026-01-01): stamps do not change by the day."""


def game_folder(test_file: str | Path) -> Path:
    """The game folder a test file lies in: the nearest folder above it
    holding a game.yaml."""
    here = Path(test_file).resolve()
    for folder in here.parents:
        if (folder / "game.yaml").is_file():
            return folder
    raise LookupError(f"no game.yaml in any folder above {here}")


def load(game: str | Path) -> Game:
    """A game, loaded and checked as ``pnp build`` loads it: a folder, or a
    name under the project's card_data/."""
    from pnp.loading.loader import load_game, resolve_game_dir

    return load_game(resolve_game_dir(str(game)))


def engine(game: str | Path, package: str = "rules") -> tuple[ModuleType, Game]:
    """A game's engine (its rules package, loaded as pnp loads it: its
    modules hang from it) and the game itself, from one load."""
    from pnp.engine.plugins import load_folder

    loaded = load(game)
    return load_folder(loaded, package), loaded


def copy_game(game: str | Path, target: Path, ignore: tuple[str, ...] = ("__pycache__",)) -> Path:
    """A copy of a game folder at ``target``, and beside it a copy of each
    folder it shares (``shared:`` in its game.yaml), so the copy builds as
    the original does; ``ignore``: names left out (``tests``). ``target``."""
    import shutil

    from pnp.loading.loader import resolve_game_dir
    from pnp.loading.shared import shared_folders_of

    source = resolve_game_dir(str(game))
    skip = shutil.ignore_patterns(*ignore)
    shutil.copytree(source, target, ignore=skip)
    for folder in shared_folders_of(source):
        shutil.copytree(folder, target.parent / folder.name, ignore=skip, dirs_exist_ok=True)
    return target


def hermetic() -> None:
    """What the machine or its user has kept out of every test and the
    commands it runs (each inherits the environment): one time zone and
    locale, one build date, and a home and temporary folder of the run's own
    (no user fonts, no caches from earlier runs). Call it once, from a
    conftest.py, before any test runs; a second call changes nothing."""
    if os.environ.get("PNP_TESTING_RUN"):
        return
    run = Path(tempfile.mkdtemp(prefix="pnp-tests-"))
    (run / "home").mkdir()
    (run / "tmp").mkdir()
    os.environ.update(
        TZ="UTC", LC_ALL="C.UTF-8", LANG="C.UTF-8", HOME=str(run / "home"), TMPDIR=str(run / "tmp"), PNP_TESTING_RUN=str(run)
    )
    os.environ.setdefault("SOURCE_DATE_EPOCH", DATE)
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "LANGUAGE"):
        os.environ.pop(name, None)
    time.tzset()
    tempfile.tempdir = None  # asked again: the run's own folder
    import atexit
    import shutil

    atexit.register(shutil.rmtree, run, True)


def _plain(args: tuple[str, ...], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, cwd=cwd, timeout=timeout)


_runner: list[Runner] = [_plain]


def use_runner(runner: Runner) -> None:
    """Run every later :func:`run_pnp` command through ``runner`` (pnp's own
    test suite watches what each one reads, tests/audit.py)."""
    _runner[0] = runner


def run_pnp(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``pnp ARGS`` in a fresh process, run in ``cwd`` (the current folder if
    None); a hang fails at ``timeout`` seconds. Nothing is raised for a
    failing command: the test reads its return code and output."""
    return _runner[0](args, cwd or Path.cwd(), timeout)


def score(game: str | Path, table: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``pnp score GAME TABLE [OPTIONS] --trust-rules``: a table of hands
    scored by the game's engine. The game's tests already run its code, so the
    engine is trusted wherever the folder is (a copy outside any project too)."""
    return run_pnp("score", str(game), str(table), *options, "--trust-rules")


class Folders(Protocol):
    """Where builds go: pytest's ``tmp_path_factory``."""

    def mktemp(self, basename: str, numbered: bool = True) -> Path: ...


_BUILT: dict[tuple[Path, tuple[str, ...]], tuple[Path, str]] = {}


def build_once(folders: Folders, game: str | Path, *options: str) -> tuple[Path, str]:
    """``pnp build GAME --strict [OPTIONS]`` once per test run, whichever test
    asks first: its output folder for the game and all it printed. With
    --strict no face may have a layout finding (text overflowing, outside
    the safe zone, over other text, under art)."""
    from pnp.loading.loader import resolve_game_dir

    folder = resolve_game_dir(str(game))
    key = (folder, options)
    if key not in _BUILT:
        out = folders.mktemp(f"out-{folder.name}")
        result = run_pnp("build", str(folder), "--strict", *options, "--out", str(out))
        assert result.returncode == 0, result.stderr
        _BUILT[key] = (out / folder.name, result.stdout + result.stderr)
    return _BUILT[key]

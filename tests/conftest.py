"""Shared fixtures: a real build of the shipped B04 deck, made once per session."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.audit import allowed_for, audited, outside
from hypothesis import settings

# CI tries the same examples for the same commit (a property test that found
# nothing yesterday cannot fail a later run of the same code); a developer's
# run explores new examples each time and keeps the failures it finds.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Every build in the tests has one fixed date (2026-01-01), so build stamps and
# reference images do not change from day to day.
os.environ.setdefault("SOURCE_DATE_EPOCH", "1767225600")


def _hermetic() -> None:
    """What the machine or its user has must not show in a test: one time
    zone and locale, and a home and temporary folder of the run's own (no
    user fonts, no caches from earlier runs, such as compiled templates).
    Set before any test runs, so every process a test starts inherits it.
    pnp itself never lets the machine's fonts into a layout, and `make test`
    runs everything else (pdftoppm ...) with no machine fonts either
    (FONTCONFIG_FILE)."""
    run = Path(tempfile.mkdtemp(prefix="pnp-tests-"))
    (run / "home").mkdir()
    (run / "tmp").mkdir()
    os.environ.update(TZ="UTC", LC_ALL="C.UTF-8", LANG="C.UTF-8", HOME=str(run / "home"), TMPDIR=str(run / "tmp"))
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "LANGUAGE"):
        os.environ.pop(name, None)
    time.tzset()
    tempfile.tempdir = None  # asked again: the run's own folder
    atexit.register(shutil.rmtree, run, True)


_hermetic()

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "mini"


def run_pnp(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a fresh process (a hang fails the test at
    ``timeout``), watched by the audit hook: whatever the command's outcome,
    it must have opened nothing outside the places its arguments name and
    pnp's own, and connected to nothing (tests/audit.py)."""
    where = cwd or ROOT
    fd, log = tempfile.mkstemp(prefix="audit-", suffix=".log")
    os.close(fd)
    allowed = allowed_for(list(args), where)  # before the command makes what it names
    seen = audited(list(args), where, Path(log), timeout)
    assert seen.connected == (), f"pnp {' '.join(args)} connected to {seen.connected}"
    strays = outside(seen.opened, allowed, where)
    assert strays == [], f"pnp {' '.join(args)} opened outside the places it may read: {strays}"
    return seen.result


def tool(name: str) -> str:
    """An independent checking tool; CI installs them (scripts/system-deps.sh test)."""
    path = shutil.which(name)
    assert path, f"{name} is not installed: run scripts/system-deps.sh test"
    return path


_SHIPPED: dict[str, Path] = {}


def _shipped_build(factory: pytest.TempPathFactory, game: str) -> Path:
    """Each shipped game built once per test run, whichever folder's tests
    ask first (a game's own tests import these fixtures from here), with
    --strict: no shipped face may have a layout finding (text overflowing,
    outside the safe zone, over other text, under art)."""
    if game not in _SHIPPED:
        out = factory.mktemp(f"out-{game}")
        result = run_pnp("build", game, "--strict", "--out", str(out))
        assert result.returncode == 0, result.stderr
        _SHIPPED[game] = out / game
    return _SHIPPED[game]


@pytest.fixture(scope="session")
def b04_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """output folder of `pnp build persuasion-b04` (A4 and Letter)."""
    return _shipped_build(tmp_path_factory, "persuasion-b04")


@pytest.fixture(scope="session")
def d01_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """output folder of `pnp build persuasion-d01` (A4 and Letter)."""
    return _shipped_build(tmp_path_factory, "persuasion-d01")


@pytest.fixture(scope="session")
def partisan_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """output folder of `pnp build partisan` (A4 and Letter)."""
    return _shipped_build(tmp_path_factory, "partisan")


@pytest.fixture(scope="session")
def b04_manifest(b04_build: Path) -> dict:
    return json.loads((b04_build / "manifest.json").read_text())


@pytest.fixture
def mini_copy(tmp_path: Path) -> Path:
    """A writable copy of the tiny valid game."""
    target = tmp_path / "mini"
    shutil.copytree(MINI, target)
    return target

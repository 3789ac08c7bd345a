"""Shared fixtures: a real build of the shipped B04 deck, made once per session."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from pnp.testing import build_once, hermetic, tool, use_runner  # noqa: F401  (tool: for tests/)
from tests.audit import allowed_for, audited, outside
from hypothesis import settings

# CI tries the same examples for the same commit (a property test that found
# nothing yesterday cannot fail a later run of the same code); a developer's
# run explores new examples each time and keeps the failures it finds.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# One time zone, locale, build date (2026-01-01: build stamps and reference
# images do not change from day to day) and a home and temporary folder of
# the run's own, for every test and every process it starts (pnp.testing).
# pnp itself never lets the machine's fonts into a layout, and `make test`
# runs everything else (pdftoppm ...) with no machine fonts either
# (FONTCONFIG_FILE).
hermetic()

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "mini"


def run_pnp(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a fresh process (a hang fails the test at
    ``timeout``), watched by the audit hook: whatever the command's outcome,
    it must have opened nothing outside the places its arguments name and
    pnp's own, and connected to nothing (tests/audit.py)."""
    return _audited(args, cwd or ROOT, timeout)


def _audited(args: tuple[str, ...], where: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    fd, log = tempfile.mkstemp(prefix="audit-", suffix=".log")
    os.close(fd)
    allowed = allowed_for(list(args), where)  # before the command makes what it names
    seen = audited(list(args), where, Path(log), timeout)
    assert seen.connected == (), f"pnp {' '.join(args)} connected to {seen.connected}"
    strays = outside(seen.opened, allowed, where)
    assert strays == [], f"pnp {' '.join(args)} opened outside the places it may read: {strays}"
    return seen.result


use_runner(_audited)  # the games' own tests' commands (pnp.testing.run_pnp) are audited too


def _shipped_build(factory: pytest.TempPathFactory, game: str) -> Path:
    """Each shipped game built once per test run (both papers, --strict),
    shared with the game's own tests (pnp.testing.build_once)."""
    return build_once(factory, game)[0]


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

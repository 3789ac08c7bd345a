"""Persuasion B04's tests: the environment every test runs in, and the build they share (pnp.testing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.testing import build_once, game_folder, hermetic

hermetic()  # one time zone, locale, build date, home: before any test runs
GAME = game_folder(__file__)


@pytest.fixture(scope="session")
def b04_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of `pnp build persuasion-b04` (A4 and Letter), built once per test run."""
    return build_once(tmp_path_factory, GAME)[0]


@pytest.fixture(scope="session")
def b04_manifest(b04_build: Path) -> dict[str, object]:
    manifest: dict[str, object] = json.loads((b04_build / "manifest.json").read_text())
    return manifest

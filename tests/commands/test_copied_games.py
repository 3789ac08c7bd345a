"""Every shipped game is one folder that builds anywhere: copied alone (with
the folders beside it its game.yaml shares) into an empty folder outside any
project, it builds the same PDF bytes as in the project (issue 39).

One paper (A4); the project's builds are the session's shared ones."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, run_pnp

GAMES = ["persuasion-b04", "persuasion-d01", "partisan", "i-am-thou", "courting-season"]
FIXTURES = {"persuasion-b04": "b04_build", "persuasion-d01": "d01_build", "partisan": "partisan_build"}
"""The session's builds of the project's games (both papers) this test reuses."""


def copy_alone(game: str, into: Path) -> Path:
    """``card_data/<game>`` and each folder it shares, copied into ``into``
    (an empty folder); the copied game folder."""
    source = ROOT / "card_data" / game
    shared = yaml.safe_load((source / "game.yaml").read_text()).get("shared") or []
    for folder in [game, *(Path(name).name for name in shared)]:
        shutil.copytree(ROOT / "card_data" / folder, into / folder, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return into / game


def test_the_shipped_games_are_the_ones_checked_here() -> None:
    from pnp.loading.loader import shipped_games

    assert shipped_games() == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_copied_alone_builds_the_same_bytes(
    game: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    if game in FIXTURES:
        in_project = request.getfixturevalue(FIXTURES[game])
    else:
        out = tmp_path_factory.mktemp(f"project-{game}")
        result = run_pnp("build", game, "--paper", "a4", "--out", str(out))
        assert result.returncode == 0, result.stderr
        in_project = out / game
    empty = tmp_path_factory.mktemp("elsewhere")
    copied = copy_alone(game, empty)
    monkeypatch.setenv("PNP_HOME", str(empty))  # no project: an empty folder, no pnp.toml, no templates/, fonts/ or art/
    out = tmp_path_factory.mktemp(f"copied-{game}")
    result = run_pnp("build", str(copied), "--paper", "a4", "--out", str(out), cwd=empty)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == f"game folder {copied}; project {empty} (PNP_HOME)"
    built = sorted(p.name for p in (out / game).glob("*.pdf"))
    assert built and all(name.endswith("-a4.pdf") for name in built)
    for name in built:
        assert (out / game / name).read_bytes() == (in_project / name).read_bytes(), f"{game}: {name} differs"


def test_no_game_test_imports_the_repository_tests() -> None:
    """A game's tests travel with it: they import pnp.testing, never tests.*
    (docs/testing.md); the engine starter's, which `pnp new` copies, too."""
    folders = [ROOT / "card_data", ROOT / "pnp" / "resources" / "starters"]
    sources = [p for folder in folders for p in folder.rglob("*.py") if "__pycache__" not in p.parts]
    assert any("pnp.testing" in p.read_text() for p in sources)
    offenders = [str(p.relative_to(ROOT)) for p in sources if re.search(r"^\s*(from|import) tests\b", p.read_text(), re.M)]
    assert offenders == []


def test_a_games_own_tests_pass_in_a_copy_of_it_alone(tmp_path: Path) -> None:
    """A game's tests travel with it: Partisan copied alone (with the folder it
    shares) outside any project passes its own tests there, so they read
    nothing of the project's (its example score table is in its folder)."""
    copied = copy_alone("partisan", tmp_path)
    env = {**os.environ, "PNP_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(copied / "tests")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-500:]

"""pnp reads the project it is run in: the nearest folder, the current one or
above it, that holds a pnp.toml (as MkDocs finds mkdocs.yml); with none, the
checkout pnp runs from. Every command that reads a game folder says first,
on stderr, which folder it read and which project, so --json stays JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.testing import copy_game
from tests.conftest import MINI, ROOT, run_pnp
from tests.pdftools import pdftotext


def _project(where: Path, games: dict[str, Path]) -> Path:
    """A project folder: the marker, and ``games`` under card_data/ with the
    folders beside them they share."""
    where.mkdir(parents=True)
    (where / "pnp.toml").write_text("")
    for name, source in games.items():
        copy_game(source, where / "card_data" / name, ("tests", "__pycache__"))
    return where


def test_a_clone_builds_its_own_edit_of_a_game_the_checkout_also_has(tmp_path: Path) -> None:
    """Standing in a clone (here two folders below its root), `pnp build
    partisan` builds the clone's partisan, with the designer's edit, not the
    partisan of the checkout pnp runs from; its first line says so."""
    clone = _project(tmp_path / "clone", {"partisan": ROOT / "card_data" / "partisan"})
    aid = clone / "card_data" / "partisan" / "aid.yaml"
    assert aid.read_text().count("name: Gather\n") == 1
    aid.write_text(aid.read_text().replace("name: Gather\n", "name: Assemble\n"))
    here = clone / "card_data" / "partisan"
    out = tmp_path / "out"
    done = run_pnp("build", "partisan", "--paper", "a4", "--only", "aid", "--no-stamp", "--out", str(out), cwd=here)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == f"game folder {here}; project {clone} (its pnp.toml)", done.stderr
    text = pdftotext(out / "partisan" / "partisan-home-a4.pdf")
    assert "Assemble" in text and "Gather" not in text


COMMANDS = {
    "list": ["list", "mini"],
    "list-json": ["list", "mini", "--json"],
    "check-json": ["check", "mini", "--games", "0", "--json"],
    "cards": ["cards", "mini", "cards", "--to", "output/cards.csv"],
    "proof": ["proof", "mini", "--only", "sleeves", "--dpi", "30"],
    "simulate": ["simulate", "mini", "--players", "2"],  # no engine: an error, after the line
    "score": ["score", "mini", "pnp.toml"],
}


@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_every_command_that_reads_a_game_names_its_folder_first(tmp_path: Path, args: list[str]) -> None:
    project = _project(tmp_path / "designs", {"mini": MINI})
    (project / "output").mkdir()
    done = run_pnp(*args, cwd=project)
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == f"game folder {project / 'card_data' / 'mini'}; project {project} (its pnp.toml)", done.stderr
    if "--json" in args:
        json.loads(done.stdout)


def test_with_no_marker_above_pnp_reads_its_own_games_and_says_where_it_looked(tmp_path: Path) -> None:
    done = run_pnp("list", "partisan", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        f"game folder {ROOT / 'card_data' / 'partisan'}; project {ROOT} (pnp's own checkout: no pnp.toml in {tmp_path} or above it)"
    ), done.stderr
    missing = run_pnp("list", "no-such-game", cwd=tmp_path)
    assert missing.returncode == 2 and f"one of the games in {ROOT / 'card_data'}: " in missing.stderr, missing.stderr


def test_a_project_found_from_the_current_folder_lends_folders_not_trust(tmp_path: Path) -> None:
    """Standing in a project names its games; their engine code still runs
    only when asked, as for any folder that is not one of pnp's own games."""
    project = _project(tmp_path / "downloaded", {"high-card": ROOT / "pnp" / "resources" / "starters" / "engine"})
    done = run_pnp("simulate", "high-card", "--players", "2", "--games", "1", cwd=project)
    assert done.returncode == 2 and "--trust-rules" in done.stderr, done.stderr
    assert done.stderr.splitlines()[0].startswith(f"game folder {project / 'card_data' / 'high-card'}; project {project} ")
    assert run_pnp("simulate", "high-card", "--players", "2", "--games", "1", "--trust-rules", cwd=project).returncode == 0


@pytest.mark.parametrize("failing", [False, True], ids=["list", "check-finding-an-error"])
def test_a_closed_pipe_ends_pnp_quietly(mini_copy: Path, failing: bool) -> None:
    """`pnp list | head`: whatever reads the output stopped; pnp says nothing
    of it and ends with status 1, as click ends a command on a closed pipe,
    also when the command itself ends with a status of its own."""
    if failing:
        game = mini_copy / "game.yaml"
        game.write_text(game.read_text().replace("components:\n", "checks:\n  supply:\n    - {component: sleeves, total_at_least: 5, why: five}\ncomponents:\n", 1))
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before pnp writes a byte
    try:
        command = ["check", str(mini_copy), "--games", "0"] if failing else ["list", str(mini_copy)]
        done = subprocess.run([sys.executable, "-m", "pnp", *command], cwd=ROOT, stdout=writer, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(writer)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"game folder {mini_copy}; project {ROOT} (its pnp.toml)"], done.stderr

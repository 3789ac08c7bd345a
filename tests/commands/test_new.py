"""`pnp new`: each starting point writes a game folder that builds, checks
and (with a rules module) simulates at once; a project finds its game by
name; a bad target or name is refused before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, run_pnp
from tests.pdftools import pdftotext

WORDS = {"poker": ["Lantern", "Swap this card"], "tokens": ["5"], "engine": ["10"], "tarot": ["The Wanderer", "XVII"]}
"""Text each starting point's cards print (what its cards.yaml holds)."""


@pytest.mark.parametrize("starter", sorted(WORDS))
def test_a_new_game_builds_and_checks_at_once(tmp_path: Path, starter: str) -> None:
    folder = tmp_path / "my-game"
    made = run_pnp("new", str(folder), "--starter", starter, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "README.md" in made.stdout and f"pnp build {folder}" in made.stdout
    assert (folder / "README.md").is_file() and "my-game" in (folder / "game.yaml").read_text()
    out = tmp_path / "out"
    built = run_pnp("build", str(folder), "--paper", "a4", "--strict", "--out", str(out), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    text = pdftotext(out / "my-game" / "my-game-home-a4.pdf")
    assert all(word in text for word in WORDS[starter]), text
    checked = run_pnp("check", str(folder), "--games", "50", "--trust-rules", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    if starter == "engine":
        assert "--trust-rules" in made.stdout and "no game was played" not in checked.stdout
        played = run_pnp("simulate", str(folder), "--players", "2", "--games", "50", "--trust-rules", cwd=tmp_path)
        assert played.returncode == 0, played.stderr
        assert "win rate by seat" in played.stdout


def test_a_new_project_names_its_game(tmp_path: Path) -> None:
    project = tmp_path / "studio"
    project.mkdir()  # an empty folder is filled, from inside it too
    made = run_pnp("new", ".", "--project", "--game", "duel", cwd=project)
    assert made.returncode == 0, made.stderr
    assert "cd ." not in made.stdout  # the project is the current folder
    for shared in ("pnp.toml", "templates", "fonts/README.md", "art", "card_data/duel/game.yaml"):
        assert (project / shared).exists(), shared
    built = run_pnp("build", "duel", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert built.returncode == 0, built.stderr
    assert built.stderr.splitlines()[0] == f"game folder {project / 'card_data' / 'duel'}; project {project} (its pnp.toml)"


def test_a_bare_name_inside_a_project_is_its_next_game_and_a_path_stays_a_path(tmp_path: Path) -> None:
    """From a subfolder of a project, `pnp new second` writes card_data/second
    (so `pnp build second` finds it by name from anywhere in the project);
    `pnp new ./loose` writes where the path points."""
    project = tmp_path / "studio"
    project.mkdir()
    assert run_pnp("new", ".", "--project", "--game", "duel", cwd=project).returncode == 0
    inside = project / "templates"
    made = run_pnp("new", "second", cwd=inside)
    assert made.returncode == 0, made.stderr
    assert (project / "card_data" / "second" / "game.yaml").is_file() and not (inside / "second").exists()
    assert "  pnp build second --paper a4" in made.stdout
    built = run_pnp("build", "second", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=inside)
    assert built.returncode == 0, built.stderr
    assert built.stderr.splitlines()[0].startswith(f"game folder {project / 'card_data' / 'second'}; ")
    loose = run_pnp("new", "./loose", cwd=inside)
    assert loose.returncode == 0, loose.stderr
    assert (inside / "loose" / "game.yaml").is_file() and not (project / "card_data" / "loose").exists()


@pytest.mark.parametrize(("args", "said"), [
    (["my-game"], "already exists"),
    (["Bad_Name"], "cannot name a game"),
    (["--project", "studio", "--game", "no good"], "cannot name a game"),
    (["fine", "--starter", "tarot-of-nothing"], "unknown starting point"),
    (["fine", "--game", "duel"], "use it with --project"),
])
def test_a_bad_target_is_refused_and_nothing_is_written(tmp_path: Path, args: list[str], said: str) -> None:
    (tmp_path / "my-game").mkdir()
    (tmp_path / "my-game" / "notes.txt").write_text("mine\n")
    refused = run_pnp("new", *[str(tmp_path / a) if a in ("my-game", "Bad_Name", "studio", "fine") else a for a in args], cwd=tmp_path)
    assert refused.returncode == 2 and said in refused.stderr and "Traceback" not in refused.stderr, refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-game"]
    assert (tmp_path / "my-game" / "notes.txt").read_text() == "mine\n"


def test_the_engine_starter_is_the_high_card_example_with_its_tests(tmp_path: Path) -> None:
    """One copy: `pnp new --starter engine` writes pnp's High Card example,
    its tests included, named for the new game (only game.yaml's id and name change)."""
    example = ROOT / "pnp/resources/starters/engine"
    assert (example / "tests/test_high_card.py").is_file() and not (ROOT / "docs/examples/high-card").exists()
    made = run_pnp("new", str(tmp_path / "my-duel"), "--starter", "engine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    written = {p.relative_to(tmp_path / "my-duel") for p in (tmp_path / "my-duel").rglob("*") if p.is_file()}
    shipped = {p.relative_to(example) for p in example.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert written == shipped and Path("tests/test_high_card.py") in written
    for name in sorted(written - {Path("game.yaml"), Path("README.md")}):
        assert (tmp_path / "my-duel" / name).read_bytes() == (example / name).read_bytes(), name
    game, original = (tmp_path / "my-duel/game.yaml").read_text().splitlines(), (example / "game.yaml").read_text().splitlines()
    changed = [(a, b) for a, b in zip(original, game) if a != b]
    assert changed == [("id: high-card", "id: my-duel"), ("name: High Card", "name: My Duel")] and len(game) == len(original)

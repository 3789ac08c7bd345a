"""Shared folders (``shared:`` in game.yaml): folders beside a game folder it
shares templates, art and fonts with, looked in after its own, before the
project's; a folder without a game.yaml is never a game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.errors import UsageError
from pnp.loading.loader import load_game, resolve_game_dir, shipped_games
from pnp.paths import CARD_DATA
from pnp.render.faces import plan_faces
from pnp.render.templating import environment


def test_a_family_folder_is_no_game() -> None:
    family = CARD_DATA / "persuasion"
    assert (family / "templates/persuasion/persuasion.css").is_file() and not (family / "game.yaml").exists()
    assert "persuasion" not in shipped_games() and "garamond" not in shipped_games()
    with pytest.raises(UsageError, match="no game 'persuasion'"):
        resolve_game_dir("persuasion")


def test_both_persuasion_editions_share_one_family_folder() -> None:
    b04, d01 = load_game(CARD_DATA / "persuasion-b04"), load_game(CARD_DATA / "persuasion-d01")
    assert b04.shared == d01.shared == ((CARD_DATA / "persuasion").resolve(), (CARD_DATA / "garamond").resolve())
    assert d01.styles[0] == (CARD_DATA / "persuasion/templates/persuasion/persuasion.css").resolve()


def _family(mini_copy: Path, card: str) -> Path:
    """A folder beside the mini game holding its card template, and the game sharing it."""
    family = mini_copy.parent / "family"
    shutil.copytree(mini_copy / "templates", family / "templates")
    (family / "templates/mini/card.html").write_text(card)
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("players: {min: 2, max: 4}\n", "players: {min: 2, max: 4}\nshared: [../family]\n", 1))
    return family


def test_the_game_folder_comes_first_then_the_shared_folder(mini_copy: Path) -> None:
    family = _family(mini_copy, "<h1>FROM THE FAMILY</h1>\n")
    own = (mini_copy / "templates/mini/card.html").read_text()
    game = load_game(mini_copy)
    assert game.shared == (family.resolve(),)
    env = environment(game.root, shared=game.shared)
    assert env.loader is not None and env.loader.get_source(env, "mini/card.html")[0] == own
    (mini_copy / "templates/mini/card.html").unlink()
    game = load_game(mini_copy)
    assert game.components[0].front == "mini/card.html"
    faces = plan_faces(game, game.components[:1])
    assert "FROM THE FAMILY" in faces.faces[0].html


def test_a_face_key_does_not_depend_on_where_its_shared_file_lies(mini_copy: Path) -> None:
    """A template moved from the game's own folder to another: a new key; the
    same shared folder anywhere beside it: the same key (build stamps too)."""
    _family(mini_copy, "<h1>{{ card.title }}</h1>\n")
    shutil.rmtree(mini_copy / "templates")
    game = load_game(mini_copy)
    keys = [face.key for face in plan_faces(game, game.components[:1], stamp=True).faces]
    moved = mini_copy.parent / "elsewhere"
    moved.mkdir()
    shutil.move(mini_copy, moved / "mini")
    shutil.move(mini_copy.parent / "family", moved / "family")
    game = load_game(moved / "mini")
    assert [face.key for face in plan_faces(game, game.components[:1], stamp=True).faces] == keys

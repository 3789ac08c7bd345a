"""The same inputs give the same bytes wherever the game folder, or the whole
checkout, lies: face keys, build stamps and PDFs carry no absolute path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pnp.testing import copy_game
from tests.conftest import ROOT


def _build(game: Path, out: Path, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if home is not None:
        env["PNP_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "pnp", "build", str(game), "--out", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_the_shipped_game_gives_the_same_bytes_from_another_checkout(b04_build: Path, tmp_path: Path) -> None:
    """A second checkout elsewhere (the project's shared folders and the game
    copied): the same PDFs and manifest, stamps included."""
    other = tmp_path / "another" / "checkout"
    game = copy_game(ROOT / "card_data" / "persuasion-b04", other / "card_data" / "persuasion-b04")
    result = _build(game, tmp_path / "out", home=other)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == f"game folder {game}; project {other} (PNP_HOME)"
    mine, theirs = _files(b04_build), _files(tmp_path / "out" / "persuasion-b04")
    assert sorted(mine) == sorted(theirs)
    for name in mine:
        assert mine[name] == theirs[name], f"{name} differs between two checkouts"
    stamps = {c["id"]: [card["front"] for card in c["cards"]] for c in json.loads(mine["manifest.json"])["components"]}
    assert stamps["traits"], "the manifest lists the faces"


def test_a_game_folder_gives_the_same_bytes_at_two_paths(mini_copy: Path, tmp_path: Path) -> None:
    moved = tmp_path / "elsewhere" / "deeper" / "mini"
    shutil.copytree(mini_copy, moved)
    first, second = _build(mini_copy, tmp_path / "a"), _build(moved, tmp_path / "b")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert _files(tmp_path / "a" / "mini") == _files(tmp_path / "b" / "mini")


def test_a_warm_build_gives_the_bytes_of_a_cold_one(mini_copy: Path, tmp_path: Path) -> None:
    """After an edit, a rebuild that takes the unchanged faces from its cache
    (here 40 cards, the edit lays out a few) gives the same PDFs, byte for
    byte, as a build from nothing: what is laid out together never depends on
    what the cache holds."""
    cards = mini_copy / "cards.yaml"
    cards.write_text("cards:\n" + "".join(f"  - {{id: c{n}, title: Card {n}, symbols: {{sun: 1}}}}\n" for n in range(40)))
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    assert _build(mini_copy, warm).returncode == 0
    cards.write_text(cards.read_text().replace("title: Card 7,", "title: Card seven,"))
    again = _build(mini_copy, warm)
    assert again.returncode == 0 and _build(mini_copy, cold).returncode == 0, again.stderr
    laid_out = int(again.stdout.split(" of the faces)")[0].rsplit("(", 1)[1])
    assert 1 <= laid_out < 20, again.stdout  # most faces came from the cache
    assert _files(warm / "mini") == _files(cold / "mini")


def test_a_face_changes_when_a_picture_it_shows_changes(mini_copy: Path, tmp_path: Path) -> None:
    """The face key hashes the files a face refers to, not just their names:
    new art is a changed card for `pnp diff` and a new hash on the stamp."""
    assert _build(mini_copy, tmp_path / "out").returncode == 0
    before = json.loads((tmp_path / "out" / "mini" / "manifest.json").read_text())
    art = mini_copy / "art" / "dot.svg"
    art.write_text(art.read_text().replace("<circle", "<circle stroke='#000'", 1))
    assert _build(mini_copy, tmp_path / "out").returncode == 0
    after = json.loads((tmp_path / "out" / "mini" / "manifest.json").read_text())
    fronts = [[card["front"] for card in c["cards"]] for c in (before["components"][0], after["components"][0])]
    assert all(a != b for a, b in zip(*fronts)), fronts

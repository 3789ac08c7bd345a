"""The one output stage: a Request made once from `pnp build`'s options, the
profile as data, every kind of profile built by a format of one signature."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.model import Game
from pnp.output import stage
from pnp.output.profiles import load_profiles, profile
from pnp.output.request import Request
from pnp.output.result import Built
from pnp.units import mm
from tests.conftest import MINI


def test_what_an_option_leaves_out_the_profile_decides() -> None:
    home = profile("home")
    assert Request().profile == home
    assert (Request().stamp, Request(no_stamp=True).stamp) == (home.stamp, False) == (True, False)
    assert Request().offset == home.back_offset
    assert Request(back_offset=(mm(0.8), mm(-0.5))).offset == (mm(0.8), mm(-0.5))
    assert (Request().share_sheets, Request(separate_sheets=True).share_sheets) == (home.share_sheets, False) == (True, False)
    assert Request(profile("factory")).stamp is profile("factory").stamp is False


def test_every_kind_of_profile_has_a_format_of_one_signature() -> None:
    assert {p.kind for p in load_profiles().values()} == set(stage.FORMATS) == {"home", "print-pdf", "png-faces", "tts"}
    shapes = {kind: list(inspect.signature(stage.format_of(kind)).parameters) for kind in stage.FORMATS}
    assert all(names == ["game", "components", "papers", "out_dir", "request"] for names in shapes.values()), shapes


def test_pnp_build_makes_one_request_for_every_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two games, one Request: the options are read once, the profile with
    them, and the very same value reaches each game's build."""
    seen: list[tuple[list[str], Path, Request]] = []

    def build(game: Game, papers: list[str], out_dir: Path, request: Request) -> Built:
        seen.append((list(papers), out_dir, request))
        return Built(game, request.profile, out_dir, (), out_dir / "manifest.json")  # nothing is built

    monkeypatch.setattr(stage, "build", build)
    args = ["build", str(MINI), str(MINI), "--paper", "letter", "--out", str(tmp_path), "--only", "cards", "--no-stamp",
            "--back-offset", "0.8mm,-0.5mm", "--separate-sheets"]
    done = CliRunner().invoke(main, args, catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert [(papers, out_dir) for papers, out_dir, _ in seen] == [(["letter"], tmp_path / "mini")] * 2
    assert seen[0][2] is seen[1][2]
    assert seen[0][2] == Request(
        profile("home"), only=("cards",), no_stamp=True, back_offset=(mm(0.8), mm(-0.5)), separate_sheets=True,
    )
    assert (seen[0][2].stamp, seen[0][2].share_sheets) == (False, False)

"""A game's engine is found in its own folder or as an installed plugin; a
game folder's code runs only when it is trusted, and never during a build."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from pnp.engine.api import PlayEngine, ScoreEngine, members
from pnp.testing import copy_game
from pnp.engine.plugins import UntrustedRules, engine_for, trusted
from pnp.errors import InputError
from pnp.loading.loader import load_game
from tests.conftest import MINI, ROOT, run_pnp


PLAYS = "def prepare(game, options): pass\ndef player_counts(prepared): pass\ndef new_state(prepared, players, rng, options): pass\nAGENTS = {}\n"
"""What an engine provides to play (docs/engine.md), doing nothing."""


def _with_engine(tmp_path: Path, code: str, engine: str = "engine: {module: rules}") -> Path:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + f"\n{engine}\n")
    (game / "rules").mkdir()
    (game / "rules" / "__init__.py").write_text(textwrap.dedent(code))
    return game


def test_a_shipped_game_is_trusted_and_a_copy_is_not(tmp_path: Path) -> None:
    shipped = load_game(ROOT / "card_data" / "persuasion-b04")
    assert trusted(shipped)
    copy = tmp_path / "persuasion-b04"
    copy_game(shipped.root, copy)
    assert not trusted(load_game(copy))
    done = run_pnp("simulate", str(copy), "--players", "4", "--games", "3")
    assert done.returncode == 2 and "--trust-rules" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert run_pnp("simulate", str(copy), "--players", "4", "--games", "3", "--trust-rules").returncode == 0
    checked = run_pnp("check", str(copy), "--games", "3", "--json")
    assert checked.returncode == 0 and "not played" in checked.stdout and "--trust-rules" in checked.stdout


def test_the_environment_can_trust_game_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game(_with_engine(tmp_path, "VALUE = 7\n" + PLAYS))
    with pytest.raises(UntrustedRules):
        engine_for(game)
    monkeypatch.setenv("PNP_TRUST_RULES", "1")
    module, options = engine_for(game)
    assert module.VALUE == 7 and options == {}


def test_a_build_never_runs_the_game_code(tmp_path: Path) -> None:
    game = _with_engine(tmp_path, "raise SystemExit(99)\n")
    done = run_pnp("build", str(game), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr  # the engine would have ended pnp with status 99


@pytest.mark.parametrize(
    "code, line, words",
    [
        ("x = 1\nraise RuntimeError('the deck is missing')\n", 2, "RuntimeError: the deck is missing"),
        ("def broken(:\n    pass\n", 1, "not valid Python"),
    ],
)
def test_an_engine_that_fails_to_import_is_located(tmp_path: Path, code: str, line: int, words: str) -> None:
    game = _with_engine(tmp_path, code)
    done = run_pnp("simulate", str(game), "--players", "2", "--games", "1", "--trust-rules")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"rules/__init__.py:{line}" in done.stderr and words in done.stderr, done.stderr


@pytest.mark.parametrize(
    "where, command",
    [
        ("    def apply(self, choice: object) -> None:\n", ["simulate", "--players", "3", "--games", "200", "--workers", "2"]),  # in a worker
        ("    def apply(self, choice: object) -> None:\n", ["simulate", "--players", "3", "--games", "20", "--workers", "1"]),
        ("    def apply(self, choice: object) -> None:\n", ["check", "--games", "20"]),
        ("def prepare(game: Game, options: Mapping[str, object]) -> Deck:\n", ["simulate", "--players", "2", "--games", "5"]),  # before any game
    ],
)
def test_an_engine_that_fails_while_playing_is_located(tmp_path: Path, where: str, command: list[str]) -> None:
    """A fault in a game folder's engine, in pnp's process or a worker's, is
    told at its line, exit 2, no traceback (the game folder is input)."""
    game = tmp_path / "high-card"
    shutil.copytree(ROOT / "pnp" / "resources" / "starters" / "engine", game)
    rules = game / "rules.py"
    text = rules.read_text()
    assert text.count(where) == 1
    body = " " * (len(where) - len(where.lstrip()) + 4)
    rules.write_text(text.replace(where, where + body + "raise ZeroDivisionError('the deck ran out of halves')\n"))
    line = text[: text.index(where)].count("\n") + 2
    done = run_pnp(command[0], str(game), *command[1:], "--trust-rules")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"rules.py:{line}: the game's engine failed: ZeroDivisionError: the deck ran out of halves" in done.stderr, done.stderr


def test_an_engine_is_one_of_module_or_plugin(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"game.yaml:\d+:\d+: engine: expected exactly one of module"):
        load_game(_with_engine(tmp_path, "", "engine: {module: rules, plugin: other}"))
    missing = load_game(_with_engine(tmp_path / "b", "", "engine: {module: nowhere}"))
    with pytest.raises(InputError, match="nowhere/__init__.py or nowhere.py"):
        engine_for(missing, trust=True)


def test_an_installed_plugin_is_found_by_its_entry_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    (site / "highcard_engine.py").parent.mkdir(parents=True)
    (site / "highcard_engine.py").write_text("NAME = 'high card'\n" + PLAYS)
    info = site / "highcard-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: highcard\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[pnp.engines]\nhighcard = highcard_engine\n")
    monkeypatch.syspath_prepend(str(site))
    game = load_game(_with_engine(tmp_path, "", "engine: {plugin: highcard, options: {cap: 3}}"))
    module, options = engine_for(game)  # installed: trusted without being asked
    assert module.NAME == "high card" and options == {"cap": 3}
    other = load_game(_with_engine(tmp_path / "b", "", "engine: {plugin: lowcard}"))
    with pytest.raises(InputError, match="no installed engine named 'lowcard'.*highcard"):
        engine_for(other)


@pytest.mark.parametrize(
    "code, command, missing",
    [
        (PLAYS, ["score", "table.yaml"], "score or score_text; to score it needs prepare, score, score_text"),
        (PLAYS.replace("def new_state", "def old_state"), ["simulate", "--players", "2"], "new_state; to play it needs prepare, player_counts, new_state, AGENTS"),
    ],
)
def test_an_engine_without_what_a_command_needs_is_told_at_its_game_yaml(tmp_path: Path, code: str, command: list[str], missing: str) -> None:
    """An engine that plays but does not score (score() is for real tables
    only), or lacks a part of play: the command names the game folder's
    engine, what it lacks and what it needs, at game.yaml's engine line,
    exit 2, no traceback."""
    game = _with_engine(tmp_path, code)
    (tmp_path / "table.yaml").write_text("players: []\n")
    done = run_pnp(command[0], str(game), *command[1:], "--trust-rules", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    line = (game / "game.yaml").read_text().splitlines().index("engine: {module: rules}") + 1
    said = f"engine.module: the engine ({game / 'rules' / '__init__.py'}) has no {missing} (docs/engine.md"
    assert f"mini/game.yaml:{line}:" in done.stderr and said in done.stderr, done.stderr


@pytest.mark.parametrize(
    "code, said",
    [
        (PLAYS.replace("def new_state(prepared, players, rng, options): pass", "new_state = 3"), "has new_state = 3, not a function"),
        (PLAYS.replace("AGENTS = {}", "AGENTS = ['random']"), "has AGENTS = ['random'], not a mapping of agent names to agent factories"),
        (PLAYS.replace("AGENTS = {}", "AGENTS = {'random': 1}"), "has AGENTS = {'random': 1}, not a mapping of agent names"),
    ],
)
def test_an_engine_is_checked_against_the_play_protocol_when_loaded(tmp_path: Path, code: str, said: str) -> None:
    """A name the protocol requires (pnp.engine.api.PlayEngine) that is there
    as something else is told at game.yaml's engine line, before any of the
    engine is called, not as a crash in the middle of play."""
    game = load_game(_with_engine(tmp_path, code))
    with pytest.raises(InputError) as raised:
        engine_for(game, trust=True)
    (diagnostic,) = raised.value.diagnostics
    assert diagnostic.path == "engine.module" and diagnostic.source.line > 0
    assert said in diagnostic.message and "to play it needs prepare, player_counts, new_state, AGENTS" in diagnostic.message


def test_the_protocols_name_what_each_command_needs() -> None:
    assert members(PlayEngine) == (("prepare", True), ("player_counts", True), ("new_state", True), ("AGENTS", False))
    assert members(ScoreEngine) == (("prepare", True), ("score", True), ("score_text", True))

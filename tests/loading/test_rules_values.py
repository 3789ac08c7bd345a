"""The values of ``rules:`` are checked against the types ``rules_schema:``
declares, at load: before a rulebook prints them or an engine plays them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.testing import copy_game
from pnp.errors import InputError
from pnp.loading.loader import load_game, shipped_games
from tests.conftest import MINI, ROOT, run_pnp


def _mini(tmp_path: Path, block: str) -> Path:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("components:\n", block + "components:\n", 1))
    return game


@pytest.mark.parametrize("command", [("build", "--paper", "a4"), ("check", "--games", "2"), ("simulate", "--players", "3", "--games", "2")])
def test_a_hand_of_minus_two_is_refused_at_its_line_and_column(tmp_path: Path, command: tuple[str, ...]) -> None:
    """Partisan's hand of -2 built a rulebook that read "Deal -2 cards to each
    player"; check and simulate stopped later with no file or line."""
    game = tmp_path / "partisan"
    copy_game(ROOT / "card_data" / "partisan", game, ("tests", "__pycache__"))
    text = (game / "game.yaml").read_text()
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row == "  hand: 2")
    (game / "game.yaml").write_text(text.replace("\n  hand: 2\n", "\n  hand: -2\n", 1))
    out = tmp_path / "out"
    extra = ("--out", str(out)) if command[0] == "build" else ("--trust-rules",)
    result = run_pnp(command[0], str(game), *command[1:], *extra)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert f"game.yaml:{line}:9: rules.hand: expected a whole number from 1 to 5, found -2" in result.stderr, result.stderr
    assert not out.exists()


@pytest.mark.parametrize("game", [*shipped_games(), "pnp/resources/starters/engine"])
def test_every_shipped_game_declares_each_rules_value(game: str) -> None:
    """Loaded strictly, an undeclared rules key would be an error."""
    folder = ROOT / game if "/" in game else ROOT / "card_data" / game
    loaded = load_game(folder, strict=True)
    assert loaded.rules and not loaded.warnings


def test_an_undeclared_rules_value_is_a_warning_and_strict_refuses(tmp_path: Path) -> None:
    game = _mini(tmp_path, "rules:\n  hand: 2\n  topics: 3\n")
    result = run_pnp("list", str(game))
    assert result.returncode == 0, result.stderr
    assert "game.yaml:17:9: warning: rules.hand: no declared type for hand and topics, so a wrong value is not caught" in result.stderr
    strict = run_pnp("list", str(game), "--strict")
    assert strict.returncode == 2 and "rules_schema" in strict.stderr and "Traceback" not in strict.stderr


def test_a_declared_default_fills_in_and_values_stay_as_written(tmp_path: Path) -> None:
    game = _mini(
        tmp_path,
        "rules:\n  share: 0.5\n  kinds: [numeral]\nrules_schema:\n"
        "  share: {type: number, min: 0, max: 1, doc: A share.}\n"
        "  kinds: {type: list, doc: Kinds., items: {type: text, doc: A kind.}}\n"
        "  topics: {type: integer, min: 1, doc: Topics., default: 3}\n",
    )
    loaded = load_game(game, strict=True)
    assert loaded.rules == {"share": 0.5, "kinds": ["numeral"], "topics": 3}


def test_a_bad_default_is_an_error_at_the_default(tmp_path: Path) -> None:
    game = _mini(tmp_path, "rules: {}\nrules_schema:\n  topics: {type: integer, min: 1, doc: Topics., default: 0}\n")
    with pytest.raises(InputError) as caught:
        load_game(game)
    assert "game.yaml:18:58: rules_schema.topics.default: expected a whole number of at least 1, found 0" in str(caught.value.message)


def test_the_number_type_reads_from_yaml_and_from_a_spreadsheet(tmp_path: Path) -> None:
    """``number`` is a field type of cards too: a CSV cell of 2.5 is the number 2.5."""
    game = _mini(tmp_path, "")
    text = (game / "game.yaml").read_text()
    text = text.replace("cards: cards.yaml", "cards: cards.csv").replace(
        "      crest: {type: ref,", "      weight: {type: number, min: 0, max: 3, doc: A weight.}\n      crest: {type: ref,"
    )
    (game / "game.yaml").write_text(text)
    (game / "cards.csv").write_text("id,title,weight\none,One,2.5\ntwo,Two,3\nthree,Three,\n")
    loaded = load_game(game, strict=True)
    assert [c.fields.get("weight") for c in loaded.components[0].cards] == [2.5, 3, None]
    (game / "cards.csv").write_text("id,title,weight\none,One,3.5\n")
    with pytest.raises(InputError) as caught:
        load_game(game)
    assert "cards.csv:B2" not in caught.value.message and "C2: weight: expected a number from 0 to 3, found 3.5" in caught.value.message

"""checks.instances: how often each value of a card field appears in part of
a deck, against a number of the rules; proved on the example game's data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.loading.loader import load_game
from pnp.rules.check import check_game

EXAMPLE = Path(__file__).resolve().parents[2] / "pnp" / "resources" / "starters" / "engine"


def _report(tmp_path: Path, rules: str, checks: str):  # type: ignore[no-untyped-def]
    game = tmp_path / "high-card"
    shutil.copytree(EXAMPLE, game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    text = (game / "game.yaml").read_text()
    text = text.replace("rules:\n", f"rules:\n{rules}", 1).replace("checks:\n", f"checks:\n{checks}", 1)
    (game / "game.yaml").write_text(text)
    return check_game(load_game(game))


def test_counts_each_value_over_the_selection(tmp_path: Path) -> None:
    report = _report(
        tmp_path, "  two: 2\n  low: [1, 2, 3]\n",
        "  instances:\n"
        "    - {label: all, component: cards, field: rank, equals: two, why: two of each}\n"
        "    - {label: low, component: cards, field: rank, where: {rank: low}, decks: 3, at_most: 6, why: three decks}\n"
        "    - {label: deal, component: cards, field: rank, draw: 5, at_most: 2, why: a hand of five}\n",
    )
    assert report.errors() == [], report.findings
    got = report.exact["instances"]
    assert got["all"]["counts"] == {str(r): 2 for r in range(1, 11)} and got["all"]["ok"]
    assert got["low"]["counts"] == {**{str(r): 0 for r in range(4, 11)}, "1": 6, "2": 6, "3": 6}
    assert got["deal"]["counts"] == {str(r): 2 for r in range(1, 11)}


@pytest.mark.parametrize(
    "rule, words, where",
    [
        # A count out of bounds is told at the cards file's first card of the value, where its copies are.
        ("{label: more, component: cards, field: rank, more_than: 2, why: w}", "more: 1 2 times, expected more than 2 (w)", ("cards.yaml", "{id: r1,")),
        ("{label: deal, component: cards, field: rank, draw: 3, at_most: 1, why: w}", "deal: 1 at most 2 times, expected at most 1 (w)", ("cards.yaml", "{id: r1,")),
        # A bound naming no rules key is told at the bound itself.
        ("{label: key, component: cards, field: rank, equals: nowhere, why: w}",
         "equals: no rules key 'nowhere'; expected a whole number or one of the rules keys: hand_size", ("game.yaml", "nowhere")),
        # A rules key whose value is no number is told at that value, naming it.
        ("{label: key, component: cards, field: rank, equals: hand_size, why: w}",
         "rules.hand_size: expected a whole number (equals counts with it), found {2: 5, 3: 5, 4: 5}", ("game.yaml", "{2: 5, 3: 5, 4: 5}")),
    ],
)
def test_a_count_outside_its_bound_is_an_error_at_its_line(tmp_path: Path, rule: str, words: str, where: tuple[str, str]) -> None:
    report = _report(tmp_path, "", f"  instances:\n    - {rule}\n")
    errors = report.errors()
    assert errors and all(e.check == "instances" for e in errors)
    assert words in errors[0].message, errors[0].message
    assert errors[0].where.endswith(_at(tmp_path / "high-card" / where[0], where[1])), errors[0].where


def _at(file: Path, text: str) -> str:
    """``/FILE:LINE:COL`` of the first place ``text`` is written in ``file``."""
    line, row = next((i, row) for i, row in enumerate(file.read_text().splitlines(), 1) if text in row)
    return f"/{file.name}:{line}:{row.index(text) + 1}"


def test_a_rules_value_used_by_many_rules_is_told_once_at_the_value(tmp_path: Path) -> None:
    """``chips_per_suit: eight`` was told at every rule using it, as "found
    'chips_per_suit'", never at the value nor naming it."""
    rules = "  chips: eight\n"
    rule = "{{component: cards, field: rank, {bound}: chips, why: w}}"
    checks = "".join(f"    - {rule.format(bound=b)}\n" for b in ("more_than", "at_most", "equals"))
    report = _report(tmp_path, rules, f"  instances:\n{checks}")
    errors = report.errors()
    assert [e.message for e in errors] == ["rules.chips: expected a whole number (more_than counts with it), found 'eight'"]
    assert errors[0].where.endswith(_at(tmp_path / "high-card" / "game.yaml", "eight")), errors[0].where

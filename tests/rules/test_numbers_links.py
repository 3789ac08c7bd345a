"""checks.profile, dice, tokens, links and agree (pnp/rules/numbers.py and
links.py), proved on a small game written here: four people with three
numbered fields each, two places, a die and a token supply."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.loading.loader import load_game
from pnp.rules.check import check_game
from pnp.rules.summary import as_text

PEOPLE = """\
cards:
  - {id: ann, title: Ann, kind: a, family: x, home: hall, partner: bob, pref: red, a: 1, b: 2, c: 3}
  - {id: cat, title: Cat, kind: a, family: y, home: mill, partner: '', pref: blue, a: 3, b: 2, c: 1}
  - {id: bob, title: Bob, kind: b, family: z, home: mill, partner: ann, pref: red, a: 3, b: 1, c: 2}
  - {id: dan, title: Dan, kind: b, family: z, home: mill, partner: '', pref: red, a: 1, b: 3, c: 2}
"""

GAME = """\
schema: 1
id: tiny
name: Tiny
players: {min: 2, max: 3}
sets:
  colours: [{id: red, name: Red}, {id: blue, name: Blue}, {id: green, name: Green}]
rules:
  total: 6
  faces: [red, blue, own, own]
  tokens: {1: 10, 5: 4}
  start: 3
  circles: {hall: Hall, mill: Mill}
components:
  - id: people
    name: People
    size: poker
    cards: people.yaml
    front: card.html
    fields:
      kind: {type: text, doc: k}
      family: {type: text, doc: f}
      home: {type: text, doc: h}
      partner: {type: text, doc: p}
      pref: {type: ref, set: colours, doc: p}
      a: {type: integer, doc: a}
      b: {type: integer, doc: b}
      c: {type: integer, doc: c}
  - id: places
    name: Places
    size: poker
    copies: 0
    cards: places.yaml
    front: card.html
checks:
"""


def _report(tmp_path: Path, checks: str, people: str = PEOPLE):  # type: ignore[no-untyped-def]
    game = tmp_path / "tiny"
    (game / "templates").mkdir(parents=True)
    (game / "templates" / "card.html").write_text("<p>{{ card.title }}</p>")
    (game / "people.yaml").write_text(people)
    (game / "places.yaml").write_text("cards:\n  - {id: hall, title: Hall}\n  - {id: mill, title: Mill}\n  - {id: barn, title: Barn}\n")
    (game / "game.yaml").write_text(GAME + checks)
    return check_game(load_game(game))


PROFILE = "  profile:\n    - {component: people, fields: [a, b, c], group: kind, total: total, spread_max: 2, undominated: true, even: true, why: w}\n"


def test_a_profile_reports_each_group(tmp_path: Path) -> None:
    report = _report(tmp_path, PROFILE)
    assert report.errors() == [], report.findings
    groups = report.exact["profile"]["people"]["groups"]
    assert groups["a"] == {"cards": 2, "totals": {"a": 4, "b": 4, "c": 4}, "histograms": {"a": {1: 1, 3: 1}, "b": {2: 2}, "c": {1: 1, 3: 1}},
                           "sums": {6: 2}, "spreads": {2: 2}}
    assert groups["b"]["spreads"] == {2: 2}


@pytest.mark.parametrize(("edit", "said", "line"), [
    (("a: 1, b: 2, c: 3", "a: 1, b: 2, c: 4"), "Ann: 1 + 2 + 4 = 7, expected 6 (w)", 2),
    (("a: 1, b: 2, c: 3", "a: 0, b: 2, c: 4"), "Ann: highest 4 less lowest 0 is more than 2 (w)", 2),
    (("a: 1, b: 3, c: 2", "a: 1, b: 1, c: 2"), "Dan is dominated by Bob: (1, 1, 2) against (3, 1, 2) (w)", 5),
    (("a: 1, b: 3, c: 2", "a: 2, b: 3, c: 1"), "People (b): field totals differ: a 5, b 4, c 3 (w)", 4),
])
def test_a_card_that_breaks_its_profile_is_told_at_its_line(tmp_path: Path, edit: tuple[str, str], said: str, line: int) -> None:
    report = _report(tmp_path, PROFILE, PEOPLE.replace(*edit))
    messages = [(e.message, e.where) for e in report.errors()]
    assert any(m == said and w.endswith(f"people.yaml:{line}:5") for m, w in messages), messages


def test_group_means_stay_within_bounds(tmp_path: Path) -> None:
    rule = "  profile:\n    - {component: people, fields: [a, b, c], means: {by: family, min: 1.5, max: 2.5}, why: w}\n"
    report = _report(tmp_path, rule)
    assert report.exact["profile"]["people"]["means"] == {"z": {"a": 2.0, "b": 2.0, "c": 2.0}}  # families of one are left out
    # Dan at (2, 3, 1): the Zs' means are a 2.5, b 2, c 1.5.
    report = _report(tmp_path / "2", rule.replace("min: 1.5", "min: 1.6"), PEOPLE.replace("a: 1, b: 3, c: 2", "a: 2, b: 3, c: 1"))
    assert [e.message for e in report.errors()] == ["family z: mean c 1.50 outside 1.6-2.5 (w)"]


def test_dice_odds_are_exact_with_a_face_read_from_the_cards(tmp_path: Path) -> None:
    rule = "  dice:\n    - {faces: faces, stand_in: {face: own, component: people, field: pref}, label: d, why: w}\n"
    report = _report(tmp_path, rule)
    # red 1/4 + own 1/2 x 3/4 of the people; blue 1/4 + 1/2 x 1/4.
    assert report.exact["dice"]["d"]["odds"] == {"blue": "3/8", "red": "5/8"}
    assert "Dice (d): blue 3/8, red 5/8" in as_text(report, False).splitlines()
    report = _report(tmp_path / "2", rule.replace("why: w}", "cover: colours, why: w}"))
    assert [e.message for e in report.errors()] == ["no face turns up green (w)"]
    report = _report(tmp_path / "3", "  dice:\n    - {faces: circles, why: w}\n")
    assert [e.message for e in report.errors()] == ["checks.dice[0].faces: expected a list of faces (texts or numbers), found {'hall': 'Hall', 'mill': 'Mill'}"]


def test_tokens_against_the_start_and_the_most_a_turn_takes(tmp_path: Path) -> None:
    rule = "  tokens:\n    - {denominations: tokens, start: start, most_per_turn: 8, turns_at_least: 4, why: w}\n"
    report = _report(tmp_path, rule)
    # Worth 30: 24 left at 2 players (3 turns at 8), 21 at 3 (3 turns).
    assert report.exact["tokens"]["tokens"]["tables"] == {2: {"left": 24, "shortest_turns": 3, "shortest_rounds": 2}, 3: {"left": 21, "shortest_turns": 3, "shortest_rounds": 1}}
    assert [f.message for f in report.findings if f.check == "tokens"] == [f"{n} players: the supply can run out in 3 turns, fewer than 4 (w)" for n in (2, 3)]
    report = _report(tmp_path / "2", rule.replace("start: start", "start: 10"))
    assert "3 players take 30 at the start; the supply is worth 30 (w)" in [e.message for e in report.errors()]


def test_links_name_real_targets_and_agree_with_them(tmp_path: Path) -> None:
    rules = (
        "  links:\n"
        "    - {component: people, field: home, to: places, every: true, why: homes}\n"
        "    - {component: people, field: home, to_rules: circles, why: circles}\n"
        "    - {component: people, field: partner, to: people, optional: true, mutual: true, differ: [kind, family], why: pairs}\n"
    )
    report = _report(tmp_path, rules)
    assert [e.message for e in report.errors()] == ["no people names 'barn' in home (homes)"]
    bad = PEOPLE.replace("partner: ann", "partner: cat").replace("home: hall", "home: attic")
    messages = [e.message for e in _report(tmp_path / "2", rules, bad).errors()]
    assert "Ann: home 'attic' is none of the places: hall, mill, barn (homes)" in messages
    assert "Ann names Bob in partner, who does not name Ann back (pairs)" in messages
    report = _report(tmp_path / "3", "  links:\n    - {component: people, field: home, why: w}\n")
    assert [e.message for e in report.errors()] == ["checks.links[0]: expected one of to (a component) or to_rules (a rules key)"]


def test_cards_sharing_a_value_agree(tmp_path: Path) -> None:
    rule = "  agree:\n    - {component: people, by: family, fields: [home], why: one home}\n"
    assert _report(tmp_path, rule).errors() == []
    messages = [e.message for e in _report(tmp_path / "2", rule, PEOPLE.replace("id: dan, title: Dan, kind: b, family: z, home: mill", "id: dan, title: Dan, kind: b, family: z, home: hall")).errors()]
    assert messages == ["Dan: home 'hall', but Bob of the same family has 'mill' (one home)"]

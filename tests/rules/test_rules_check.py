"""`pnp check`: each invariant, with a small deck that breaks it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import MINI, ROOT, run_pnp

# A tiny deck: 8 cards with signed symbols, 2 to 4 players, 2 cards a hand.
CARDS = """cards:
  - {id: c1, title: C1, symbols: {sun: 1, moon: -1}}
  - {id: c2, title: C2, symbols: {sun: -1, moon: 1}}
  - {id: c3, title: C3, symbols: {sun: 1, moon: 1}}
  - {id: c4, title: C4, symbols: {sun: -1, moon: -1}}
  - {id: c5, title: C5, symbols: {sun: 1}}
  - {id: c6, title: C6, symbols: {moon: 1}}
  - {id: c7, title: C7, symbols: {sun: -1}}
  - {id: c8, title: C8, symbols: {moon: -1}}
"""

GOOD_CHECKS = """
rules:
  hand: {2: 2, 3: 1, 4: 1}
  per_other: 1
checks:
  deal:
    - {deck: cards, hand: hand, extra: 1, reserve_min: 0}
  supply:
    - {component: sleeves, each_at_least: {per_other_player: per_other}, why: one per other player}
  set_size:
    - {set: crests, at_least: 2, why: a family each}
  vocabulary:
    - {component: cards, field: symbols}
  balance:
    - {component: cards, field: symbols}
  odds:
    - {kind: dominant-signs, deck: cards, field: symbols, need: 1, hand: hand, band_min: 0.0, band_max: 1.0}
"""


def make_game(tmp_path: Path, checks: str = GOOD_CHECKS, cards: str = CARDS, players: str = "{min: 2, max: 4}") -> Path:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    text = (game / "game.yaml").read_text().replace("players: {min: 2, max: 4}", f"players: {players}")
    text = text.replace("      crest: {type: ref, set: crests, doc: The owner.}\n", "")
    text = text.replace("    copies: 2\n    front: mini/back.html", "    copies: 3\n    front: mini/back.html")
    (game / "game.yaml").write_text(text + checks)
    (game / "cards.yaml").write_text(cards)
    return game


def check(game: Path, *args: str) -> tuple[int, dict]:
    result = run_pnp("check", str(game), "--json", *args)
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, json.loads(result.stdout)


def findings(data: dict, level: str) -> list[dict]:
    return [f for f in data["findings"] if f["level"] == level]


def test_a_sound_game_passes(tmp_path: Path) -> None:
    code, data = check(make_game(tmp_path))
    assert code == 0 and data["ok"], data["findings"]
    assert not findings(data, "error") and not findings(data, "warning")
    assert set(data["exact"]) == {"deal", "balance", "odds"}
    balance = data["exact"]["balance"]["cards.symbols"]
    assert balance["sun"] == {"plus": 3, "minus": 3, "cards": 6, "share": "3/4"}
    # 4 players: 4 x (1 hand + 1 goal card) = 8 dealt, none left.
    assert data["exact"]["deal"]["cards"]["4"] == {"deck": 8, "dealt": 8, "left": 0}


def test_exact_odds_are_fractions_that_brute_force_confirms(tmp_path: Path) -> None:
    from fractions import Fraction

    import yaml

    from pnp.rules.odds import brute_force

    _, data = check(make_game(tmp_path))
    cards = yaml.safe_load(CARDS)["cards"]
    odds = data["exact"]["odds"]["cards.symbols"]["goals"]
    for card in cards:
        deck = [c["symbols"] for c in cards if c is not card]
        for players, size in (("2", 2), ("4", 1)):
            assert Fraction(odds[card["id"]][players]["probability"]) == brute_force(deck, card["symbols"], size, 1)


def test_deck_too_small_for_the_deal(tmp_path: Path) -> None:
    game = make_game(tmp_path, GOOD_CHECKS.replace("hand: {2: 2, 3: 1, 4: 1}", "hand: {2: 2, 3: 1, 4: 2}"))
    code, data = check(game)
    assert code == 1 and not data["ok"]
    errors = findings(data, "error")
    assert any(e["check"] == "deal" and "4 players need 12" in e["message"] and "has 8" in e["message"] for e in errors)
    assert all(e["where"].endswith(at(game / "game.yaml", "{deck: cards")) for e in errors if e["check"] == "deal"), errors


def at(file: Path, text: str, skip: int = 0, after: str = "") -> str:
    """``/FILE:LINE:COL`` of the first place ``text`` is written in ``file``
    (``skip`` characters on), in the lines after the first that holds ``after``."""
    rows = file.read_text().splitlines()
    start = next(i for i, row in enumerate(rows) if after in row) if after else 0
    line, row = next((i, row) for i, row in enumerate(rows[start:], start + 1) if text in row)
    return f"/{file.name}:{line}:{row.index(text) + 1 + skip}"


RULES_SCHEMA = """rules_schema:
  hand: {type: map, doc: Hands., keys: {type: integer, doc: Players.}, values: {type: integer, doc: Cards.}}
  per_other: {type: integer, doc: Sleeves per other player.}
"""
"""Types for GOOD_CHECKS' rules. The other tests leave them undeclared (a
warning), so a bad value reaches the checks rather than the loader."""


def test_reserve_below_the_wish_is_a_warning_and_strict_fails(tmp_path: Path) -> None:
    game = make_game(tmp_path, GOOD_CHECKS.replace("reserve_min: 0}", "reserve_min: 0, reserve_per_player: 1}") + RULES_SCHEMA)
    code, data = check(game)
    assert code == 0 and any("4 players: 0 cards stay" in w["message"] for w in findings(data, "warning"))
    code, data = check(game, "--strict")
    assert code == 1 and not data["ok"]


# (test id, text in GOOD_CHECKS, its replacement, exit status, level, check, words of the finding's message)
ONE_FINDING = [
    ("incomplete_player_table", "hand: {2: 2, 3: 1, 4: 1}", "hand: {2: 2, 4: 1}", 1, "error", "player-table", "no entry for 3 players"),
    ("too_few_families", "at_least: 2, why", "at_least: {per_player: 1}, why", 1, "error", "set-size", "2 crests, but the largest table needs 4"),
    ("odds_outside_the_band_warn", "band_max: 1.0", "band_max: 0.5", 0, "warning", "odds", "outside 0%-50%"),
    ("negative_hand", "hand: {2: 2, 3: 1, 4: 1}", "hand: {2: -2, 3: 1, 4: 1}", 1, "error", "deal", "rules.hand must map each player count to a whole number from 0 to 10,000"),
    ("huge_hand", "hand: {2: 2, 3: 1, 4: 1}", "hand: {2: 100000000000, 3: 1, 4: 1}", 1, "error", "deal", "a whole number from 0 to 10,000"),
    ("hand_table_for_other_counts", "hand: {2: 2, 3: 1, 4: 1}", "hand: {7: 2, 8: 1}", 1, "error", "player-table", "no entry for 2, 3, 4 players"),
    ("hand_table_not_numbers", "hand: {2: 2, 3: 1, 4: 1}", "hand: {2: two, 3: 1, 4: 1}", 1, "error", "deal", "a whole number from 0 to 10,000"),
    ("check_names_unknown_components", "component: sleeves", "component: sleevez", 1, "error", "supply", "no component 'sleevez'"),
    ("amount_names_no_rules_key", "{per_other_player: per_other}", "{per_other_player: per_others}", 1, "error", "supply",
     "checks.supply[0].each_at_least.per_other_player: no rules key 'per_others'; expected a whole number or one of the rules keys: hand, per_other"),
    ("amount_rules_value_in_words", "per_other: 1", "per_other: one", 1, "error", "supply",
     "rules.per_other: expected a whole number from 0 to 10,000 (checks.supply[0].each_at_least.per_other_player counts with it), found 'one'"),
    ("hand_table_names_no_rules_key", "hand: hand, extra", "hand: hands, extra", 1, "error", "deal", "checks.deal[0].hand: no rules key 'hands'"),
]


@pytest.mark.parametrize("case, old, new, status, level, check_name, words", ONE_FINDING, ids=[c[0] for c in ONE_FINDING])
def test_a_broken_check_is_reported(tmp_path: Path, case: str, old: str, new: str, status: int, level: str, check_name: str, words: str) -> None:
    assert old in GOOD_CHECKS, f"case {case} does not apply: {old!r} not in GOOD_CHECKS"
    code, data = check(make_game(tmp_path, GOOD_CHECKS.replace(old, new)))
    assert code == status
    assert any(f["check"] == check_name and words in f["message"] for f in findings(data, level)), data["findings"]


def test_supply_short_for_the_largest_table(tmp_path: Path) -> None:
    game = make_game(tmp_path, GOOD_CHECKS.replace("per_other: 1", "per_other: 2"))
    code, data = check(game)
    assert code == 1
    short = [e for e in findings(data, "error") if e["check"] == "supply"]
    # Sleeves are made one per crest: told at the component's copies, where the number is.
    assert len(short) == 2 and all(e["where"].endswith(at(game / "game.yaml", "copies: 3", len("copies: "))) for e in short), short
    assert "3 of Red, but the largest table needs 6" in short[0]["message"]


def test_a_symbol_no_card_uses(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    text = (game / "game.yaml").read_text().replace("    - {id: moon, name: Moon, art: art/dot.svg}\n", "    - {id: moon, name: Moon, art: art/dot.svg}\n    - {id: star, name: Star, art: art/dot.svg}\n")
    (game / "game.yaml").write_text(text)
    code, data = check(game)
    assert code == 0
    assert [w["message"] for w in findings(data, "warning")] == ["symbols entry 'star' is on no cards"]


def test_a_goal_card_no_hand_can_satisfy_is_an_error(tmp_path: Path) -> None:
    cards = CARDS.replace("{id: c5, title: C5, symbols: {sun: 1}}", "{id: c5, title: C5, symbols: {sun: 1, moon: 1}}")
    checks = GOOD_CHECKS.replace("need: 1", "need: 2")
    game = make_game(tmp_path, checks, cards)
    code, data = check(game)
    assert code == 1
    # c4 wants -sun and -moon; with one-card hands at 4 players only c4 itself
    # could do it, and it is the goal card. Told at c4's entry in the cards file.
    unsatisfiable = [e for e in findings(data, "error") if e["check"] == "odds"]
    c4 = at(game / "cards.yaml", "{id: c4")
    assert any(e["where"].endswith(c4) and "C4: no 1-card hand (4 players)" in e["message"] for e in unsatisfiable), unsatisfiable


def test_bad_checks_config_is_unusable_input(tmp_path: Path) -> None:
    result = run_pnp("check", str(make_game(tmp_path, GOOD_CHECKS.replace("need: 1", "need: lots"))))
    assert result.returncode == 2
    assert "checks.odds[0].need" in result.stderr and "whole number" in result.stderr


def test_html_report_has_tables_and_an_svg_plot(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    result = run_pnp("check", str(make_game(tmp_path)), "--report", str(report))
    assert result.returncode == 0
    html = report.read_text()
    assert "<svg" in html and html.count("<polyline") == 8 and "<script" not in html
    assert "Balance: cards.symbols" in html and "Odds: cards.symbols" in html


def test_build_refuses_an_unsound_game_unless_forced(tmp_path: Path) -> None:
    game = make_game(tmp_path, GOOD_CHECKS.replace("per_other: 1", "per_other: 2"))
    out = tmp_path / "out"
    refused = run_pnp("build", str(game), "--paper", "a4", "--out", str(out))
    assert refused.returncode == 2 and "nothing was built" in refused.stderr
    assert not out.exists()
    forced = run_pnp("build", str(game), "--paper", "a4", "--out", str(out), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (out / "mini" / "mini-home-a4.pdf").is_file()


def test_shipped_b04_is_sound() -> None:
    result = run_pnp("check", "persuasion-b04", "--json")
    data = json.loads(result.stdout)
    assert result.returncode == 0 and data["ok"]
    assert not findings(data, "error")
    # The known finding: at 7 and 8 players only 4 cards are left to draw (the skill
    # ladder's findings on the heuristic are tested in tests/engine/test_ladder.py).
    assert [w["message"][:10] for w in findings(data, "warning") if w["check"] not in ("skill", "usage")] == ["7 players:", "8 players:"]
    odds = data["exact"]["odds"]["traits.symbols"]["goals"]
    assert len(odds) == 60 and all(len(per) == 6 for per in odds.values())


def test_shipped_d01_is_sound_and_its_odds_are_exact() -> None:
    from fractions import Fraction

    result = run_pnp("check", "persuasion-d01", "--json")
    data = json.loads(result.stdout)
    assert result.returncode == 0 and data["ok"] and not findings(data, "error"), data["findings"]
    # The known finding (RULES-NOTES.md: the host loses at 3 players; seat balance 0.89 over
    # 10,000 games, the band 0.90): 200 games of seed 1 put the seats' intervals apart.
    assert [w["message"][:30] for w in findings(data, "warning") if w["check"] not in ("skill", "usage", "colours")] == ["3 players: seat balance 0.76 ("]
    # The other known finding (DESIGN.md, "Colour vision"): six pairs of family colours that
    # a colour-blind player may not tell apart on the heart tokens, which carry no crest.
    close = [w["message"].split(" look")[0] for w in findings(data, "warning") if w["check"] == "colours"]
    assert close[:2] == ["families: crest-bellamy and crest-ellery", "families: crest-ashford and crest-grantham"] and len(close) == 6
    prim = data["exact"]["odds"]["desires.prim"]["goals"]
    assert len(prim) == 9
    assert Fraction(prim["a-learned-match"]["3"]["probability"]) == Fraction(3696, 20349)
    assert data["exact"]["deal"]["traits"]["8"] == {"deck": 57, "dealt": 40, "left": 17}


def test_a_suit_too_small_for_the_deck_table(tmp_path: Path) -> None:
    checks = GOOD_CHECKS.replace("  deal:\n", "  per_value:\n    - {component: cards, field: suit, table: per_suit, why: built by suit}\n  deal:\n")
    checks = checks.replace("  per_other: 1\n", "  per_other: 1\n  per_suit: {2: 1, 3: 2, 4: 3}\n")
    cards = CARDS.replace("symbols: {sun: 1, moon: -1}}", "symbols: {sun: 1, moon: -1}, suit: red}")
    game = make_game(tmp_path, checks, cards)
    text = (game / "game.yaml").read_text().replace("      symbols:\n        type: map", "      suit: {type: ref, set: crests, doc: A suit.}\n      symbols:\n        type: map", 1)
    (game / "game.yaml").write_text(text)
    code, data = check(game)
    assert code == 1
    messages = [e["message"] for e in findings(data, "error") if e["check"] == "per-value"]
    assert "3 players need 2 cards of red, but there are 1 (built by suit)" in messages


@pytest.mark.parametrize("table", ["{3: -1, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5}", "{9: 5, 10: 5}", "{3: 99999999999, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5}"])
def test_an_unusable_hand_table_is_reported_once_and_nothing_is_played(tmp_path: Path, table: str) -> None:
    """A shipped game with its hand table broken and its type not declared:
    check reports it (once, at its line) and plays no game; simulate refuses
    with exit 2; no traceback. (Declared, the loader refuses it first.)"""
    game = tmp_path / "persuasion-d01"
    shutil.copytree(ROOT / "card_data" / "persuasion-d01", game)
    text = (game / "game.yaml").read_text()
    assert "hand_size: {3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5}" in text
    declared = text.index("  hand_size:\n    type: map")
    text = text[:declared] + text[text.index("  prim_matches: {type", declared):]
    (game / "game.yaml").write_text(text.replace("hand_size: {3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5}", f"hand_size: {table}"))
    assert run_pnp("check", str(game), "--games", "0", "--strict").returncode == 2  # undeclared: a warning
    code, data = check(game, "--games", "20")
    assert code == 1
    about = [f for f in findings(data, "error") if "rules.hand_size" in f["message"]]
    assert len(about) == 1 and re.search(r"/game\.yaml:83:(14|18)$", about[0]["where"]), data["findings"]
    assert any(f["check"] == "simulation" and "not played" in f["message"] for f in findings(data, "info")), data["findings"]
    assert "simulation" not in data["exact"]
    played = run_pnp("simulate", str(game), "--players", "4", "--games", "5", "--trust-rules")
    assert played.returncode == 2 and "Traceback" not in played.stderr, played.stderr
    assert "no game was played" in played.stderr


def test_the_summary_says_no_game_was_played_and_how_to_allow_it(tmp_path: Path) -> None:
    """A game folder outside the project: its engine is not run unless allowed,
    and the summary line says so rather than a bare "ok"."""
    game = tmp_path / "high-card"
    shutil.copytree(ROOT / "docs" / "examples" / "high-card", game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    result = run_pnp("check", str(game), "--games", "2")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    summary = result.stdout.splitlines()[-1]
    assert summary.startswith("high-card: ok: 0 errors, 0 warnings; no game was played: "), summary
    assert "--trust-rules" in summary and "PNP_TRUST_RULES=1" in summary, summary
    played = run_pnp("check", str(game), "--games", "2", "--trust-rules")
    assert played.returncode == 0 and "no game was played" not in played.stdout, played.stdout
    assert played.stdout.splitlines()[-1] == "high-card: ok: 0 errors, 0 warnings", played.stdout


def test_a_deck_with_no_copies_is_unusable_input_for_check(tmp_path: Path) -> None:
    """A balance table over no copies ended in ZeroDivisionError; odds over
    them named no place. Both are unusable input: exit 2, told at the check."""
    cards = CARDS.replace("}}\n", "}, copies: 0}\n")
    game = make_game(tmp_path, cards=cards)
    result = run_pnp("check", str(game), "--games", "0")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    balance = at(game / "game.yaml", "{component: cards", len("{component: "), after="  balance:")
    odds = at(game / "game.yaml", "deck: cards, field", len("deck: "), after="  odds:")
    for place, key in ((balance, "checks.balance[0].component"), (odds, "checks.odds[0].deck")):
        assert f"{place}: {key}: every card of 'cards' has copies: 0" in result.stderr, result.stderr


def test_a_wrong_chip_count_is_told_at_the_chips_file_entry(tmp_path: Path) -> None:
    """Partisan with a Suns chip too few: told at the chips file's first Suns
    chip, where the copies are given, not at the check in game.yaml."""
    game = tmp_path / "partisan"
    shutil.copytree(ROOT / "card_data" / "partisan", game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    chips = game / "chips.yaml"
    chips.write_text(chips.read_text().replace("suit: suns, copies: 7}", "suit: suns, copies: 6}"))
    code, data = check(game, "--games", "0")
    assert code == 1
    suns = [e for e in findings(data, "error") if "suns 7 times, expected exactly 8" in e["message"]]
    assert len(suns) == 1 and suns[0]["where"].endswith(at(chips, "{id: suns-leader")), data["findings"]


def test_suit_odds_over_a_deck_smaller_than_a_hand_is_a_finding(tmp_path: Path) -> None:
    """D01 with a trait deck of one letter a suit at 3 players: a hand of 5
    cannot be dealt from 3, told at the odds check (it was a ValueError)."""
    game = tmp_path / "persuasion-d01"
    shutil.copytree(ROOT / "card_data" / "persuasion-d01", game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    text = (game / "game.yaml").read_text()
    assert "trait_deck_per_suit: {3: 7," in text
    (game / "game.yaml").write_text(text.replace("trait_deck_per_suit: {3: 7,", "trait_deck_per_suit: {3: 1,"))
    code, data = check(game, "--games", "0")
    assert code == 1
    odds = [e for e in findings(data, "error") if e["check"] == "odds"]
    assert len(odds) == 2 and all(e["message"] == "3 players: a hand of 5 cannot be dealt from 3 cards" for e in odds), odds
    assert odds[0]["where"].endswith(at(game / "game.yaml", "{kind: suit-matches, label: prim")), odds

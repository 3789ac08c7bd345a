"""`pnp score`: the documented table format (docs/score-tables.md), its
examples, readable text for every game, and bad tables refused at file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, run_pnp

def example(game: str) -> Path:
    """The example table a game keeps in its own folder (docs/score-tables.md)."""
    return ROOT / "card_data" / game / "examples" / "table.yaml"


B04 = example("persuasion-b04").read_text()
D01 = example("persuasion-d01").read_text()


@pytest.mark.parametrize("game", ["persuasion-b04", "persuasion-d01"])
def test_each_example_scores_as_text_and_json(game: str) -> None:
    table = str(example(game))
    text = run_pnp("score", game, table)
    assert text.returncode == 0, text.stderr
    assert len(text.stdout.splitlines()) == 3 and all(("WINS" in line) != ("loses" in line) for line in text.stdout.splitlines())
    assert run_pnp("score", game, table, "--json").returncode == 0


@pytest.mark.parametrize("game", ["persuasion-b04", "persuasion-d01"])
def test_the_text_says_wins_for_exactly_the_winners(game: str) -> None:
    import json

    table = str(example(game))
    wins = [p["wins"] for p in json.loads(run_pnp("score", game, table, "--json").stdout)["players"]]
    lines = run_pnp("score", game, table).stdout.splitlines()
    assert True in wins and False in wins
    assert [" WINS: " in line or ": WINS:" in line for line in lines] == wins


def test_d01_text_names_points_and_victories() -> None:
    done = run_pnp("score", "persuasion-d01", str(example("persuasion-d01")))
    # Ashford seeks sense: fiance's front has 3 sense (prim), own 4 sense (proper), unique 3 sense: 9 + 2 hearts.
    assert done.stdout.splitlines()[0] == "ashford (engaged): WINS: 11 points (prim, proper, unique, 2 hearts)"


BAD = [
    ("persuasion-b04", B04, "    hand: [romantic,", "    hnad: [romantic,", 8, "players[0].hnad: unknown key 'hnad'"),
    ("persuasion-b04", B04, "status: independent", "status: married", 16, "players[2].status: unknown status 'married'"),
    ("persuasion-b04", B04, "calculating, extravagant", "calculating, calculating", 8, "players[0].hand[3]: card 'calculating' is already on the table"),
    ("persuasion-b04", B04, "  - crest: carrow", "  - crest: ashford", 14, "players[2].crest: crest 'ashford' is already players[0]"),
    ("persuasion-b04", B04, "    fiance: ashford", "    fiance: carrow", 12, "players[1].fiance: bellamy's fiance carrow does not name bellamy back"),
    ("persuasion-b04", B04, "    hand: [wild, rakish, handsome,", "    hand: [wild, handsome,", 17, "players[2].hand: 9 cards; a hand at 3 players holds 10"),
    ("persuasion-b04", B04, "    desires: prudent", "    desires: sporting", 15, "players[2].desires: card 'sporting' is already on the table"),
    ("persuasion-d01", D01, "    front: [well-read,", "    hand: [well-read,", 8, "players[0].hand: unknown key 'hand'"),
    ("persuasion-d01", D01, "    hearts: 4", "    hearts: 7", 13, "players[1].hearts: expected a whole number from 0 to 6, found 7"),
    ("persuasion-d01", D01, "    desires: a-grand-alliance", "    desires: a-grand-alliance\n    status: engaged", 15, "an engaged player needs 'fiance'"),
    ("persuasion-d01", D01, "[landed, propertied,", "[landed, studious,", 18, "players[2].front[1]: card 'studious' is already on the table"),
    ("persuasion-d01", D01, "    hearts: 1", "    hearts: 1\n    fiance: ashford", 18, "players[2].fiance: only an engaged player has a fiance"),
    ("persuasion-d01", D01, "status: engaged\n    fiance: bellamy", "status: wed\n    fiance: bellamy", 5, "players[0].status: unknown status 'wed'"),
    ("persuasion-d01", D01, "players:", "player:", 3, "unknown key 'player'"),
    ("persuasion-d01", D01, "    hearts: 4", "    hearts: yes", 13, "players[1].hearts: expected a whole number from 0 to 6, found 'yes'"),
    ("persuasion-d01", D01, "    hearts: 2", "    hearts: 6", 3, "11 hearts held in all; the table has only 9"),
    ("persuasion-b04", B04, "    desires: prudent", "    desires: {fortune: true}", 15, "players[2].desires: expected a card id or {symbol: 1 or -1}"),
    ("persuasion-b04", B04, "    desires: prudent", "    desires: {charm: 1}", 15, "players[2].desires: expected a card id or {symbol: 1 or -1}"),
    ("persuasion-b04", B04, "    fiance: ashford", "    fiance: nobody", 12, "players[1].fiance: an engaged player needs 'fiance'"),
    ("persuasion-b04", B04, "players:", "zeta: 1\nalpha: 2\nplayers:", 4, "alpha: unknown key 'alpha'; expected 'players'"),
    ("persuasion-b04", "players: []\n", "players: []", "players: []", 1, "expected 'players': a list of players"),
    ("persuasion-b04", "players:\n  - {crest: ashford, desires: sporting, hand: []}\n  - {crest: bellamy, desires: prudent, hand: []}\n",
     "players:", "players:", 2, "2 players; the game is for 3 to 8"),
]


@pytest.mark.parametrize("game, text, old, new, line, words", BAD, ids=[f"{b[0][-3:]}-{i}" for i, b in enumerate(BAD)])
def test_a_bad_table_is_refused_at_its_line(tmp_path: Path, game: str, text: str, old: str, new: str, line: int, words: str) -> None:
    assert old in text
    table = tmp_path / "table.yaml"
    table.write_text(text.replace(old, new, 1))
    done = run_pnp("score", game, str(table))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"table.yaml:{line}:" in done.stderr and words in done.stderr, done.stderr


def test_the_shadows_letters_score_in_d01(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    table.write_text(D01.replace("[landed, propertied, devoted,", "[landed, possessive, jealous,"))
    done = run_pnp("score", "persuasion-d01", str(table), "--json")
    assert done.returncode == 0, done.stderr


def test_a_table_at_the_limits_is_accepted(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    table.write_text(D01.replace("    hearts: 2\n", "    hearts: 0\n").replace("    hearts: 1\n", "    hearts: 3\n").replace("    hearts: 4\n", "    hearts: 6\n"))
    done = run_pnp("score", "persuasion-d01", str(table), "--json")
    assert done.returncode == 0, done.stderr  # 6 hearts (3 from each other player), 9 in all

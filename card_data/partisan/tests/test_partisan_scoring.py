"""Partisan's scoring, one test per rule and tie rule, on tables small
enough to check by hand (suits by index: 0 moons, 1 suns, 2 waves ...)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.engine.plugins import engine_for
from pnp.errors import InputError
from pnp.loading.loader import load_game
from pnp.testing import game_folder, run_pnp, score as score_table


GAME_DIR = Path(__file__).resolve().parents[1]
GAME = load_game(GAME_DIR)
RULES, OPTIONS = engine_for(GAME, trust=True)
score = RULES.scoring.score


def chips(**by_suit: int) -> list[int]:
    order = ("moons", "suns", "waves", "leaves", "wyrms", "knots")
    return [by_suit.get(s, 0) for s in order]


def test_most_partisans_win_the_group_and_its_topics() -> None:
    result = score([chips(moons=3), chips(moons=1, suns=2)], [chips(moons=2, suns=1), chips(suns=3)])
    assert [g.winner for g in result.groups][:2] == [0, 1]
    # A topic's every chip goes to the owner of its strongest won group, suits they did not win included.
    assert result.scores == (3, 3)


def test_a_tie_for_a_group_wins_it_for_nobody() -> None:
    result = score([chips(moons=2), chips(moons=2, suns=1)], [chips(moons=3, suns=1)])
    assert result.groups[0].winner is None and result.groups[0].tied == (0, 1) and result.groups[0].how == "tie"
    # Moons is won by nobody, so the suns chip decides the topic.
    assert result.scores == (0, 4)


def test_a_topic_tie_between_players_splits_per_group_and_discards_the_rest() -> None:
    result = score([chips(moons=1), chips(suns=1)], [chips(moons=2, suns=2, waves=1)])
    topic = result.topics[0]
    assert topic.split == (0, 1) and topic.shares == (2, 2) and topic.discarded == 1 and topic.owner is None


def test_a_player_with_two_tied_groups_takes_two_shares() -> None:
    result = score([chips(moons=1, suns=1), chips(waves=1)], [chips(moons=2, suns=2, waves=2, knots=1)])
    assert result.topics[0].shares == (4, 2) and result.topics[0].discarded == 1


def test_tied_groups_of_one_player_give_that_player_the_whole_topic() -> None:
    result = score([chips(moons=1, suns=1), chips(waves=1)], [chips(moons=2, suns=2, waves=1)])
    assert result.topics[0].owner == 0 and result.topics[0].shares == (5, 0) and result.topics[0].discarded == 0


def test_a_topic_without_a_won_group_goes_to_nobody() -> None:
    result = score([chips(moons=1), chips(moons=1)], [chips(moons=3)])
    assert result.topics[0].owner is None and result.topics[0].discarded == 3 and result.scores == (0, 0)
    assert result.winners == (False, False)  # 0 points never wins


def test_equal_highest_scores_share_the_win() -> None:
    result = score([chips(moons=1), chips(suns=1)], [chips(moons=2), chips(suns=2)])
    assert result.scores == (2, 2) and result.winners == (True, True)


def test_leaders_the_tied_holder_wins_the_group() -> None:
    result = score([chips(moons=2), chips(moons=2)], [chips(moons=1)], leader_holder=[1, None, None, None, None, None])
    assert result.groups[0].winner == 1 and result.groups[0].how == "leader" and result.scores == (0, 1)


def test_leaders_an_untied_holder_picks_the_winner() -> None:
    asked = []

    def settle(suit: int, holder: int, tied: tuple[int, ...]) -> int:
        asked.append((suit, holder, tied))
        return tied[-1]

    partisans = [chips(moons=2), chips(moons=2), chips(moons=1)]
    result = score(partisans, [chips(moons=1)], leader_holder=[2, None, None, None, None, None], settle=settle)
    assert asked == [(0, 2, (0, 1))] and result.groups[0].winner == 1 and result.groups[0].how == "settled"


def test_leaders_without_a_holder_the_tie_stays() -> None:
    result = score([chips(moons=2), chips(moons=2)], [chips(moons=1)], leader_holder=[None] * 6)
    assert result.groups[0].winner is None


TABLE = game_folder(__file__) / "examples" / "table.yaml"


def test_pnp_score_scores_a_real_table() -> None:
    done = score_table(game_folder(__file__), TABLE, "--variant", "leaders")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "moons: won by Ada",
        "suns: Ada, Ben tie; Ben wins it by the leader",
        "waves: Ben, Cy tie for most partisans, nobody wins the group",
        "leaves: won by Cy",
        "wyrms: Ada, Cy tie; Cy wins it by the leader",
        "knots: no partisans, nobody wins the group",
        "the-pact: split between moons, suns: Ada 2, Ben 2; 1 discarded",
        "the-cave: Cy takes 4",
        "the-mill: Cy takes 3",
        "the-author: no won group on it; its chips are discarded",
        "Ada: 2 points",
        "Ben: 2 points",
        "Cy: 7 points: WINS",
    ]


@pytest.mark.parametrize(
    "old, new, words",
    [
        ("partisans: {moons: 3", "partisans: {moon: 3", "players[0].partisans.moon: unknown suit 'moon'"),
        ("leaders: [suns, wyrms]", "leaders: [suns, wyrms, moons]", "the moons leader is already held by Ada"),
        ("settle: {wyrms: Cy}", "settle: {}", "Ben holds the wyrms leader and must pick among Ada, Cy"),
    ],
)
def test_a_wrong_table_is_reported_at_its_line(tmp_path: Path, old: str, new: str, words: str) -> None:
    text = TABLE.read_text()
    assert old in text
    bad = tmp_path / "table.yaml"
    bad.write_text(text.replace(old, new, 1))
    done = score_table(game_folder(__file__), bad, "--variant", "leaders")
    assert done.returncode == 2 and words in done.stderr and "table.yaml:" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_leaders_count_only_in_the_leaders_variant() -> None:
    pack = RULES.prepare(GAME, OPTIONS)
    with pytest.raises(InputError, match="only in the Leaders variant"):
        RULES.score(pack, {"players": [{"name": "a", "partisans": {"moons": 1}, "leaders": ["moons"]}, {"name": "b", "partisans": {}}]})

"""The endgame by hand: who wins each NPC in both ways of the Group Decision,
the Main Match and its Tokens of Life, the Elimination Candidate, the Garnets
in thirds; and `pnp score` on a real final ledger."""

from __future__ import annotations

import pytest
from thou_engine_kit import GAME_DIR, RULES, T, new_game, play_round, prepared

from pnp.errors import InputError
from pnp.loading.yamlsrc import load_yaml
from pnp.testing import run_pnp, score as score_table

endgame = RULES.endgame


@pytest.mark.parametrize(
    "points, most, top_two",
    [
        ([3, 1, 0], (0,), (0, 1)),
        ([3, 1, 1], (0,), (0,)),  # a tie for second: neither second wins
        ([2, 2, 1], (), (0, 1)),  # two tied at the top: void, or both win
        ([2, 2, 2], (), ()),  # three tied at the top: void either way
        ([3, 0, 0], (0,), (0,)),  # no point, no NPC
        ([0, 0, 0], (), ()),
        ([1, 4, 2, 4, 3], (), (1, 3)),
        ([1, 5, 2, 4, 3], (1,), (1, 3)),
    ],
)
def test_who_wins_an_npc_in_each_way_of_the_endgame(points: list[int], most: tuple[int, ...], top_two: tuple[int, ...]) -> None:
    assert endgame.npc_winners(points, T.MOST) == most
    assert endgame.npc_winners(points, T.TOP_TWO) == top_two


def _table(won: list[int], players: int) -> list[list[int]]:
    """Points giving seat s exactly won[s] NPCs (one point on NPCs of its own)."""
    rows = [[0] * T.NPCS for _ in range(players)]
    x = 0
    for s, count in enumerate(won):
        for _ in range(count):
            rows[s][x] = 1
            x += 1
    return rows


@pytest.mark.parametrize(
    "won, main, tokens, fewest",
    [
        ([5, 3, 1], (0,), (2, 0, 0), (2,)),
        ([4, 4, 1], (0, 1), (1, 1, 0), (2,)),
        ([4, 4, 4, 1], (), (0, 0, 0, 0), (3,)),  # three tie for first: Tokens void
        ([5, 1, 1], (0,), (2, 0, 0), (1, 2)),  # the winner names the candidate
        ([0, 0, 0], (), (0, 0, 0), (0, 1, 2)),
    ],
)
def test_main_match_tokens_of_life_and_the_elimination_candidate(won: list[int], main: tuple[int, ...], tokens: tuple[int, ...], fewest: tuple[int, ...]) -> None:
    res = endgame.results(_table(won, len(won)), [0] * len(won), T.MOST, T.NPCS, 2, 3)
    assert (res.won, res.main, res.tokens, res.fewest) == (tuple(won), main, tokens, fewest)


def test_garnets_are_counted_in_thirds_and_rounded_down_at_the_end() -> None:
    res = endgame.results(_table([2, 1, 0], 3), [4, 2, 8], T.MOST, T.NPCS, 2, 3)
    assert res.garnets == ((4 + 6) // 3, (2 + 3) // 3, 8 // 3) == (3, 1, 2)


def test_a_whole_game_ends_with_the_endgame_of_its_true_points() -> None:
    st = new_game()
    for _ in range(9):
        play_round(st, {0: [T.HERMIT, T.EMPRESS, T.TEMPERANCE], 1: [T.HERMIT], 2: [T.CHARIOT]})
    out = st.outcome()
    assert st.is_terminal() and st.decision() is None and out.rounds == 9
    assert out.hands == (("empress", "temperance"), (), ("chariot",))  # the Hermit tied 9 all: void
    assert out.categories[0] == "main match" and out.winners == (True, False, False)
    assert out.categories[1] == "elimination candidate" and out.details["tokens"] == [2, 0, 0]


def test_the_single_main_match_winner_names_the_candidate_among_a_tie() -> None:
    st = new_game()
    for _ in range(8):
        play_round(st, {0: [T.HERMIT]})
    asked = play_round(st, {0: [T.HERMIT]}, {(0, "eliminate"): [2]})
    assert asked[-1].kind == "eliminate" and tuple(asked[-1].options) == (1, 2)
    assert st.candidate == 2 and st.outcome().categories == ("main match", "between", "elimination candidate")


def test_the_vote_variant_decides_by_majority_shown_together() -> None:
    st = RULES.new_state(prepared("vote"), 3, __import__("random").Random(1), {})
    for vote in (T.TOP_TWO, T.MOST):
        assert st.decision().kind == "vote" and st.observation(2).votes == ()
        st.apply(vote)
    st.apply(T.TOP_TWO)
    assert st.mode == T.TOP_TWO and st.observation(0).votes == (T.TOP_TWO, T.MOST, T.TOP_TWO)


LEDGER = """\
endgame: top-two
players:
  - {name: Ann, points: {sun: 3, moon: 1, star: 2}, garnets: 1, thirds: 2}
  - {name: Bo, points: {sun: 1, moon: 2}}
  - {name: Cy, points: {star: 2, world: 1}}
"""


def test_score_a_real_final_ledger(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = tmp_path / "final.yaml"
    table.write_text(LEDGER + "eliminates: Cy\n")
    result = RULES.score(prepared(), load_yaml(table))
    won = {n["npc"]: n["winners"] for n in result["npcs"] if n["winners"]}
    assert won == {"sun": ["Ann", "Bo"], "moon": ["Bo", "Ann"], "star": ["Ann", "Cy"], "world": ["Cy"]}
    players = {p["name"]: p for p in result["players"]}
    assert (players["Ann"]["npcs"], players["Bo"]["npcs"], players["Cy"]["npcs"]) == (3, 2, 2)
    assert players["Ann"]["tokens"] == 2 and players["Ann"]["garnets"] == (5 + 9) // 3
    table.write_text(LEDGER)
    done = score_table(GAME_DIR, table)
    assert done.returncode == 2 and "Bo, Cy tie for fewest NPCs" in done.stderr and "eliminates: NAME" in done.stderr, done.stderr
    table.write_text(LEDGER + "eliminates: Cy\n")
    done = score_table(GAME_DIR, table)
    assert done.returncode == 0, done.stderr
    assert "Ann: 3 NPCs, 4 Garnets, 2 Tokens of Life: MAIN MATCH" in done.stdout and "Cy: 2 NPCs, 2 Garnets: ELIMINATION CANDIDATE" in done.stdout


def test_a_bad_ledger_is_refused_at_its_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = tmp_path / "final.yaml"
    table.write_text(LEDGER.replace("moon: 2", "mooon: 2").replace("star: 2, world", "star: -1, world"))
    with pytest.raises(InputError) as caught:
        RULES.score(prepared(), load_yaml(table))
    said = str(caught.value)
    assert "final.yaml:4:" in said and "unknown NPC 'mooon'" in said and "final.yaml:5:" in said and "at least 0" in said


def test_the_documented_example_ledger_scores_as_the_docs_say() -> None:
    example = GAME_DIR / "examples" / "table.yaml"
    lines = RULES.score_text(RULES.score(prepared(), load_yaml(example)))
    assert "hermit: Ada, Ben tie with 1: nobody wins it" in lines and "tower: Ada" in lines
    assert lines[-5:] == [
        "Ada: 3 NPCs, 4 Garnets, 2 Tokens of Life: MAIN MATCH", "Ben: 2 NPCs, 2 Garnets", "Cleo: 2 NPCs, 2 Garnets",
        "Dev: 2 NPCs, 2 Garnets", "Eli: 1 NPC, 1 Garnet: ELIMINATION CANDIDATE",
    ]


def test_a_ledger_without_endgame_is_scored_by_the_variant() -> None:
    table = {"players": [{"name": "A", "points": {"sun": 3}}, {"name": "B", "points": {"sun": 1}}, {"name": "C", "points": {"moon": 1}}], "eliminates": "C"}
    assert RULES.score(prepared(), table)["npcs"][T.SUN]["winners"] == ["A"]
    assert RULES.score(prepared("top-two"), table)["npcs"][T.SUN]["winners"] == ["A", "B"]
    with pytest.raises(InputError, match="expected most or top-two"):
        RULES.score(prepared("vote"), table)

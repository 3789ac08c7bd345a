"""Courting Season's rules, one step at a time, on tables set up by hand
(courting_tables.py): every number below can be checked against
characters.yaml and influence.yaml."""

from __future__ import annotations

import pytest

from courting_tables import card, char, pack, table

# Two players. Seat 0: Clementina Merriweather (lady: wit 4, kindness 2,
# standing 2, wealth 4; prefers standing) and three more; seat 1: Felix
# Pellingham (gentleman: wit 3, kindness 2, standing 4, wealth 3; prefers
# standing) and three more.
SEAT0 = ["clementina-merriweather", "letitia-stanforth", "augustus-merriweather", "septimus-aldridge"]
SEAT1 = ["felix-pellingham", "cordelia-aldridge", "horatio-whitlock", "eudora-whitlock"]
PROPOSE = ("propose", "clementina-merriweather", 1, "felix-pellingham")


def _move(p, move):
    """A move written with character and card ids, as the engine's options hold them."""
    if move[0] == "propose":
        return ("propose", char(p, move[1]), move[2], char(p, move[3]))
    return ("host", card(p, move[1]), char(p, move[2]), move[3], char(p, move[4]))


def test_an_accepted_match_pays_both_proposer_first_and_both_draw_influence() -> None:
    p = pack()
    # Clementina's die shows wealth: Felix's wealth 3. Felix's shows wit: Clementina's wit 4.
    state = table(p, [SEAT0, SEAT1], faces=["wealth", "wit"])
    supply = state.supply
    state.apply(_move(p, PROPOSE))
    assert state.decision().seat == 1 and state.decision().kind == "answer"
    state.apply("accept")
    assert state.prestige == [5 + 3, 5 + 4] and state.supply == supply - 7
    assert char(p, "clementina-merriweather") not in state.societies[0] and char(p, "felix-pellingham") not in state.societies[1]
    assert state.discarded == [char(p, "clementina-merriweather"), char(p, "felix-pellingham")]
    assert [len(h) for h in state.hands] == [1, 1]
    assert state.active == 1  # the turn passed on: seat 1 now draws to refill


def test_a_preference_face_reads_as_the_rolling_characters_preference() -> None:
    p = pack()
    # Clementina prefers standing: Felix's standing 4. Felix prefers standing: Clementina's 2.
    state = table(p, [SEAT0, SEAT1], faces=["preference", "preference"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    assert state.prestige == [9, 7]


def test_a_declined_match_costs_both_and_the_decliner_draws() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], faces=["wealth", "wit"])
    supply = state.supply
    state.apply(_move(p, PROPOSE))
    state.apply("decline")
    assert state.prestige == [5 - 3, 5 - 4] and state.supply == supply + 7
    assert char(p, "clementina-merriweather") in state.societies[0] and char(p, "felix-pellingham") in state.societies[1]
    assert [len(h) for h in state.hands] == [0, 1]


def test_a_player_without_prestige_must_accept() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], prestige=[5, 0], faces=["wealth", "wit"])
    state.apply(_move(p, PROPOSE))
    assert state.decision().kind != "answer"  # no choice: accepted
    assert state.prestige == [8, 4] and state.actions["accept"] == 1


def test_a_loss_is_paid_as_far_as_the_player_can() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], prestige=[2, 5], faces=["wealth", "wit"])
    supply = state.supply
    state.apply(_move(p, PROPOSE))
    state.apply("decline")
    assert state.prestige == [0, 1] and state.supply == supply + 2 + 4


def test_no_match_within_a_family_nor_of_one_kind() -> None:
    p = pack()
    state = table(p, [SEAT0, ["augustus-merriweather" if False else "barnaby-quarles", "dorothea-merriweather", "horatio-whitlock", "eudora-whitlock"]])
    moves = state.decision().options
    dorothea = char(p, "dorothea-merriweather")
    assert all(m[3] != dorothea or p.characters[m[1]].family != "Merriweather" for m in moves if m[0] == "propose")
    assert ("propose", char(p, "augustus-merriweather"), 1, dorothea) not in moves
    assert ("propose", char(p, "clementina-merriweather"), 1, char(p, "eudora-whitlock")) not in moves  # two ladies
    assert ("propose", char(p, "clementina-merriweather"), 1, char(p, "horatio-whitlock")) in moves


def test_hosting_exchanges_pays_host_first_and_lays_both_face_down() -> None:
    p = pack()
    # Hollowmere names wit: seat 0 takes Felix's wit 3, seat 1 Clementina's wit 4.
    state = table(p, [SEAT0, SEAT1], hands=[["host-hollowmere"], []])
    move = _move(p, ("host", "host-hollowmere", "clementina-merriweather", 1, "felix-pellingham"))
    state.apply(move)
    clem, felix = char(p, "clementina-merriweather"), char(p, "felix-pellingham")
    assert felix in state.societies[0] and clem in state.societies[1]
    assert state.prestige == [8, 9]
    # Seat 1's turn began: it flipped Clementina face up; Felix lies face down in seat 0 and is out of reach.
    assert state.decision().seat == 1 and state.down == {felix}
    assert all(felix not in m for m in state.decision().options)
    assert state.played == [card(p, "host-hollowmere")] and state.hands[0] == []


def test_host_may_not_leave_four_of_one_kind() -> None:
    p = pack()
    # Seat 1 holds three ladies and a gentleman: sending it a lady for its gentleman is refused.
    them = ["cordelia-aldridge", "eudora-whitlock", "isolde-penrose", "felix-pellingham"]
    state = table(p, [SEAT0, them], hands=[["host-hollowmere"], []])
    options = state.decision().options
    hosts = {(m[2], m[4]) for m in options if m[0] == "host"}
    felix, clem, letitia = char(p, "felix-pellingham"), char(p, "clementina-merriweather"), char(p, "letitia-stanforth")
    assert (clem, felix) not in hosts and (letitia, felix) not in hosts
    assert (char(p, "augustus-merriweather"), felix) in hosts  # a gentleman for a gentleman
    assert (clem, char(p, "eudora-whitlock")) in hosts


def test_face_down_characters_are_immune_until_their_player_flips_them() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], hands=[[], ["host-hollowmere"]], down=["felix-pellingham"], faces=["wit", "wit"])
    felix = char(p, "felix-pellingham")
    assert all(m[3] != felix for m in state.decision().options)
    state.apply(_move(p, ("propose", "letitia-stanforth", 1, "horatio-whitlock")))
    state.apply("decline")
    # Seat 1's turn: Felix is flipped face up, and may be proposed with or sent away.
    decision = state.decision()
    assert decision.seat == 1 and felix not in state.down
    assert any(m[0] == "propose" and m[1] == felix for m in decision.options)


def test_the_last_token_ends_the_game_at_once() -> None:
    p = pack()
    # The supply holds 3: Clementina's roll takes Felix's wealth 3, the last of it; Felix never rolls.
    state = table(p, [SEAT0, SEAT1], supply=3, faces=["wealth"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    assert state.ended == "tokens" and state.prestige == [8, 5]
    assert char(p, "felix-pellingham") in state.societies[1] and state.hands == [[], []]
    assert state.decision().seat == 0 and state.decision().kind == "farewell"


def test_a_claim_the_supply_cannot_pay_is_lost() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], supply=2, faces=["wealth"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    assert state.prestige == [7, 5] and state.supply == 0 and state.lost == 1


def test_the_last_card_of_a_pile_ends_the_game_at_once() -> None:
    p = pack()
    # One influence card left: the proposer's draw takes it; Felix never rolls.
    state = table(p, [SEAT0, SEAT1], faces=["wealth"], influence_left=1)
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    assert state.ended == "influence" and state.prestige == [8, 5] and [len(h) for h in state.hands] == [1, 0]


def test_the_last_character_drawn_ends_the_game() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], faces=["wealth", "wit"])
    state.piles[1] = state.piles[1][-1:]  # one gentleman left
    state.piles[0] = []  # no lady: seat 1 must draw the gentleman
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    assert state.ended == "gentlemen" and state.active == 1
    assert state.decision().seat == 1 and state.decision().kind == "farewell"


def test_the_player_whose_turn_ended_it_sends_one_away_and_kindness_is_subtracted() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], supply=3, faces=["wealth"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    # The game ended before Clementina left: seat 0 holds Clementina (kindness 2),
    # Letitia (5), Augustus (3), Septimus (3), and sends Letitia away.
    assert sorted(state.decision().options) == sorted(char(p, c) for c in SEAT0)
    state.apply(char(p, "letitia-stanforth"))
    assert state.is_terminal()
    # Seat 0: 8 less 2 + 3 + 3; seat 1: 5 less Felix 2, Cordelia 4, Horatio 2, Eudora 2.
    assert state.scores == (0, -5)
    outcome = state.outcome()
    assert outcome.winners == (True, False) and outcome.scores == (0.0, -5.0)


def test_equal_scores_share_the_win() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], supply=3, prestige=[5, 14], faces=["wealth"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    state.apply(char(p, "letitia-stanforth"))
    assert state.scores == (0, 4)
    state = table(p, [SEAT0, SEAT1], supply=3, prestige=[5, 10], faces=["wealth"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    state.apply(char(p, "letitia-stanforth"))
    assert state.scores == (0, 0) and state.outcome().winners == (True, True)


def test_drawing_never_makes_four_of_one_kind() -> None:
    p = pack()
    state = table(p, [SEAT0, SEAT1], faces=["wealth", "wit"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    # Seat 1 lost Felix and holds two ladies and Horatio: both piles may come.
    assert state.decision().kind == "draw" and set(state.decision().options) == {"lady", "gentleman"}
    state = table(p, [SEAT0, ["felix-pellingham", "cordelia-aldridge", "eudora-whitlock", "isolde-penrose"]], faces=["wealth", "wit"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    # Seat 1 holds three ladies: it draws a gentleman without being asked.
    assert state.decision().kind == "act" and state.decision().seat == 1
    assert sum(p.characters[c].kind for c in state.societies[1]) == 1


def test_a_seat_that_cannot_move_passes() -> None:
    p = pack()
    # Every character of seat 1 face down and no host card: seat 0 can do nothing.
    state = table(p, [SEAT0, SEAT1], down=SEAT1)
    assert state.actions["pass"] == 1 and state.decision().seat == 1 and not state.ended


# -- the advanced rules ---------------------------------------------------------


def test_a_face_up_meddler_lets_its_player_reroll_for_another_character() -> None:
    p = pack("advanced")
    me = ["clementina-merriweather", "honoria-pellingham", "augustus-merriweather", "septimus-aldridge"]
    # Clementina rolls wit (Felix's 3), re-rolls to standing (Felix's 4); Felix rolls wealth (Clementina's 4).
    state = table(p, [me, SEAT1], faces=["wit", "standing", "wealth"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    decision = state.decision()
    assert decision.kind == "reroll" and decision.seat == 0 and decision.context["value"] == 3
    state.apply("re-roll")
    assert state.prestige[0] == 9 and state.powers["meddler re-roll"] == 1


def test_no_reroll_for_the_meddler_itself_nor_without_the_advanced_rules() -> None:
    me = ["clementina-merriweather", "honoria-pellingham", "augustus-merriweather", "septimus-aldridge"]
    p = pack("advanced")
    state = table(p, [me, SEAT1], faces=["wit", "wealth"])
    state.apply(_move(p, ("propose", "augustus-merriweather", 1, "eudora-whitlock")))  # Honoria's own match is not hers to meddle
    state.apply("accept")
    assert state.decision().kind == "reroll"
    state = table(p, [me, SEAT1], faces=["wit", "wealth"])
    state.apply(_move(p, ("propose", "honoria-pellingham", 1, "horatio-whitlock")))
    state.apply("accept")
    assert state.decision().kind != "reroll"
    p = pack()
    state = table(p, [me, SEAT1], faces=["wit", "wealth"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    assert state.decision().kind != "reroll"


def test_welcoming_a_character_home_gives_another_turn_and_chains() -> None:
    p = pack("advanced")
    # Felix lives at Pennicott Place: hosting him there gives seat 0 another turn.
    state = table(p, [SEAT0, SEAT1], hands=[["host-pennicott", "host-deanery"], []])
    state.apply(_move(p, ("host", "host-pennicott", "clementina-merriweather", 1, "felix-pellingham")))
    assert state.decision().seat == 0 and state.powers["welcome home"] == 1
    # Cordelia lives at the Old Deanery: again.
    state.apply(_move(p, ("host", "host-deanery", "augustus-merriweather", 1, "cordelia-aldridge")))
    assert state.decision().seat == 0 and state.powers["welcome home"] == 2
    state = table(pack(), [SEAT0, SEAT1], hands=[["host-pennicott"], []])
    state.apply(_move(pack(), ("host", "host-pennicott", "clementina-merriweather", 1, "felix-pellingham")))
    assert state.decision().seat == 1


@pytest.mark.parametrize(("patron", "worth"), [("approval-ashcombe", 3 * 3), ("approval-prothero", 3 * 2)])
def test_an_intended_match_doubles_approval_and_triples_it_with_a_patron_of_its_circle(patron: str, worth: int) -> None:
    """Clementina and Felix are intended (the Spa Season). Lady Ashcombe
    (spa, wit) triples Felix's wit 3; Mrs Prothero (the Close, wit) doubles it."""
    p = pack("advanced")
    state = table(p, [SEAT0, SEAT1], hands=[[patron], []], faces=["wealth", "wit"])
    state.apply(_move(p, PROPOSE))
    state.apply("accept")
    assert state.decision().kind == "approve"
    state.apply(card(p, patron))
    assert state.prestige[0] == 5 + 3 + worth and state.powers["intended approval"] == 1
    plain = table(pack(), [SEAT0, SEAT1], hands=[[patron], []], faces=["wealth", "wit"])
    plain.apply(_move(pack(), PROPOSE))
    plain.apply("accept")
    plain.apply(card(pack(), patron))
    assert plain.prestige[0] == 5 + 3 + 3


def test_a_round_in_which_nobody_can_move_ends_the_game() -> None:
    """No proposal or host is open to anyone for a whole round: nothing can
    change any more, so the game ends there (RULES-NOTES.md)."""
    p = pack()
    state = table(p, [SEAT0, SEAT1], down=SEAT1)
    assert state.actions["pass"] == 1 and state.decision().seat == 1
    # Seat 1 in turn finds every character of seat 0 face down (as if hosted away).
    state._current, state.down, state.steps, state.passes = None, {char(p, c) for c in SEAT0}, [("act",), ("next",)], 1
    state._run()
    assert state.ended == "stuck" and state.decision().kind == "farewell" and state.decision().seat == 1

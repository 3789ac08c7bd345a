"""Every D01 letter power (base and Shadows) does what its printed text says.

Each test rigs a table by hand: who holds which letter and whose seal it bears,
then plays the decisions the power asks for and checks the result against
the letter's text (quoted from card_data/persuasion-d01/traits.yaml)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from pnp.engine.api import Decision
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.testing import engine, game_folder

D01 = engine(game_folder(__file__))[0]
D01State = D01.state.D01State
prepare = D01.prepare

GAME = load_game(resolve_game_dir("persuasion-d01"))
ALL = prepare(GAME, {**GAME.engine.options, "with_modules": True})
ID = {letter.id: i for i, letter in enumerate(ALL.letters)}
PLAIN = [i for i, letter in enumerate(ALL.letters) if not letter.powers]

Chooser = Callable[[D01State, Decision], Any]


def text(letter: str) -> str:
    return " / ".join(p["text"] for p in ALL.letters[ID[letter]].powers)


def rig(hands: list[list[str | int]], owners: dict[str, int] | None = None, deck: int = 12, players: int = 4) -> D01State:
    """A table of ``players`` whose hands are ``hands`` (letter ids, or plain
    letters by number), each letter sealed by its holder unless ``owners`` says
    otherwise; ``deck`` plain letters in the deck; nothing else in play."""
    state = D01State(ALL, players, random.Random(3))
    cards = [[ID[c] if isinstance(c, str) else c for c in hand] for hand in hands]
    used = {c for hand in cards for c in hand}
    spare = [c for c in PLAIN if c not in used]
    state.hands = [list(hand) for hand in cards] + [[] for _ in range(players - len(cards))]
    state.deck = spare[:deck]
    state.box = [c for c in range(len(ALL.letters)) if c not in used and c not in state.deck]
    state.owner = [-1] * len(ALL.letters)
    for seat, hand in enumerate(state.hands):
        for c in hand:
            state.owner[c] = seat
    for name, seat in (owners or {}).items():
        state.owner[ID[name]] = seat
    state._known = [{} for _ in range(players)]
    state._owners = [{} for _ in range(players)]
    for seat, hand in enumerate(state.hands):
        for c in hand:
            state._learn(seat, c)
    state._backs_again()  # hands set from outside the table's moves
    return state


def writes(state: D01State, d: Decision) -> Any:
    """Default morning: write the first letter to the next seat (no power)."""
    target = (d.seat + 1) % state.n
    return next((o for o in d.options if o[0] == "write" and o[1] == target), d.options[0])


def play_until(state: D01State, stop: Callable[[Decision], bool], choose: dict[tuple[int, str], Any] | None = None) -> Decision:
    """Answer decisions (from ``choose``, else plainly) until ``stop`` holds for one."""
    choose = choose or {}
    for _ in range(500):
        d = state.decision()
        assert d is not None, "the game ended first"
        if stop(d):
            return d
        key = (d.seat, d.kind)
        if key in choose:
            state.apply(choose[key](state, d) if callable(choose[key]) else choose[key])
        elif d.kind == "morning":
            state.apply(writes(state, d))
        elif d.kind == "letter":
            state.apply("attend")
        else:
            state.apply(d.options[0])
    raise AssertionError("no such decision")


def morning(state: D01State, powers: dict[int, str]) -> None:
    """Play the first morning: seats in ``powers`` use that letter's power."""
    for _ in range(state.n):
        d = play_until(state, lambda d: d.kind == "morning")
        if d.seat in powers:
            state.apply(("power", ID[powers[d.seat]]))
        else:
            state.apply(writes(state, d))


# -- base letters ---------------------------------------------------------------------


def test_well_read_looks_at_the_top_three_letters_of_the_deck() -> None:
    assert "top 3 letters of the deck" in text("well-read")
    state = rig([["well-read", 1, 2], [3, 4], [5, 6], [7, 8]])
    top = list(reversed(state.deck[-3:]))
    before = list(state.deck)
    morning(state, {0: "well-read"})
    play_until(state, lambda d: d.kind in ("letter", "ring", "scorned"))
    obs = state.observation(0)
    assert list(obs.deck_seen) == top and all(c in obs.known for c in top)
    assert state.deck == before, "looking does not move the deck"
    assert not any(c in state.observation(1).known for c in top), "only the owner looks"


def test_observant_lets_its_owner_choose_whose_desires_to_see() -> None:
    assert "one suitor's desires" in text("observant")
    state = rig([[1, 2], [3, 4], ["observant", 5], [6, 7]])
    d = play_until(state, lambda d: d.kind == "peek-desires")
    assert d.seat == 2 and set(d.options) == {0, 1, 3}
    state.apply(1)
    assert dict(state.observation(2).peeked_desires) == {1: state.desires[1]}
    assert not state.observation(0).peeked_desires


def test_circumspect_stops_a_peek_even_from_an_earlier_seat() -> None:
    assert "peek at my hand or my desires" in text("circumspect")
    state = rig([["observant", 1], [2, 3], ["circumspect", 4], [5, 6]])
    d = play_until(state, lambda d: d.kind == "peek-desires")
    state.apply(2)
    assert not state.observation(0).peeked_desires, "seat 2's letter protects it from the start"


def test_circumspect_stops_confiding_and_sends_the_letter_home() -> None:
    state = rig([[1, 2, "confiding"], ["circumspect", 3], [4], [5]], owners={"confiding": 1})
    # Seat 0 holds seat 1's Confiding; seat 1 owns Circumspect.
    state.hands[1] = [ID["circumspect"], 3, 9]
    state.owner[9] = 1
    state._backs_again()
    morning(state, {0: "confiding"})
    play_until(state, lambda d: d.kind in ("letter", "ring", "scorned"))
    assert ID["confiding"] in state.hands[1], "a prevented power's letter goes back to its owner"
    assert 9 not in state.observation(0).known and 3 not in state.observation(0).known


def test_circumspect_does_not_stop_trades() -> None:
    state = rig([[1, "affectionate"], ["circumspect", 3], [4], [5]], owners={"affectionate": 1})
    morning(state, {0: "affectionate"})
    d = play_until(state, lambda d: d.kind == "trade-give")
    assert d.seat == 0 and d.options == (1,)
    state.apply(1)
    d = play_until(state, lambda d: d.kind == "trade-give")
    assert d.seat == 1
    state.apply(3)
    assert 3 in state.hands[0] and 1 in state.hands[1]


def test_circumspect_no_longer_protects_once_discarded() -> None:
    state = rig([[1, 2], ["jealous", 3], ["circumspect", 4, 5], [6, 7]], owners={"circumspect": 2})
    # Seat 0 holds nothing of seat 2's; seat 2 owns Circumspect and gives it to seat 3 ... simpler:
    state.hands[2].remove(ID["circumspect"])
    state.hands[3].append(ID["circumspect"])
    state._backs_again()
    assert state.protected(2, "peek")
    for _ in range(4):
        d = play_until(state, lambda d: d.kind == "morning")
        state.apply(("write", 3, ID["jealous"]) if d.seat == 1 else writes(state, d))
    d = play_until(state, lambda d: d.kind == "discard")
    assert d.seat == 3 and ID["circumspect"] in d.options
    state.apply(ID["circumspect"])
    assert ID["circumspect"] in state.discards and not state.protected(2, "peek")


def test_affectionate_trades_between_holder_and_owner_by_their_choices() -> None:
    assert "trade a letter from your hand for one from mine" in text("affectionate")
    state = rig([[1, 2], [3, 4, "affectionate"], [5, 6], [7, 8]], owners={"affectionate": 2})
    morning(state, {1: "affectionate"})
    d = play_until(state, lambda d: d.kind == "trade-give")
    assert d.seat == 1 and set(d.options) == {3, 4}
    state.apply(4)
    d = play_until(state, lambda d: d.kind == "trade-give")
    assert d.seat == 2 and set(d.options) == {6}, "the owner gives from their own hand (5 went out by post)"
    state.apply(6)
    assert 6 in state.hands[1] and 4 in state.hands[2] and ID["affectionate"] in state.hands[1]
    assert 6 in state.observation(1).known and 4 in state.observation(2).known
    assert 6 not in state.observation(0).known


def test_constant_is_committed_in_front_of_its_holder() -> None:
    assert "commit this letter and keep it in front of you" in text("constant")
    state = rig([[1, 2], [3, "constant"], [5], [6]], owners={"constant": 0}, deck=0)
    d = play_until(state, lambda d: d.kind == "commit")
    assert d.seat == 1 and d.options == ("skip", ID["constant"])
    state.apply(ID["constant"])
    while (d := state.decision()) is not None:
        state.apply(d.options[0])
    assert ID["constant"] in state.fronts[1] and ID["constant"] not in state.fronts[0]


def test_constant_not_committed_goes_home() -> None:
    state = rig([[1, 2], [3, "constant"], [5], [6]], owners={"constant": 0}, deck=0)
    play_until(state, lambda d: d.kind == "commit")
    state.apply("skip")
    while (d := state.decision()) is not None:
        state.apply(d.options[0])
    assert ID["constant"] in state.fronts[0]


def test_old_family_commits_any_letter_from_the_holders_hand() -> None:
    assert "commit one letter from your hand" in text("old-family")
    state = rig([[1, 2], [3, "old-family", 9], [5], [6]], owners={"old-family": 0})
    state.owner[9] = 2  # seat 1 holds seat 2's letter 9
    state._backs_again()
    state.deck.clear()
    d = play_until(state, lambda d: d.kind == "commit")
    assert d.seat == 1 and set(d.options) == {"skip", 3, ID["old-family"], 9}
    state.apply(9)
    while (d := state.decision()) is not None:
        state.apply(d.options[0])
    assert 9 in state.fronts[1] and 9 not in state.fronts[2]
    assert ID["old-family"] in state.fronts[0]


def test_confiding_shows_its_holder_two_letters_of_the_owners_hand() -> None:
    assert "look at 2 letters in my hand" in text("confiding")
    state = rig([[1, "confiding"], [3, 4, 5, 6], [7], [8]], owners={"confiding": 1})
    morning(state, {0: "confiding"})
    play_until(state, lambda d: d.kind in ("letter", "ring", "scorned"))
    seen = [c for c in (3, 4, 5, 6) if c in state.observation(0).known]
    assert len(seen) == 2 and len(state.observation(0).seen_suits[1]) == 2
    assert ID["confiding"] in state.hands[0]


def test_well_connected_draws_its_owner_a_sealed_letter_at_start() -> None:
    assert "At start, I draw a letter" in text("well-connected")
    state = rig([[1, 2], [3, "well-connected"], [5], [6]])
    top = state.deck[-1]
    play_until(state, lambda d: d.kind == "morning")
    assert top in state.hands[1] and state.owner[top] == 1


def test_moneyed_owner_starts_with_one_letter_more() -> None:
    assert "one letter more than usual" in text("moneyed")
    for seed in range(60):
        state = D01State(ALL, 8, random.Random(seed))
        m = ID["moneyed"]
        if state.owner[m] >= 0:
            seat = state.owner[m]
            sealed = [c for c in state.hands[seat] if state.owner[c] == seat]
            extra = 1 if any(state.owner[ID[w]] == seat for w in ("well-connected",)) else 0
            assert len(sealed) == ALL.hand + 1 + 0 * extra
            assert state.hand_limit(seat) == ALL.hand + 1
            return
    pytest.skip("Moneyed was not dealt")


def test_influential_owner_chooses_the_partner_and_the_letters() -> None:
    assert "I trade a letter from my hand for one of theirs" in text("influential")
    state = rig([[1, 2], [3, 4], ["influential", 5, 6], [7, 8]])
    morning(state, {2: "influential"})
    d = play_until(state, lambda d: d.kind == "trade-partner")
    assert d.seat == 2 and set(d.options) == {0, 1, 3}
    state.apply(3)
    d = play_until(state, lambda d: d.kind == "trade-give")
    assert d.seat == 2 and set(d.options) == {5, 6}
    state.apply(6)
    d = play_until(state, lambda d: d.kind == "trade-give")
    assert d.seat == 3 and set(d.options) == {8}, "7 went out by post this morning"
    state.apply(8)
    assert 8 in state.hands[2] and 6 in state.hands[3] and ID["influential"] in state.hands[2]


# -- the Shadows letters -------------------------------------------------------------------


def test_unfeeling_returns_the_receivers_heart_before_the_reply() -> None:
    assert "I return one of your hearts to you" in text("unfeeling")
    state = rig([["unfeeling", 1], [3, 4], [5], [6]])
    state.received[0] = [1]
    state.supply[1] = 2
    for _ in range(4):
        d = play_until(state, lambda d: d.kind == "morning")
        state.apply(("write", 1, ID["unfeeling"]) if d.seat == 0 else writes(state, d))
    d = play_until(state, lambda d: d.kind == "letter" and d.seat == 1 and d.context["letter"] == ID["unfeeling"])
    assert state.received[0] == [] and state.supply[1] == 3


def test_jealous_lets_the_receiver_choose_what_to_discard() -> None:
    assert "discard a letter from your hand" in text("jealous")
    state = rig([["jealous", 1], [3, 4, 5], [6], [7]])
    for _ in range(4):
        d = play_until(state, lambda d: d.kind == "morning")
        state.apply(("write", 1, ID["jealous"]) if d.seat == 0 else (("write", 2, 3) if d.seat == 1 else writes(state, d)))
    d = play_until(state, lambda d: d.kind == "discard")
    assert d.seat == 1 and set(d.options) == {4, 5}
    state.apply(5)
    assert 5 in state.discards and 4 in state.hands[1]
    assert all(5 in state.observation(s).known for s in range(4)), "discards are public"


def test_desperate_takes_a_heart_from_the_receiver() -> None:
    assert "reward me one of your hearts" in text("desperate")
    state = rig([["desperate", 1], [3, 4], [6], [7]])
    for _ in range(4):
        d = play_until(state, lambda d: d.kind == "morning")
        state.apply(("write", 1, ID["desperate"]) if d.seat == 0 else writes(state, d))
    play_until(state, lambda d: d.kind == "letter" and d.context["letter"] == ID["desperate"])
    assert state.received[0] == [1] and state.supply[1] == ALL.hearts - 1


def test_desperate_needs_a_heart_to_take() -> None:
    state = rig([["desperate", 1], [3, 4], [6], [7]])
    state.supply[1] = 0
    state.received[2] = [1, 1, 1]
    for _ in range(4):
        d = play_until(state, lambda d: d.kind == "morning")
        state.apply(("write", 1, ID["desperate"]) if d.seat == 0 else writes(state, d))
    play_until(state, lambda d: d.kind == "letter" and d.context["letter"] == ID["desperate"])
    assert state.received[0] == [] and state.supply[1] == 0


def test_possessive_keeps_its_owners_letters_out_of_suitors_trades() -> None:
    assert "trade my letters away" in text("possessive")
    state = rig([[1, 2], [3, 4], ["influential", 5, 6], ["possessive", 7, 8]])
    morning(state, {2: "influential"})
    d = play_until(state, lambda d: d.kind == "trade-partner")
    state.apply(3)
    play_until(state, lambda d: d.kind in ("letter", "ring", "scorned", "trade-give"))
    # Seat 3 posted Possessive this morning: still in play, so still in force.
    assert state.hands[3] == [7, 8] and state.hands[2] == [ID["influential"], 5, 6], "prevented"


def test_possessive_still_lets_other_letters_go_and_does_not_stop_peeks() -> None:
    state = rig([[1, 2], [3, 4], ["influential", 5, 6], ["possessive", 7, 8]])
    state.hands[3].append(1)
    state.hands[0].remove(1)  # seat 3 holds seat 0's letter 1
    state._backs_again()
    morning(state, {2: "influential"})
    play_until(state, lambda d: d.kind == "trade-partner")
    state.apply(3)
    state.apply(play_until(state, lambda d: d.kind == "trade-give").options[0])
    d = play_until(state, lambda d: d.kind == "trade-give")
    assert d.seat == 3 and d.options == (1,)
    assert not state.protected(3, "peek")


def test_a_trade_power_needs_another_letter_to_give() -> None:
    state = rig([[1, 2], ["affectionate"], [5, 6], [7, 8]], owners={"affectionate": 0})
    d = play_until(state, lambda d: d.kind == "morning" and d.seat == 1)
    assert ("power", ID["affectionate"]) not in d.options
    state.hands[1].append(9)
    state.owner[9] = 1
    assert ("power", ID["affectionate"]) in state._morning_options(1)


def test_morning_options_rest_only_when_nothing_else() -> None:
    state = rig([[1, 2], [3], [5], [6]])
    d = play_until(state, lambda d: d.kind == "morning")
    assert ("rest",) not in d.options
    state.hands[0].clear()
    state.ring[0] = 1  # away, so no proposal either
    assert list(state._morning_options(0)) == [("rest",)]

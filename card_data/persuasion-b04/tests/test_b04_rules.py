"""B04 rules the engine once missed: mutual proposals, the card you sent,
resolving mail in any order, and hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnp.engine.api import Decision
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.testing import engine, game_folder, reachable

B04 = engine(game_folder(__file__))[0]
ENGAGED = B04.state.ENGAGED
B04State = B04.state.B04State
Deck = B04.state.Deck
Observation = B04.state.Observation
AGENTS = B04.agents.AGENTS
GAME = load_game(resolve_game_dir("persuasion-b04"))
DECK = B04.prepare(GAME, dict(GAME.engine.options))


def rig(hands: list[list[int]]) -> B04State:
    """A 3-player table (10 cards each) with the given hands."""
    state = B04State(DECK, len(hands), random.Random(1))
    used = {c for h in hands for c in h}
    rest = [c for c in range(len(DECK.ids)) if c not in used]
    for seat, hand in enumerate(hands):
        state.hands[seat][:] = hand
        state._own_hand_changed(seat)
    state.desires[:] = rest[: len(hands)]
    state.draw_pile[:] = rest[len(hands):]
    state._queue.clear()
    state.round = 0
    state._start_round()  # ask the first intentions again, from the rigged hands
    return state


HANDS = [list(range(0, 10)), list(range(10, 20)), list(range(20, 30))]


def intentions(state: B04State, choices: dict[int, tuple[Any, ...]]) -> None:
    for _ in range(state.n):
        d = state.decision()
        assert d is not None and d.kind == "intention"
        state.apply(choices[d.seat])


def test_mutual_proposals_both_accept_and_each_gives_a_card() -> None:
    state = rig(HANDS)
    intentions(state, {0: ("propose", 1, 0), 1: ("propose", 0, 10), 2: ("independent",)})
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (0, "proposal") and d.options == ("refuse", ("accept", 1))
    state.apply(("accept", 1))
    d = state.decision()
    assert d is not None and d.kind == "give" and d.seat == 0
    assert 0 not in d.options, "the card seat 0 sent out lies on seat 1's board"
    state.apply(5)
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (1, "mutual")
    assert 5 not in d.options and 10 not in d.options, "not the card received this turn, nor the one sent out"
    state.apply(15)
    # Seat 0: -5 (acceptance) -0 (ring card) +10 (seat 1's ring card) +15; seat 1 the reverse.
    assert sorted(state.hands[0]) == sorted([1, 2, 3, 4, 6, 7, 8, 9, 10, 15])
    assert sorted(state.hands[1]) == sorted([11, 12, 13, 14, 16, 17, 18, 19, 0, 5])
    assert state.status[:2] == [ENGAGED, ENGAGED] and state.fiance[:2] == [1, 0]


def test_mutual_proposal_second_side_may_decline() -> None:
    state = rig(HANDS)
    intentions(state, {0: ("propose", 1, 0), 1: ("propose", 0, 10), 2: ("independent",)})
    state.decision()
    state.apply(("accept", 1))
    state.decision()
    state.apply(5)
    d = state.decision()
    assert d is not None and d.kind == "mutual" and d.options[0] == "refuse"
    state.apply("refuse")
    assert 5 in state.hands[1] and 10 in state.hands[0] and 0 in state.hands[0], "seat 1's ring card stays, seat 0's goes home"


def test_a_reply_cannot_be_the_card_sent_out() -> None:
    state = rig(HANDS)
    intentions(state, {0: ("invite", 1, 3), 1: ("invite", 0, 12), 2: ("invite", 0, 25)})
    seen_replies = []
    while (d := state.decision()) is not None and d.kind in ("invitation", "sort"):
        if d.kind == "invitation":
            seen_replies.append((d.seat, list(d.options)))
            free = [o for o in d.options if o != "refuse"]
            state.apply(free[0])
        else:
            state.apply(d.options[0])
    by_seat = {seat: opts for seat, opts in seen_replies}
    assert ("accept", 3) not in by_seat[0] and ("accept", 12) not in by_seat[1]
    # Seat 0 replied to one invitation with a card: it cannot reply with it again the same round.
    first, second = [opts for seat, opts in seen_replies if seat == 0]
    assert len(second) == len(first) - 1


def test_invitations_may_come_before_a_proposal() -> None:
    """Until a proposal is accepted you may shop around: the recipient picks what to resolve first."""
    state = rig(HANDS)
    intentions(state, {0: ("invite", 1, 3), 1: ("invite", 0, 12), 2: ("propose", 1, 22)})
    while (d := state.decision()) is not None and d.seat != 1:
        state.apply("refuse")
    assert d is not None and d.kind == "sort" and set(d.options) == {("invitation", 0), "proposals"}
    state.apply(("invitation", 0))
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (1, "invitation") and d.context["from"] == 0
    state.apply(("accept", 15))
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (1, "proposal"), "the proposal waits for its turn"


def test_turns_go_clockwise_from_the_host() -> None:
    state = rig(HANDS)
    intentions(state, {0: ("invite", 2, 1), 1: ("invite", 0, 12), 2: ("invite", 1, 22)})
    order = []
    while (d := state.decision()) is not None and d.kind == "invitation":
        order.append(d.seat)
        state.apply("refuse")
    assert order == [0, 1, 2]


# -- hidden information -------------------------------------------------------------


class Oracle:
    """The cards each seat has been shown, from the table."""

    def __init__(self, state: B04State):
        self.state = state
        self.cards = [set(state.hands[s]) | {state.desires[s]} for s in range(state.n)]

    def before(self, d: Decision) -> None:
        for key in ("card",):
            if key in d.context and d.kind in ("give", "mutual"):
                self.cards[d.seat].add(d.context[key])  # a proposal is peeked
        if d.kind == "proposal":
            for _, c in d.context["offers"]:
                self.cards[d.seat].add(c)
        if d.kind == "reflect":
            self.cards[d.seat].add(d.context["drawn"])
        if d.kind == "invitation":
            self.invitation = self.state._pending["current"][2]  # the card lying on the board

    def after(self, d: Decision, choice: Any, pending: dict[str, Any]) -> None:
        st = self.state
        if d.kind == "intention" and choice is not None and choice[0] == "propose":
            self.cards[choice[1]].add(choice[2])  # it will lie in a ring sleeve on that board: peeked freely
        if d.kind == "invitation" and choice is not None and choice != "refuse":
            s = d.context["from"]
            self.cards[s].add(choice[1])
            self.cards[d.seat].add(self.invitation)
        for s in range(st.n):
            self.cards[s] |= set(st.hands[s])
            if "inbox" in pending:  # proposals on a board may be peeked at freely
                self.cards[s] |= {c for _, c in pending["inbox"][s]["propose"]}


def _audit(oracle: Oracle, seat: int, obs: Observation, decision: Decision | None) -> None:
    numbers: list[int] = list(obs.hand) + [obs.desires] + [c for seen in obs.seen for c in seen]
    numbers += [c for known in obs.known for c in known] + list(obs.discarded | obs.lent | obs.lying)
    numbers += [c for _, c in obs.offers] + list(obs.intention[2:3])
    for path, obj in reachable((obs, decision), lambda o: isinstance(o, Deck) or o is obs.notes):
        if obj is obs.notes:
            continue
        assert not isinstance(obj, (B04State, list, set, dict)), f"seat {seat}: {path} is a {type(obj).__name__}"
    if decision is not None:
        numbers += [c for o in decision.options if isinstance(o, tuple) for c in o[2:3] if decision.kind == "intention"]
    stray = [c for c in numbers if c not in oracle.cards[seat]]
    assert not stray, f"seat {seat} can name cards it was never shown: {[DECK.ids[c] for c in stray]}"


@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize("players", [3, 6])
def test_no_observation_reaches_what_its_seat_was_not_shown(agent: str, players: int) -> None:
    rng = random.Random(players)
    agents = [AGENTS[agent]() for _ in range(players)]
    for _ in range(5):
        state = B04State(DECK, players, rng)
        oracle = Oracle(state)
        while (d := state.decision()) is not None:
            oracle.after(d, None, state._pending)
            oracle.before(d)
            for seat in range(players):
                _audit(oracle, seat, state.observation(seat), d if seat == d.seat else None)
            choice = agents[d.seat](state.observation(d.seat), d, rng)
            state.apply(choice)
            oracle.after(d, choice, state._pending)


def test_an_observation_cannot_change_the_game() -> None:
    state = B04State(DECK, 4, random.Random(4))
    obs = state.observation(0)
    with pytest.raises(AttributeError):
        obs.hand.append(1)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        obs.seen[1].add(3)  # type: ignore[attr-defined]


def test_a_proposal_passed_over_counts_as_refused() -> None:
    """Seat 0 accepts seat 1's proposal, not seat 2's: seat 2 was refused and, untouched, may reflect."""
    state = rig(HANDS)
    intentions(state, {0: ("invite", 1, 3), 1: ("propose", 0, 12), 2: ("propose", 0, 22)})
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (0, "proposal")
    state.apply(("accept", 1))
    state.decision()
    state.apply(5)
    seats = []
    while (d := state.decision()) is not None and d.kind != "intention":
        if d.kind == "reflect":
            seats.append(d.seat)
        state.apply(d.options[0])
    assert seats == [2]


def test_intentions_and_answers_index_like_sequences() -> None:
    Answers = B04.state.Answers
    Intentions = B04.state.Intentions

    options = Intentions(0, (0, 1, 2), (5, 6))
    assert len(options) == 1 + 2 * 2 * 2 and options[0] == ("independent",) and options[-1] == ("propose", 2, 6)
    assert list(options) == [options[i] for i in range(len(options))]
    with pytest.raises(IndexError):
        options[len(options)]
    answers = Answers([5, 6])
    assert list(answers) == ["refuse", ("accept", 5), ("accept", 6)] and answers[-1] == ("accept", 6)
    with pytest.raises(IndexError):
        answers[3]


def test_proposals_are_peeked_at_before_any_invitation_is_answered() -> None:
    """The rules let a player peek at the ring sleeves on its letterbox freely:
    it sees every proposal before it answers its first invitation."""
    state = rig(HANDS)
    intentions(state, {0: ("invite", 1, 3), 1: ("invite", 0, 12), 2: ("propose", 0, 22)})
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (0, "sort")
    obs = state.observation(0)
    assert 22 in obs.seen[2] and 22 in obs.known[2] and obs.offers == ((2, 22),)
    assert 22 not in state.observation(1).seen[2], "only the letterbox's owner peeks"


def test_invitations_on_one_letterbox_are_answered_in_any_order() -> None:
    state = rig(HANDS)
    intentions(state, {0: ("invite", 2, 1), 1: ("invite", 2, 12), 2: ("invite", 0, 22)})
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (0, "invitation")
    state.apply("refuse")
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (2, "sort") and list(d.options) == [("invitation", 0), ("invitation", 1)]
    state.apply(("invitation", 1))
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (2, "invitation") and d.context["from"] == 1


def test_the_reflection_draw_is_a_choice() -> None:
    """Ignored and refused, a player may draw; it may also not."""
    state = rig(HANDS)
    intentions(state, {0: ("invite", 1, 3), 1: ("invite", 2, 12), 2: ("invite", 1, 22)})
    while (d := state.decision()) is not None and d.kind in ("sort", "invitation"):
        state.apply("refuse" if d.kind == "invitation" else d.options[0])
    assert d is not None and (d.seat, d.kind) == (0, "draw") and list(d.options) == ["draw", "pass"]
    pile = list(state.draw_pile)
    state.apply("pass")
    assert state.draw_pile == pile and state.discards == [] and state.hands[0] == HANDS[0]
    d = state.decision()
    assert d is not None and d.kind == "intention" and state.round == 2

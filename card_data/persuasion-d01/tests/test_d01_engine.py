"""The Persuasion D01 engine: random playouts keep every invariant, a seeded
golden playthrough, known-answer scoring, powers from the card data."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pnp.testing import assert_matches_golden, copy_game, engine, game_folder, play_checked, run_pnp, score as score_table

D01, GAME = engine(game_folder(__file__))
GOLDEN = Path(__file__).parent / "golden"
D01State = D01.state.D01State
Desire = D01.state.Desire
Letter = D01.state.Letter
Pack = D01.state.Pack
unique_met = D01.state.unique_met
AGENTS = D01.agents.AGENTS
prepare = D01.prepare
score = D01.score

OPTIONS = dict(GAME.engine.options)
PACK = prepare(GAME, OPTIONS)


def _invariants(state: D01State) -> None:
    letters = state.all_letters()
    assert sorted(letters) == list(range(len(PACK.letters))), "a letter was lost or duplicated"
    hearts = sum(state.supply) + sum(len(r) for r in state.received)
    assert hearts == PACK.hearts * state.n, "a heart was lost or made"
    for seat, partner in enumerate(state.fiance):
        if partner >= 0:
            assert state.fiance[partner] == seat
            assert state.ring[seat] == partner and state.ring[partner] == seat


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_random_playouts_keep_every_invariant(players: int, agent: str) -> None:
    rng = random.Random(players * 7)
    agents = [AGENTS[agent]() for _ in range(players)]
    for _ in range(30):
        state = D01State(PACK, players, rng, int(OPTIONS["day_cap"]))
        o = play_checked(state, agents, rng, _invariants, 50_000)
        assert not o.capped and o.rounds <= int(OPTIONS["day_cap"])
        engaged = sum(1 for s in o.categories if s == "engaged")
        assert not state.deck or engaged >= players - 1, "the game ended before either ending"
        assert max(o.scores) == 0 or any(o.winners)


def test_setup_builds_the_decks_from_the_tables() -> None:
    for players in (3, 8):
        state = D01State(PACK, players, random.Random(1))
        per = PACK.deck_per_suit[players]
        in_play = [c for c in state.all_letters() if c not in state.box]
        assert len(in_play) == 3 * per
        wanted = PACK.desires_per_suit[players]
        assert len(state.desires) == players
        assert all(sum(1 for d in state.desires if d.suit == s) <= wanted[s] for s in PACK.suits)
        assert all(len(hand) >= PACK.hand for hand in state.hands)
        assert state.supply == [PACK.hearts] * players


def test_unique_victories_by_hand() -> None:
    suits = ("sense", "sentiment", "station")
    assert unique_met({"type": "suit-count", "suit": "sense", "count": 3}, ["sense"] * 3 + ["station"], 0, suits)
    assert not unique_met({"type": "suit-count", "suit": "sense", "count": 3}, ["sense"] * 2, 0, suits)
    assert unique_met({"type": "all-suits"}, list(suits), 0, suits)
    assert not unique_met({"type": "all-suits"}, ["sense", "station"], 0, suits)
    assert unique_met({"type": "hearts", "count": 4}, [], 4, suits) and not unique_met({"type": "hearts", "count": 4}, [], 3, suits)
    assert unique_met({"type": "no-suit", "suit": "station"}, ["sense"], 0, suits)
    assert not unique_met({"type": "no-suit", "suit": "station"}, ["station"], 0, suits)


def _two_seat_table(engaged: bool) -> D01State:
    pack = Pack(
        tuple(Letter(f"l{i}", s) for i, s in enumerate(["sense"] * 6 + ["station"] * 6)),
        (Desire("d", "sense", frozenset({"sense"}), {"type": "hearts", "count": 9}),) * 2,
        ("sense", "station"), {2: 6}, {2: {"sense": 2}}, hand=0,
    )
    state = D01State(pack, 2, random.Random(1))
    state.deck.clear()
    # Seat 0 owns l0-l3 (sense) and holds them with l6 (station, owned by seat 1).
    state.owner[:] = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]
    state.hands[0][:] = [0, 1, 2, 3, 6]
    state.hands[1][:] = [4, 5, 7]
    state.received[0][:] = [1]
    state.supply[:] = [3, 2]
    state._backs_again()  # hands set from outside the table's moves
    if engaged:
        state._engage(0, 1)
    return state


def test_matrimony_sends_letters_home_except_the_fiances() -> None:
    points, status, fronts = _two_seat_table(False).matrimony()
    # Not engaged: l6 goes home to seat 1. Seat 0 has 4 sense letters: proper (4) + 1 heart.
    assert sorted(fronts[0]) == [0, 1, 2, 3] and 6 in fronts[1]
    assert points == [3 + 1, 0] and status == ["available", "available"]
    points, _, fronts = _two_seat_table(True).matrimony()
    # Engaged: seat 0 keeps its fiance's l6. Seat 1's front (l4, l5 sense, l7) has 2 sense:
    # no prim for seat 0. Seat 0's front has 4 sense: seat 1, who also seeks sense, wins prim.
    assert 6 in fronts[0]
    assert points == [3 + 1, 3]


def test_engaged_players_choose_what_to_give_their_fiance() -> None:
    """Matrimony step 2: each engaged player decides which of their letters go to the fiance."""
    state = _two_seat_table(True)
    state._steps = [state._matrimony]
    d = state.decision()
    assert d is not None and d.kind == "gift" and d.seat == 0
    assert set(d.options.items) == {0, 1, 2, 3} and () in d.options and (0, 2) in d.options
    state.apply((0,))
    d = state.decision()
    assert d is not None and d.kind == "gift" and d.seat == 1
    state.apply(())
    assert state.decision() is None
    # Seat 0 gave l0 (sense): seat 1's front l0 l4 l5 + l7 has 3 sense: prim for seat 0;
    # seat 0 keeps l1-l3 + l6: 3 sense, no proper, but seat 1 (seeking sense) wins prim.
    assert 0 in state.fronts[1] and 0 not in state.fronts[0]
    assert [s.points for s in state.scores] == [3 + 1, 3]


def test_nobody_wins_on_zero_points_and_ties_share() -> None:
    AtMatrimony = D01.state.AtMatrimony
    score_players = D01.state.score_players

    wish = PACK.desires[0]
    none = AtMatrimony(wish, (), 0)
    # Desires whose unique victory can fail on an empty front: hearts or suit counts.
    cards = [d for d in PACK.desires if d.condition["type"] in ("hearts", "suit-count", "all-suits")]
    zero = [AtMatrimony(cards[0], (), 0), AtMatrimony(cards[1], (), 0)]
    assert [s.wins for s in score_players(PACK, zero)] == [False, False]
    one = [AtMatrimony(cards[0], (), 1), AtMatrimony(cards[1], (), 1), AtMatrimony(cards[2], (), 0)]
    assert [s.wins for s in score_players(PACK, one)] == [True, True, False]
    assert none.hearts == 0


def test_a_power_from_the_data_is_applied() -> None:
    moneyed = next(i for i, letter in enumerate(PACK.letters) if letter.id == "moneyed")
    power = PACK.letters[moneyed].powers[0]
    assert power["kind"] == "rule-change" and power["effect"] == {"type": "hand-size", "delta": 1}
    for seed in range(40):
        state = D01State(PACK, 8, random.Random(seed))
        owner = state.owner[moneyed]
        if owner >= 0 and moneyed in state.hands[owner]:
            assert len(state.hands[owner]) >= PACK.hand + 1  # "My hand holds one letter more"
            return
    pytest.skip("Moneyed was not dealt in 40 seeds")


def _letter(c: int) -> str:
    return f"{PACK.letters[c].id}({PACK.letters[c].suit})"


def _transcript(seed: int, players: int) -> list[str]:
    """A playthrough a person can check by hand: the deal, every decision, and
    at matrimony each front, each desires card and the points they give."""
    rng = random.Random(seed)
    state = D01State(PACK, players, rng, int(OPTIONS["day_cap"]))
    state.record = True
    agents = [AGENTS["heuristic"]() for _ in range(players)]
    lines = [f"rules: prim {PACK.prim} matching letters in the fiance's front, proper {PACK.proper} in your own, "
             f"{PACK.victory_points} points a victory, {PACK.heart_points} a suitor's heart; most points wins, 0 never wins"]
    for seat in range(players):
        d = state.desires[seat]
        lines.append(f"seat {seat} deal: {', '.join(_letter(c) for c in state.hands[seat])}")
        lines.append(f"seat {seat} desires: {d.id} seeks {'+'.join(sorted(d.seeks))}; unique {dict(d.condition)}")
    while (decision := state.decision()) is not None:
        for note in state.log:
            lines.append(f"  ({note})")
        state.log.clear()
        choice = agents[decision.seat](state.observation(decision.seat), decision, rng)
        shown = choice if isinstance(choice, tuple) else (choice,)
        words: list[str] = [_letter(x) if isinstance(x, int) and (decision.kind in ("gift", "keep", "discard", "trade-give", "commit") or (i == len(shown) - 1 and shown[0] in ("write", "power"))) else str(x) for i, x in enumerate(shown)]
        about = f" ({_letter(decision.context['letter'])} from seat {decision.context['from']})" if decision.kind == "letter" else ""
        if decision.kind == "keep":
            about, words = f" (drew {_letter(decision.context['drawn'])})", ["discard", "the drawn letter" if choice == "drawn" else _letter(choice)]
        lines.append(f"day {state.day} seat {decision.seat} {decision.kind}{about}: {' '.join(words) or 'nothing'}")
        state.apply(choice)
    o = state.outcome()
    lines.append(f"matrimony after {o.rounds} days; fiances {state.fiance}")
    for seat in range(players):
        sc = state.scores[seat]
        lines.append(f"seat {seat} front: {', '.join(_letter(c) for c in state.fronts[seat])}; hearts from {state.received[seat]}")
        lines.append(f"seat {seat} {o.categories[seat]}: {sc.why}{' WINS' if sc.wins else ''}")
    return lines


@pytest.mark.parametrize("players", [4, 6])
def test_seeded_playthrough_matches_the_golden_file(players: int) -> None:
    assert_matches_golden(GOLDEN, f"persuasion-d01-{players}p-seed11", _transcript(11, players))


def test_score_calculator_for_d01(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    table.write_text(
        "players:\n"
        "  - {crest: carrow, desires: a-grand-alliance, front: []}\n"
        "  - {crest: ashford, desires: a-learned-match, status: engaged, fiance: bellamy, hearts: 2,\n"
        "     front: [sense, sense, sense, sense, station]}\n"
        "  - {crest: bellamy, desires: a-love-match, status: engaged, fiance: ashford, hearts: 4,\n"
        "     front: [sense, sense, sense, sentiment, station]}\n"
    )
    done = score_table(game_folder(__file__), table, "--json")
    assert done.returncode == 0, done.stderr
    _, ashford, bellamy = json.loads(done.stdout)["players"]
    # Ashford seeks sense: fiance shows 3 (prim), own front 4 (proper), unique 3 sense: 9 + 2 hearts.
    assert ashford["victories"] == {"prim": True, "proper": True, "unique": True} and ashford["points"] == 11
    # Bellamy seeks sentiment: no prim, no proper; unique is 4 hearts: 3 + 4.
    assert bellamy["victories"] == {"prim": False, "proper": False, "unique": True} and bellamy["points"] == 7
    assert ashford["wins"] and not bellamy["wins"]
    quiet = score(PACK, {"players": [
        {"crest": "ashford", "desires": "a-quiet-mind", "front": []}, {"crest": "bellamy", "desires": "a-love-match", "front": []},
        {"crest": "carrow", "desires": "a-learned-match", "front": []},
    ]})["players"]
    assert [p["points"] for p in quiet] == [3, 0, 0] and [p["wins"] for p in quiet] == [True, False, False]


def test_simulate_d01() -> None:
    done = run_pnp("simulate", "persuasion-d01", "--players", "5", "--games", "200", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["games"] == 200 and data["capped_rate"]["rate"] == 0
    assert {"write", "propose"} <= set(data["actions"])


def test_both_partners_breaking_off_the_same_morning() -> None:
    """Found by the random playouts: the second break-off must not touch another ring."""
    state = D01State(PACK, 4, random.Random(5))
    state._engage(0, 1)
    state._queue.clear()  # ask the first morning again, now that 0 and 1 are engaged
    state._steps = [state._start_day]
    for seat in range(4):
        decision = state.decision()
        assert decision is not None and decision.kind == "morning" and decision.seat == seat
        choice = ("break",) if seat in (0, 1) else next(o for o in decision.options if o[0] == "write")
        state.apply(choice)
    state.decision()  # the evening runs
    assert state.fiance[:2] == [-1, -1] and state.ring == [0, 1, 2, 3]
    _invariants(state)


def test_seal_supply_counts_the_letters_powers_can_add(tmp_path: Path) -> None:
    """Moneyed and Well Connected give one player 7 sealed letters: 5 seals a family is short."""
    game = tmp_path / "d01"
    copy_game(GAME.root, game)
    done = run_pnp("check", str(game), "--games", "0", "--json")
    assert done.returncode == 0, done.stdout
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("    copies: 7\n    stock: removable", "    copies: 6\n    stock: removable"))
    done = run_pnp("check", str(game), "--games", "0", "--json")
    short = [f for f in json.loads(done.stdout)["findings"] if f["check"] == "supply"]
    assert done.returncode == 1 and short and "6 of Ashford, but the largest table needs 7" in short[0]["message"]


def _mornings(state: D01State, choices: dict[int, tuple[object, ...]]) -> None:
    for _ in range(state.n):
        d = state.decision()
        assert d is not None and d.kind == "morning"
        state.apply(choices[d.seat])


def test_a_ring_waits_until_the_recipients_own_ring_comes_home() -> None:
    """FAQ: you cannot accept while your ring is away; wait for it to come back."""
    state = D01State(PACK, 3, random.Random(2))
    _mornings(state, {0: ("propose", 1), 1: ("propose", 2), 2: ("write", 0, state.hands[2][0])})
    d = state.decision()
    assert d is not None and (d.seat, d.kind, d.context["from"]) == (2, "ring", (1,)), "seat 1 waits: its ring is at seat 2"
    state.apply("reject")
    d = state.decision()
    assert d is not None and (d.seat, d.kind, d.context["from"]) == (1, "ring", (0,)), "its ring is home: now it may answer"
    state.apply(("accept", 0))
    assert state.fiance == [1, 0, -1]


def test_a_waiting_ring_goes_back_if_its_recipient_gets_engaged() -> None:
    state = D01State(PACK, 3, random.Random(2))
    _mornings(state, {0: ("propose", 1), 1: ("propose", 2), 2: ("write", 0, state.hands[2][0])})
    state.decision()
    state.apply(("accept", 1))  # seat 2 accepts seat 1
    d = state.decision()
    assert d is None or d.kind != "ring"
    assert state.fiance == [-1, 2, 1] and state.ring[0] == 0, "seat 0's ring came home"


def test_rings_sent_round_a_circle_the_host_side_gives_way() -> None:
    """FAQ: when everyone proposed round a circle, the host is forced to reject."""
    state = D01State(PACK, 3, random.Random(2))
    _mornings(state, {0: ("propose", 1), 1: ("propose", 2), 2: ("propose", 0)})
    d = state.decision()
    # Seat 0 (the host) held seat 2's ring and sent it back; seat 2's ring is home, so seat 2 answers seat 1.
    assert state.ring[2] == 2 or state.fiance[2] >= 0
    assert d is not None and (d.seat, d.kind, d.context["from"]) == (2, "ring", (1,))


def test_with_no_hearts_left_a_letter_can_only_be_attended() -> None:
    state = D01State(PACK, 3, random.Random(4))
    state.supply[1] = 0
    state.received[0] = [1, 1, 1]
    _mornings(state, {0: ("write", 1, state.hands[0][0]), 1: ("write", 2, state.hands[1][0]), 2: ("write", 0, state.hands[2][0])})
    while (d := state.decision()) is not None and not (d.kind == "letter" and d.seat == 1):
        state.apply(d.options[0])
    assert d is not None and d.options == ("attend",)


def test_one_partner_breaking_off_frees_both() -> None:
    state = D01State(PACK, 3, random.Random(5))
    state._engage(0, 1)
    state._queue.clear()
    state._steps = [state._start_day]
    _mornings(state, {0: ("write", 2, state.hands[0][0]), 1: ("break",), 2: ("write", 0, state.hands[2][0])})
    state.decision()
    assert state.fiance == [-1, -1, -1] and state.ring == [0, 1, 2]


def test_a_gift_must_be_the_givers_own_letters() -> None:
    Subsets = D01.state.Subsets

    gifts = Subsets([4, 7])
    assert (4,) in gifts and (7, 4) in gifts and () in gifts
    assert (5,) not in gifts and (4, 5) not in gifts and (4, 4) not in gifts and [4] not in gifts
    assert len(gifts) == 4 and {gifts[i] for i in range(4)} == {(), (4,), (7,), (4, 7)}


def test_actions_are_counted() -> None:
    rng = random.Random(3)
    state = D01State(PACK, 4, rng)
    o = play_checked(state, [AGENTS["random"]() for _ in range(4)], rng, lambda s: None, 50_000)
    assert sum(o.actions.values()) == 4 * o.rounds and all(v > 0 for v in o.actions.values())  # one morning action a seat a day


def test_subsets_index_from_the_end() -> None:
    Subsets = D01.state.Subsets

    gifts = Subsets([4, 7])
    assert gifts[-1] == (4, 7) and gifts[-4] == ()
    assert gifts[:2] == [(), (4,)] and gifts[::-1][0] == (4, 7) and gifts[:50] == [gifts[i] for i in range(4)]
    with pytest.raises(IndexError):
        gifts[4]


def test_reflection_returns_the_chosen_heart_then_draws() -> None:
    state = D01State(PACK, 3, random.Random(6))
    state.received[0] = [2]
    state.supply[2] = 2
    _mornings(state, {0: ("reflect", 2), 1: ("write", 2, state.hands[1][0]), 2: ("write", 1, state.hands[2][0])})
    d = state.decision()
    assert d is not None and (d.seat, d.kind) == (0, "keep")
    assert state.received[0] == [] and state.supply[2] == 3

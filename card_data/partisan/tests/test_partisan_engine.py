"""The Partisan engine: random playouts keep every invariant in every variant,
a golden playthrough a person can follow, and the end of the game."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from pnp.engine.api import IllegalMove, agent_rngs, clone, play
from pnp.engine.plugins import engine_for
from pnp.loading.loader import load_game
from pnp.testing import assert_matches_golden, play_checked

GAME_DIR = Path(__file__).resolve().parents[1]
GAME = load_game(GAME_DIR)
RULES, OPTIONS = engine_for(GAME, trust=True)
VARIANTS = (None, *GAME.engine.variants) if GAME.engine else (None,)
GOLDEN = Path(__file__).parent / "golden"


def _pack(variant: str | None):  # type: ignore[no-untyped-def]
    return RULES.prepare(GAME, GAME.engine.options_for(variant))


def _invariants(state) -> None:  # type: ignore[no-untyped-def]
    """No chip or card is made or lost; leaders are where their chips are."""
    table, pack = state.table, state.pack
    for s in range(len(pack.suits)):
        on_topics = sum(t.chips[s] for t in table.topics.values())
        held = sum(p[s] for p in table.partisans)
        assert table.supply[s] + on_topics + held == pack.chips, (s, table.supply, table.partisans)
        assert min(table.supply[s], on_topics, held) >= 0
        if table.leader is not None:
            where = table.leader[s]
            if where == RULES.table.SUPPLY:
                assert table.supply[s] >= 1
            elif isinstance(where, int):
                assert table.partisans[where][s] >= 1
            else:
                assert where in table.topics and table.topics[where].chips[s] >= 1
    # The standings kept step by step are the ones counted afresh from the partisans.
    for s in range(len(pack.suits)):
        counts = [p[s] for p in table.partisans]
        best = max(counts)
        tied = [seat for seat, c in enumerate(counts) if c == best]
        holder = table.leader[s] if table.leader is not None else None
        owner = tied[0] if len(tied) == 1 else (holder if best and holder in tied else None)
        second = max([c for c in counts if c < best], default=0)
        assert (table.best[s], table.at_best[s], table.second[s], table.owners[s]) == (best, len(tied), second, owner), s
    assert table.won == [(s, o) for s, o in enumerate(table.owners) if o is not None]
    cards = [*state.deck, *(c for h in state.hands for c in h), *table.topics, *table.discards]
    assert sorted(c.index for c in cards) == list(range(len(pack.cards)))
    assert table.deck_left == len(state.deck)
    # Between turns every topic holds chips and every hand is full while cards remain.
    if state.decision() is not None and state.decision().kind == "raise":
        assert all(any(t.chips) for t in table.topics.values())
        if state.deck:
            assert all(len(h) == pack.hand for h in state.hands)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_keep_every_invariant(variant: str | None, players: int) -> None:
    pack = _pack(variant)
    for seed in range(6):
        rng = random.Random(f"{variant}:{players}:{seed}")
        state = RULES.new_state(pack, players, rng, {})
        agents = [RULES.AGENTS["random" if (seat + seed) % 2 else "heuristic"]() for seat in range(players)]
        outcome = play_checked(state, agents, rng, _invariants, 5000)
        # Every seat had as many turns: the round after the last draw was finished.
        assert state.table.turn % players == 0 and outcome.rounds == state.table.turn // players
        # Every card of the deck was drawn, every hand played down to what is left.
        assert not state.deck
        drawn = len(pack.cards) - pack.topics - pack.hand * players
        assert state.table.turn == drawn + (players - 1 - (drawn - 1) % players)
        assert sum(outcome.scores) <= pack.chips * len(pack.suits)
        assert outcome.winners == tuple(s == max(outcome.scores) and s > 0 for s in outcome.scores)


def test_a_move_that_is_not_an_option_is_refused() -> None:
    state = RULES.new_state(_pack(None), 3, random.Random(5), {})
    stranger = next(c for c in state.deck)
    with pytest.raises(IllegalMove):
        state.apply(stranger)


def test_gather_offers_only_chips_that_exist() -> None:
    """Every gather option names a source holding a chip of the suit (the
    supply or another topic), and taking nothing is always allowed."""
    rng = random.Random(9)
    state = RULES.new_state(_pack("leaders"), 4, rng, {})
    agents = [RULES.AGENTS["random"]() for _ in range(4)]
    seen = 0
    while (d := state.decision()) is not None:
        if d.kind == "gather":
            for suit, part in zip(d.context["suits"], d.options.parts):
                assert part[-1] is None
                for source, lead in part[:-1]:
                    have = state.table.supply[suit] if source == RULES.table.SUPPLY else state.table.topics[source].chips[suit]
                    assert have >= 1 and (not lead or state.table.leader[suit] is source or state.table.leader[suit] == source)
                    assert source is not list(state.table.topics)[-1]  # never the topic being raised
            seen += 1
        state.apply(agents[d.seat](state.observation(d.seat), d, rng))
    assert seen > 10


def test_a_clone_plays_on_alone() -> None:
    rng = random.Random(4)
    state = RULES.new_state(_pack(None), 4, rng, {})
    agents = [RULES.AGENTS["heuristic"]() for _ in range(4)]
    for _ in range(30):
        d = state.decision()
        state.apply(agents[d.seat](state.observation(d.seat), d, rng))
    twin = clone(state)
    first = play(twin, agents, agent_rngs("1", 4))
    assert state.table.turn < twin.table.turn and not state.is_terminal()
    assert play(state, agents, agent_rngs("1", 4)) == first


def _name(card) -> str:  # type: ignore[no-untyped-def]
    return card.id


def _suits(pack, chips) -> str:  # type: ignore[no-untyped-def]
    return " ".join(f"{pack.suits[s]}:{c}" for s, c in enumerate(chips) if c) or "-"


def _playthrough(players: int, seed: int) -> list[str]:
    """A whole game as lines a person can check against the rules."""
    pack = _pack(None)
    rng = random.Random(f"golden:{seed}")
    state = RULES.new_state(pack, players, rng, {})
    table = state.table
    lines = [f"{players} players, seed {seed}; starting topics: " + "; ".join(f"{_name(t.card)} [{_suits(pack, t.chips)}]" for t in table.topics.values())]
    lines += [f"seat {s} holds {', '.join(_name(c) for c in h)}" for s, h in enumerate(state.hands)]
    agents = [RULES.AGENTS["heuristic"]() for _ in range(players)]
    while (d := state.decision()) is not None:
        choice = agents[d.seat](state.observation(d.seat), d, rng)
        if d.kind == "raise":
            lines.append(f"turn {table.turn + 1}: seat {d.seat} raises {_name(choice)} ({', '.join(pack.suits[s] for s in choice.suits)})")
        elif d.kind == "gather":
            for suit, pick in zip(d.context["suits"], choice):
                where = "nothing" if pick is None else ("the supply" if pick[0] == RULES.table.SUPPLY else _name(pick[0]))
                lines.append(f"  gather {pack.suits[suit]}: from {where}")
        elif d.kind == "push":
            for (suit, _lead), place in zip(d.context["chips"], choice):
                where = place if isinstance(place, str) else f"onto {_name(place)}"
                lines.append(f"  push {pack.suits[suit]}: {where}")
        state.apply(choice)
        if d.kind in ("push", "gather", "raise") and (state.decision() is None or state.decision().kind == "raise"):
            lines.append("  topics: " + "; ".join(f"{_name(t.card)} [{_suits(pack, t.chips)}]" for t in table.topics.values()))
            lines.append("  partisans: " + "; ".join(f"seat {s} [{_suits(pack, p)}]" for s, p in enumerate(table.partisans)))
    outcome = state.outcome()
    for g in state.scored.groups:
        lines.append(f"{pack.suits[g.suit]}: {'nobody' if g.winner is None else f'seat {g.winner}'} ({g.how})")
    for t in state.scored.topics:
        lines.append(f"{_name(list(table.topics)[t.index])}: shares {list(t.shares)}, discarded {t.discarded}")
    lines.append(f"scores {[int(s) for s in outcome.scores]}, winners {[s for s, w in enumerate(outcome.winners) if w]}")
    return lines


def test_golden_playthrough_three_players() -> None:
    assert_matches_golden(GOLDEN, "partisan-3p-seed7", _playthrough(3, 7))


def test_the_draw_deck_is_the_cards_the_rules_shuffle() -> None:
    """Aces, Crowns and the Excuse stay out; pawns and courts are in unless
    the variant takes them out; the double deck holds every card twice."""
    kinds = {c.id: c.fields["kind"] for c in GAME.component("decktet").cards}
    base = _pack(None)
    assert Counter(kinds[c.id] for c in base.cards) == {"numeral": 24, "pawn": 4, "court": 4}
    assert Counter(kinds[c.id] for c in _pack("no-pawns-courts").cards) == {"numeral": 24}
    double = _pack("double-deck")
    assert Counter(c.id for c in double.cards) == Counter(c.id for c in base.cards * 2)
    assert (base.chips, _pack("no-pawns-courts").chips, double.chips) == (8, 6, 16)
    assert _pack("leaders").leaders and not base.leaders


@pytest.mark.parametrize("variant", VARIANTS)
def test_usable_names_every_kind_of_move_a_game_counts(variant: str | None) -> None:
    """``usable`` (for pnp check's usage report): the moves are the keys of
    every outcome's ``actions``, each made in some random game; no powers."""
    pack = _pack(variant)
    usable = RULES.usable(pack)
    made = Counter[str]()
    for seed in range(5):
        state = RULES.new_state(pack, 4, random.Random(f"usable:{seed}"), {})
        outcome = play(state, [RULES.AGENTS["random"]() for _ in range(4)], agent_rngs(str(seed), 4))
        assert tuple(outcome.actions) == usable["actions"] and not outcome.powers
        made.update(outcome.actions)
    assert usable["powers"] == () and all(made[name] for name in usable["actions"])


def test_the_lookahead_agent_plays_a_whole_game() -> None:
    rng = random.Random(2)
    state = RULES.new_state(_pack(None), 3, rng, {})
    agents = [RULES.AGENTS["lookahead"](), RULES.AGENTS["heuristic"](), RULES.AGENTS["random"]()]
    outcome = play_checked(state, agents, rng, _invariants, 5000)
    assert outcome.rounds == state.table.turn // 3

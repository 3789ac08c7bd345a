"""``determinize``: a whole game guessed from what one seat has seen, at the
decision it is about to make (the engine API's search hook, docs/engine.md).
Checked at every decision of whole games, every seat that decides, both the
rules as printed and the Leaders variant (which adds the end's ``settle``)."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from pnp.engine.api import Decision, agent_rngs, clone, play
from pnp.engine.plugins import engine_for
from pnp.loading.loader import load_game
from pnp.testing import play_checked

GAME_DIR = Path(__file__).resolve().parents[1]
GAME = load_game(GAME_DIR)
RULES, OPTIONS = engine_for(GAME, trust=True)
Card, Pack = RULES.table.Card, RULES.table.Pack


@functools.cache
def _pack(variant: str | None) -> Any:
    """One pack per variant: a game and its guesses share their cards."""
    return RULES.prepare(GAME, GAME.engine.options_for(variant))


def _canon(obj: Any) -> Any:
    """Everything reachable from ``obj`` as plain comparable values, in order
    (a card by its index: equal cards are the same card)."""
    if isinstance(obj, Card):
        return ("card", obj.index)
    if isinstance(obj, Pack) or obj is None or isinstance(obj, (int, str, float)):
        return obj
    if isinstance(obj, Mapping):
        return tuple((_canon(k), _canon(v)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return tuple(_canon(v) for v in obj)
    if dataclasses.is_dataclass(obj):
        return (type(obj).__name__, *(_canon(getattr(obj, f.name)) for f in dataclasses.fields(obj)))
    slots = [s for klass in type(obj).__mro__ for s in getattr(klass, "__slots__", ())]
    return (type(obj).__name__, *(_canon(getattr(obj, s)) for s in slots))


def _decisions(variant: str | None, players: int, seed: int) -> Iterator[tuple[Any, Decision]]:
    """Each decision of a heuristic game, with the state just before it."""
    state = RULES.new_state(_pack(variant), players, random.Random(f"det:{seed}"), {})
    agents, rngs = [RULES.AGENTS["heuristic"]() for _ in range(players)], agent_rngs(f"det:{seed}", players)
    while (decision := state.decision()) is not None:
        yield state, decision
        state.apply(agents[decision.seat](state.observation(decision.seat), decision, rngs[decision.seat]))


def _hidden(state: Any, seat: int) -> tuple[Any, ...]:
    """What ``seat`` has not seen: the deck in order and the other hands."""
    return tuple(c.index for c in state.deck), tuple(tuple(c.index for c in h) for s, h in enumerate(state.hands) if s != seat)


@pytest.mark.parametrize(("variant", "players"), [(None, 4), ("leaders", 3), ("leaders", 5), ("double-deck", 2)])
def test_a_guess_is_at_the_decision_and_shows_the_seat_what_it_saw(variant: str | None, players: int) -> None:
    """1. The guessed game asks the same decision (seat, kind, context, the
    options in order) and shows the seat an equal observation; every card it
    has not seen is dealt once, in the sizes the true game has."""
    kinds: set[str] = set()
    want = {"raise", "gather", "push", "settle"} if variant == "leaders" else {"raise", "gather", "push"}
    pack = _pack(variant)
    for seed in range(40):  # two games at least, and until a leader's holder has settled a tie
        if seed >= 2 and kinds == want:
            break
        for state, decision in _decisions(variant, players, seed):
            seat = decision.seat
            observation = state.observation(seat)
            guess = RULES.determinize(pack, observation, decision, random.Random(seed))
            mine = guess.decision()
            assert (mine.seat, mine.kind, dict(mine.context)) == (seat, decision.kind, dict(decision.context))
            assert list(mine.options) == list(decision.options)
            assert _canon(guess.observation(seat)) == _canon(observation)
            deck, hands = _hidden(guess, seat)
            assert len(deck) == len(state.deck) and [len(h) for h in guess.hands] == [len(h) for h in state.hands]
            seen = {c.index for c in observation.hand} | {c.index for c in _canon_cards(observation)}
            assert sorted([*deck, *(c for h in hands for c in h)]) == sorted(c.index for c in pack.cards if c.index not in seen)
            kinds.add(decision.kind)
    assert kinds == want


def _canon_cards(observation: Any) -> list[Any]:
    """The cards face up on the table: the topics and the discards."""
    return [*observation.table.topics, *observation.table.discards]


@pytest.mark.parametrize("variant", [None, "leaders"])
def test_guesses_vary_and_each_plays_to_the_end_under_the_rules(variant: str | None) -> None:
    """2. Over many generators the hidden cards differ, and every guess is a
    legal position: random agents play it to the end with every move checked,
    no chip or card made or lost; the true game is untouched by it."""
    pack = _pack(variant)
    played = 0
    for index, (state, decision) in enumerate(_decisions(variant, 4, 7)):
        if index % 5:
            continue
        seat, before = decision.seat, _canon(state.observation(decision.seat))
        truth = (_hidden(state, seat), [t.chips[:] for t in state.table.topics.values()])
        deals = set()
        for k in range(12):
            guess = RULES.determinize(pack, state.observation(seat), decision, random.Random(k))
            deals.add(_hidden(guess, seat))
            assert guess.check_moves
            outcome = play_checked(guess, [RULES.AGENTS["random"]() for _ in range(4)], random.Random(k), lambda s: None, 5000)
            table = guess.table
            for s in range(len(pack.suits)):
                assert table.supply[s] + sum(t.chips[s] for t in table.topics.values()) + sum(p[s] for p in table.partisans) == pack.chips
            cards = [*guess.deck, *(c for h in guess.hands for c in h), *table.topics, *table.discards]
            assert sorted(c.index for c in cards) == list(range(len(pack.cards))) and len(outcome.scores) == 4
            played += 1
        unseen = len(state.deck) + sum(len(h) for s, h in enumerate(state.hands) if s != seat)
        assert unseen <= 3 or len(deals) >= 6, (unseen, len(deals))
        assert _canon(state.observation(seat)) == before
        assert (_hidden(state, seat), [t.chips[:] for t in state.table.topics.values()]) == truth
    assert played > 100


def test_options_are_hashable_and_the_same_in_every_guess() -> None:
    """3. A search keys moves by options: at every decision the options of
    two guesses hash and compare equal, and the same option does the same
    thing in both (the table each then shows is equal)."""
    pack = _pack("leaders")
    for state, decision in _decisions("leaders", 4, 3):
        seat = decision.seat
        one, two = (RULES.determinize(pack, state.observation(seat), decision, random.Random(k)) for k in (1, 2))
        first, second = list(one.decision().options), list(two.decision().options)
        assert first == second and [hash(o) for o in first] == [hash(o) for o in second]
        pick = first[len(first) // 2]
        one.apply(pick)
        two.apply(second[len(second) // 2])
        assert _canon(one.table) == _canon(two.table)


def test_a_guess_reads_only_the_observation() -> None:
    """Nothing of the true game leaks into a guess: guesses made from equal
    observations with equal generators are equal, whichever game they come from."""
    pack = _pack(None)
    guesses = {}
    for seed in (1, 2):
        state = RULES.new_state(pack, 3, random.Random(f"twin:{seed}"), {})
        other = clone(state)
        other.deck.reverse()  # the same table, another deck: no seat can tell them apart
        for game in (state, other):
            decision = game.decision()
            guess = RULES.determinize(pack, game.observation(decision.seat), decision, random.Random(0))
            guesses.setdefault(seed, []).append((_hidden(guess, 0), _canon(guess.table)))
    assert all(a == b for a, b in guesses.values())


def test_a_clone_at_any_decision_plays_on_as_the_original() -> None:
    """``clone`` (the engine's own copy) at a raise, a gather and a push: the
    copy plays alone to the same end as the original, untouched meanwhile."""
    agents = [RULES.AGENTS["heuristic"]() for _ in range(4)]
    kinds = set()
    for index, (state, decision) in enumerate(_decisions("leaders", 4, 5)):
        if index % 7 or decision.kind in kinds:
            continue
        kinds.add(decision.kind)
        twin, before = clone(state), _canon(state.table)
        first = play(twin, agents, agent_rngs("c", 4))
        assert _canon(state.table) == before
        assert play(clone(state), agents, agent_rngs("c", 4)) == first
    assert kinds >= {"raise", "gather", "push"}

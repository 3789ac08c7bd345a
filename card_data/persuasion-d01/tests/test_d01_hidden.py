"""D01 hidden information: an observation is a frozen value with no way back
to the game, and nothing reachable from it names a letter or desires card the
seat has not been shown. Whole games, every decision, every seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnp.engine.api import Decision
from pnp.testing import engine, game_folder, reachable

D01, GAME = engine(game_folder(__file__))
D01State = D01.state.D01State
Desire = D01.state.Desire
Letter = D01.state.Letter
Observation = D01.state.Observation
Subsets = D01.state.Subsets
AGENTS = D01.agents.AGENTS
prepare = D01.prepare

PACK = prepare(GAME, {**GAME.engine.options, "with_modules": True})
LETTER_OF = {id(L): i for i, L in enumerate(PACK.letters)}
LETTER_FIELDS = ("hand", "deck_seen", "discards")


class Oracle:
    """What each seat has been shown, worked out from the table, not from the engine's bookkeeping."""

    def __init__(self, state: D01State):
        self.state = state
        self.letters: list[set[int]] = [set() for _ in range(state.n)]
        self.desires: list[set[int]] = [{id(state.desires[s])} for s in range(state.n)]
        self.peekers: dict[int, int] = {}  # seat -> owner whose hand it looked into today
        self.deck_peekers: set[int] = set()

    def update(self) -> None:
        st = self.state
        for s in range(st.n):
            self.letters[s] |= set(st.hands[s]) | set(st.discards)
            self.letters[s] |= {c for (r, _, c) in st._letters if r == s}
            if s in self.deck_peekers:
                self.letters[s] |= set(st.deck[-3:])
            if s in self.peekers:
                self.letters[s] |= set(st.hands[self.peekers[s]])

    def chose(self, d: Decision, choice: Any) -> None:
        st = self.state
        if d.kind == "morning":
            self.peekers.pop(d.seat, None)
            self.deck_peekers.discard(d.seat)
            if choice[0] == "power":
                for seen in self.letters:  # revealed with the morning: its power names it
                    seen.add(choice[1])
                name = PACK.letters[choice[1]].id
                if name == "confiding":
                    self.peekers[d.seat] = st.owner[choice[1]]
                if name == "well-read":
                    self.deck_peekers.add(d.seat)
        if d.kind == "peek-desires" and not st.protected(choice, "peek"):
            self.desires[d.seat].add(id(st.desires[choice]))


def _skip(obj: Any) -> bool:
    return isinstance(obj, (Letter, Desire))


def _audit(state: D01State, oracle: Oracle, seat: int, obs: Observation, decision: Decision | None) -> None:
    notes = obs.notes
    for path, obj in reachable((obs, decision), lambda o: _skip(o) or o is notes):
        if obj is notes:
            continue
        assert not isinstance(obj, (D01State, list, set, dict)), f"seat {seat}: {path} is a {type(obj).__name__} (mutable, or the state)"
        if isinstance(obj, Letter):
            assert LETTER_OF[id(obj)] in oracle.letters[seat], f"seat {seat} sees {obj.id} at {path}"
        if isinstance(obj, Desire):
            assert id(obj) in oracle.desires[seat], f"seat {seat} sees desires {obj.id} at {path}"
    assert obs.seen_suits[seat] == (), "a seat is never 'shown' its own letters"
    numbers = [c for name in LETTER_FIELDS for c in getattr(obs, name)] + list(obs.known) + list(obs.owners)
    numbers += list(obs.places) + [c for *_, c in obs.post if c >= 0] + [c for _, kind, c, *_ in obs.pending if kind == "power"]
    numbers += [c for *_, c in obs.post_seen]  # kept for the day: some may have been answered since
    if decision is not None:
        if isinstance(decision.options, Subsets):
            numbers += list(decision.options.items)
        for key in ("letter", "drawn"):
            if key in decision.context:
                numbers.append(decision.context[key])
    stray = [c for c in numbers if c not in oracle.letters[seat]]
    assert not stray, f"seat {seat} can name letters it was never shown: {[PACK.letters[c].id for c in stray]}"


@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize("players", [3, 5, 8])
def test_no_observation_reaches_what_its_seat_was_not_shown(agent: str, players: int) -> None:
    rng = random.Random(players)
    agents = [AGENTS[agent]() for _ in range(players)]
    for _ in range(6):
        state = D01State(PACK, players, rng)
        oracle = Oracle(state)
        while True:
            decision = state.decision()
            oracle.update()
            if decision is None:
                break
            for seat in range(players):
                _audit(state, oracle, seat, state.observation(seat), decision if seat == decision.seat else None)
            choice = agents[decision.seat](state.observation(decision.seat), decision, rng)
            oracle.chose(decision, choice)
            state.apply(choice)
            oracle.update()


def test_an_observation_is_a_snapshot() -> None:
    state = D01State(PACK, 4, random.Random(2))
    state.decision()
    obs = state.observation(0)
    with pytest.raises(AttributeError):
        obs.hand = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        obs.known[0] = PACK.letters[0]  # type: ignore[index]
    hand = obs.hand
    state.apply(state.decision().options[0])  # type: ignore[union-attr]
    while (d := state.decision()) is not None and state.day == 1:
        state.apply(d.options[0])
    assert obs.hand == hand, "an old observation does not follow the game"


def test_the_cached_public_part_matches_the_table() -> None:
    """The observation keeps its public part until hearts, rings or discards change: never stale."""
    rng = random.Random(9)
    agents = [AGENTS["random"]() for _ in range(5)]
    for _ in range(20):
        state = D01State(PACK, 5, rng)
        while (d := state.decision()) is not None:
            obs = state.observation(d.seat)
            assert obs.supply == tuple(state.supply) and obs.received == tuple(map(tuple, state.received))
            assert obs.fiances == tuple(state.fiance) and obs.discards == tuple(state.discards)
            assert obs.rings_home == tuple(r == s for s, r in enumerate(state.ring))
            assert obs.rings_sent == tuple(state._rings) and obs.pending == tuple(state._later) and obs.scorned == tuple(state._scorned)
            assert obs.backs == tuple(tuple(sorted(state.owner[c] for c in hand)) for hand in state.hands)
            assert all(c in state.hands[h] for c, h in obs.places.items()), "a known place is stale"
            state.apply(agents[d.seat](obs, d, rng))

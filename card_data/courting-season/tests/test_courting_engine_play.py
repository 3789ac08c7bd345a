"""Courting Season played whole: random playouts with every move checked
against the rules' invariants, and a seeded golden playthrough small enough
to check by hand against the cards (tests/golden/)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from courting_tables import GAME_DIR, RULES, pack
from pnp.engine.api import agent_rngs, clone, play
from pnp.testing import assert_matches_golden, play_checked


def _invariants(state: Any) -> None:
    """Nothing made or lost: every character and influence card in exactly one
    place, the prestige held and in the supply adding up to the tokens'
    value, no society over its size or (when full) of one kind."""
    p = state.pack
    chars = [*state.piles[0], *state.piles[1], *state.discarded, *(c for s in state.societies for c in s)]
    assert sorted(chars) == list(range(len(p.characters)))
    cards = [*state.influence, *state.played, *(c for h in state.hands for c in h)]
    assert sorted(cards) == list(range(len(p.influence)))
    assert sum(state.prestige) + state.supply == p.supply and min(state.prestige) >= 0 and state.supply >= 0
    for society in state.societies:
        kinds = [p.characters[c].kind for c in society]
        assert len(kinds) <= p.society and not (len(kinds) == p.society and len(set(kinds)) == 1)
    assert state.down <= {c for s in state.societies for c in s}


@pytest.mark.parametrize("variant", [None, "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_every_invariant(variant: str | None, players: int) -> None:
    p = pack(variant)
    endings = set()
    for seed in range(25):
        state = RULES.new_state(p, players, random.Random(f"playout:{seed}"), {})
        agents = [RULES.AGENTS["random" if seed % 2 else "heuristic"]() for _ in range(players)]
        outcome = play_checked(state, agents, random.Random(seed), _invariants, 5000)
        assert outcome.scores == tuple(float(state.score(s)) for s in range(players))
        assert sum(outcome.winners) >= 1 and state.ended
        endings.add(state.ended)
    assert "tokens" in endings or "influence" in endings


def test_a_clone_plays_on_as_the_original() -> None:
    p = pack("advanced")
    state = RULES.new_state(p, 4, random.Random("clone"), {})
    agents = [RULES.AGENTS["heuristic"]() for _ in range(4)]
    for _ in range(15):
        d = state.decision()
        state.apply(agents[d.seat](state.observation(d.seat), d, random.Random(0)))
    twin = clone(state)
    assert play(twin, agents, agent_rngs("c", 4)) == play(state, agents, agent_rngs("c", 4))


class _Recorded(random.Random):
    """The game's generator, noting each die roll (``randrange``) for the log."""

    rolls: list[int]

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        face = super().randrange(*args, **kwargs)
        self.rolls.append(face)
        return face


def _say(p: Any, decision: Any, choice: Any) -> str:
    chars, cards = p.characters, p.influence
    if decision.kind == "act":
        if choice[0] == "propose":
            return f"proposes {chars[choice[1]].id} to seat {choice[2]}'s {chars[choice[3]].id}"
        return f"hosts at {cards[choice[1]].id}: {chars[choice[2]].id} for seat {choice[3]}'s {chars[choice[4]].id}"
    if decision.kind in ("farewell",):
        return f"sends {chars[choice].id} away"
    if decision.kind == "approve":
        return "plays no approval" if choice is None else f"plays {cards[choice].id}"
    return f"{decision.kind}: {choice}"


@pytest.mark.parametrize(("variant", "name"), [(None, "playthrough-2p"), ("advanced", "playthrough-2p-advanced")])
def test_golden_playthrough_two_players(variant: str | None, name: str) -> None:
    """Two heuristic players, seed golden:1: each line a decision, the dice
    rolled while it was carried out (in order: the proposer's, then the
    other's), and each seat's prestige after it."""
    p = pack(variant)
    rng = _Recorded("golden:1")
    rng.rolls = []
    state = RULES.new_state(p, 2, rng, {})
    agents, rngs = [RULES.AGENTS["heuristic"]() for _ in range(2)], agent_rngs("golden:1", 2)
    faces = ["preference" if f < 0 else p.traits[f] for f in p.faces]
    lines = [f"seat {s}: " + ", ".join(p.characters[c].id for c in state.societies[s]) for s in range(2)]
    while (d := state.decision()) is not None:
        choice = agents[d.seat](state.observation(d.seat), d, rngs[d.seat])
        turn = state.turn
        rng.rolls.clear()
        state.apply(choice)
        rolled = f" [rolled {', '.join(faces[f] for f in rng.rolls)}]" if rng.rolls else ""
        lines.append(f"turn {turn + 1} seat {d.seat} {_say(p, d, choice)}{rolled} -> prestige {list(state.prestige)}")
    lines.append(f"ended by {state.ended}; left: " + "; ".join(", ".join(p.characters[c].id for c in s) for s in state.societies))
    lines.append(f"scores {list(state.scores)}")
    assert_matches_golden(GAME_DIR / "tests" / "golden", name, lines)

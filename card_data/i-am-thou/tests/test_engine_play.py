"""Whole games: random and heuristic playouts with every move checked in
every variant and table size; the determinize contract of pnp's search agent;
agents that decide alike in every deal their seat cannot tell apart; the
powers `pnp check` counts."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from thou_engine_kit import GAME, RULES, T, prepared

from pnp.engine import agents as seats
from pnp.engine.api import agent_rngs, play
from pnp.testing import play_checked
from pnp.testing import agents_decide_alike, determinizations_agree

VARIANTS = (None, *GAME.engine.variants)


def _invariants(state) -> None:  # type: ignore[no-untyped-def]
    """No negative points or Garnets; no seat visits more than it may."""
    for s, m in enumerate(state.mines):
        assert min(state.points[s]) >= 0 and min(m.known) >= 0 and m.thirds >= 0, (s, state.points[s], m.thirds)
        counts = Counter(m.picks)
        allowed = m.actions + m.bought + (m.suit == T.WANDS and max(counts.values(), default=0) >= 3)
        assert len(m.picks) <= allowed, (s, m.picks, m.actions)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_and_heuristic_games_keep_every_rule(variant: str | None, players: int) -> None:
    prep = prepared(variant)
    for agent in ("random", "heuristic"):
        for seed in range(4):
            state = RULES.new_state(prep, players, random.Random(f"play:{seed}"), {})
            out = play_checked(state, [RULES.AGENTS[agent]() for _ in range(players)], random.Random(seed), _invariants, 5000)
            assert out.rounds == 9 and len(state.history) == 9
            assert set(out.categories) <= set(RULES.CATEGORIES) and sum(out.winners) <= 2
            assert set(out.powers) <= set(RULES.usable(prep)["powers"]) and set(out.actions) <= set(RULES.usable(prep)["actions"])


def test_every_power_is_used_over_heuristic_and_random_games() -> None:
    """Every NPC effect and suit ability the game can use comes up in play."""
    used: Counter[str] = Counter()
    for variant in (None, "fool-random", "purse"):
        prep = prepared(variant)
        for seed in range(12):
            agents = [RULES.AGENTS["heuristic" if seed % 2 else "random"]() for _ in range(5)]
            used.update(play(RULES.new_state(prep, 5, random.Random(seed), {}), agents, agent_rngs(str(seed), 5)).powers)
    assert set(RULES.usable(prepared())["powers"]) - set(used) == set()


def _decisions(variant: str | None, games: int, players: int):  # type: ignore[no-untyped-def]
    prep = prepared(variant)
    for game in range(games):
        state = RULES.new_state(prep, players, random.Random(f"redeal:{game}"), {})
        agents = [RULES.AGENTS["heuristic"]() for _ in range(players)]
        rngs = agent_rngs(f"redeal:{game}", players)
        while (decision := state.decision()) is not None:
            yield prep, state, decision
            state.apply(agents[decision.seat](state.observation(decision.seat), decision, rngs[decision.seat]))


@pytest.mark.parametrize("variant", [None, "vote", "reveal", "fool-random"])
def test_a_determinization_agrees_with_all_the_seat_has_seen_and_varies_the_rest(variant: str | None) -> None:
    checked, varied = determinizations_agree(RULES, _decisions(variant, 2, 5), 5, play_every=9)
    assert checked > 200 and varied > checked * 3 // 4, (varied, checked)


def test_agents_decide_alike_in_every_deal_their_seat_cannot_tell_apart() -> None:
    probes = {"heuristic": RULES.AGENTS["heuristic"](), "random": RULES.AGENTS["random"](), "search:6": seats.make(RULES, prepared(), "search:6")}
    compared = agents_decide_alike(RULES, _decisions(None, 1, 4), probes, search_every=15)
    assert sum(compared.values()) > 100


def test_the_heuristic_beats_random_play() -> None:
    prep = prepared()
    wins = 0.0
    for seed in range(40):
        agents = [RULES.AGENTS["random"]() for _ in range(4)]
        agents[seed % 4] = RULES.AGENTS["heuristic"]()
        out = play(RULES.new_state(prep, 4, random.Random(f"vs:{seed}"), {}), agents, agent_rngs(f"vs:{seed}", 4))
        wins += out.winners[seed % 4] / max(1, sum(out.winners))
    assert wins / 40 > 0.5, wins / 40


def test_suits_are_dealt_all_different_up_to_four_and_one_shared_at_five() -> None:
    deal = RULES.state.deal_suits
    for seed in range(30):
        for players in (3, 4):
            assert len(set(deal(players, random.Random(seed)))) == players
        five = deal(5, random.Random(seed))
        assert set(five) == {0, 1, 2, 3}
    shared_at = {next(s for s, suit in enumerate(five) if five.count(suit) == 2) for five in (deal(5, random.Random(k)) for k in range(30))}
    assert shared_at == {0, 1, 2, 3}  # the shared suit falls on any seat (the first of its two holders)


def test_a_power_switched_off_does_nothing_for_the_designer_s_what_if() -> None:
    from thou_engine_kit import kinds, new_game, play_round

    st = new_game(("swords", "cups", "wands"), without=frozenset({"sun", "swords passive", "cups passive", "wands passive", "cups interaction"}))
    watch = [(0, T.SUN)]
    asked = play_round(st, {0: [T.SUN], 1: [T.HERMIT, T.HERMIT, T.PLAYER + 2], 2: [T.EMPRESS] * 3}, {(1, "wands"): watch, (2, "wands"): watch})
    assert kinds(asked, 0) == [] and kinds(asked, 1) == ["wands"] and st.points[1][T.HERMIT] == 2  # no gift asked, no Cups point
    assert st.history[-1][2] == (T.EMPRESS,) * 3 and st.points[0][T.SUN] == 1
    with pytest.raises(Exception, match="engine.options.without"):
        RULES.prepare(GAME, {**GAME.engine.options, "without": ["sunn"]})

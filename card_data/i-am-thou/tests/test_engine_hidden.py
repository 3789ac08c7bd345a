"""What each seat is told, and nothing more: an observation reaches no part of
the moderator's state and holds nothing an agent can change; a hidden effect
(High Priestess, Star, Hierophant) leaves its target's observation exactly as
it would have been, while an effect whose target is told (Justice, the
Swords' block, the Tower, the Devil, a gift) changes it."""

from __future__ import annotations

import random

import pytest
from thou_engine_kit import GAME, RULES, T, new_game, play_round, prepared

from pnp.testing import mutable_parts, reachable

State = RULES.state.ThouState
Mine = T.Mine


@pytest.mark.parametrize("variant", [None, *GAME.engine.variants])
@pytest.mark.parametrize("players", [3, 5])
def test_an_observation_reaches_nothing_of_the_moderator_and_cannot_be_changed(variant: str | None, players: int) -> None:
    prep = prepared(variant)
    for seed in range(2):
        state = RULES.new_state(prep, players, random.Random(f"hidden:{seed}"), {})
        agents = [RULES.AGENTS["random"]() for _ in range(players)]
        private = {id(state), id(state.points), id(state.rng)} | {id(row) for row in state.points} | {id(m) for m in state.mines}
        while (decision := state.decision()) is not None:
            for seat in range(players):
                roots = [state.observation(seat)] + ([decision] if decision.seat == seat else [])
                for root in roots:
                    for path, obj in reachable(root, lambda o: isinstance(o, T.Prepared)):
                        assert id(obj) not in private and not isinstance(obj, (State, Mine, random.Random)), (seat, path)
                    assert mutable_parts(root) == [], (seat, mutable_parts(root)[:3])
            state.apply(agents[decision.seat](state.observation(decision.seat), decision, random.Random(seed)))


def _views_of(seat: int, npc: int, hidden: dict[tuple[int, str], list[object]], visits: dict[int, list[int]]) -> tuple[list[object], list[int]]:
    """Seat ``seat``'s observation at every decision of round 2 (played with
    ``visits``) after seat 0 visits ``npc`` in round 1 and answers ``hidden``,
    and the seat's true points."""
    st = new_game()
    play_round(st, {0: [npc]}, hidden)
    views = []
    while st.round == 2:
        decision = st.decision()
        views.append(st.observation(seat))
        plan, made = visits.get(decision.seat, []), len(st.mines[decision.seat].picks)
        st.apply(plan[made] if decision.kind == "visit" and made < len(plan) else T.STOP if decision.kind == "visit" else decision.options[0])
    views.append(st.observation(seat))
    return views, list(st.points[seat])


@pytest.mark.parametrize("npc, kind", [(T.HIGH_PRIESTESS, "high-priestess"), (T.STAR, "star"), (T.HIEROPHANT, "hierophant")])
def test_a_hidden_effect_leaves_its_target_s_observation_as_it_was(npc: int, kind: str) -> None:
    aimed = {(0, kind): [T.HERMIT if kind == "hierophant" else (1, T.HERMIT)]}
    missed = {(0, kind): [T.EMPRESS if kind == "hierophant" else (2, T.EMPRESS)]}
    visits = {1: [T.HERMIT]}
    seen_aimed, true_aimed = _views_of(1, npc, aimed, visits)
    seen_missed, true_missed = _views_of(1, npc, missed, visits)
    assert seen_aimed == seen_missed
    assert true_aimed[T.HERMIT] != true_missed[T.HERMIT]  # the moderator knows


@pytest.mark.parametrize(
    "npc, kind, choice, said",
    [
        (T.JUSTICE, "justice", (1, T.SUN), ("justice", T.SUN)),
        (T.TOWER, "tower", 1, ("tower", 0)),
        (T.DEVIL, "devil", (1, T.DEVIL), ("devil", T.DEVIL, 0)),
    ],
)
def test_a_target_who_is_told_is_told_just_that(npc: int, kind: str, choice: object, said: tuple[object, ...]) -> None:
    st = new_game()
    for _ in range(2 if npc == T.TOWER else 0):
        play_round(st, {0: [npc]})
    play_round(st, {0: [npc]}, {(0, kind): [choice]})
    assert [entry[1:] for entry in st.mines[1].told] == [said]
    assert st.mines[2].told == []


def test_the_reveal_variant_shows_every_point_at_the_end_of_each_round() -> None:
    st = new_game(reveal=True)
    play_round(st, {0: [T.HIGH_PRIESTESS]}, {(0, "high-priestess"): [(1, T.HERMIT)]})
    play_round(st, {1: [T.HERMIT]})
    seen = st.observation(2).ledger
    assert seen is not None and seen[1][T.HERMIT] == 0 and seen[0][T.HIGH_PRIESTESS] == 1
    assert st.mines[1].known[T.HERMIT] == 0  # the true count, now that it is shown
    assert new_game().observation(0).ledger is None

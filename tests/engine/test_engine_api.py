"""The generic engine interface: outcomes rank seats, and reports speak in
each engine's own words."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.engine.api import Outcome, agent_rngs, clone, play
from tests.conftest import run_pnp
from tests.enginetools import shipped


def _outcome(winners: tuple[bool, ...], scores: tuple[float, ...] = ()) -> Outcome:
    n = len(winners)
    return Outcome(winners, ("x",) * n, 1, False, ((),) * n, scores)


def test_ranks_follow_scores_and_share_places() -> None:
    assert _outcome((False, True, True, False), (3, 5, 5, 1)).ranks == (3, 1, 1, 4)
    assert _outcome((False, False), (0, 0)).ranks == (1, 1)


def test_without_scores_winners_rank_first() -> None:
    assert _outcome((False, True, False)).ranks == (2, 1, 2)
    assert _outcome((False, False)).ranks == (1, 1)


def test_simulate_reports_in_the_engine_words() -> None:
    d01 = run_pnp("simulate", "persuasion-d01", "--players", "4", "--games", "4")
    assert d01.returncode == 0, d01.stderr
    assert "host first" in d01.stdout and "\n  days: mean" in d01.stdout
    assert "outcomes: engaged" in d01.stdout and "independent" not in d01.stdout  # D01's categories, in its order
    b04 = run_pnp("simulate", "persuasion-b04", "--players", "4", "--games", "4")
    assert "\n  rounds: mean" in b04.stdout and "\n  intentions: " in b04.stdout
    assert "outcomes: engaged" in b04.stdout and "independent" in b04.stdout


def test_a_table_reader_speaks_the_game_words() -> None:
    """A game with its own words: players named by `name`, `result` won or
    lost, `partner` pairs for the team players; every problem located."""
    import pytest

    from pnp.engine.tables import Names, TableReader, as_document
    from pnp.errors import InputError

    names = Names("name", "result", ("lost", "won", "team"), "partner", ("team",))
    keys = ("name", "result", "partner", "points")
    good = TableReader(as_document({"players": [
        {"name": "ana", "result": "team", "partner": "bo"}, {"name": "bo", "result": "team", "partner": "ana"}, {"name": "cy"},
    ]}), names, None, keys, ("name",))
    good.done()
    assert [(p.name, p.category, p.partner) for p in good.players] == [("ana", "team", 1), ("bo", "team", 0), ("cy", "lost", -1)]
    bad = TableReader(as_document({"players": [
        {"name": "ana", "result": "tied"}, {"name": "ana", "partner": "ana"}, {"name": "cy", "result": "team", "partner": "zed"},
    ]}), names, None, keys, ("name",))
    with pytest.raises(InputError) as raised:
        bad.done()
    text = str(raised.value.format_message())
    assert "unknown result 'tied'; expected one of lost, won, team" in text
    assert "name 'ana' is already players[0]" in text
    assert "only a team player has a partner (result is 'lost')" in text
    assert "a team player needs 'partner': another player's name, found 'zed'" in text


@pytest.mark.parametrize("name, players", [("persuasion-b04", 4), ("persuasion-d01", 5)])
def test_a_clone_plays_on_alone(name: str, players: int) -> None:
    """A clone taken mid-game plays to the same end as the original given the
    same choices, and playing it leaves the original where it was."""
    rules, game = shipped(name)
    assert game.engine is not None
    prepared = rules.prepare(game, dict(game.engine.options))
    state = rules.new_state(prepared, players, random.Random(5), {})
    agents = [rules.AGENTS["heuristic"]() for _ in range(players)]
    rng = random.Random(9)
    for _ in range(12):
        decision = state.decision()
        assert decision is not None
        state.apply(agents[decision.seat](state.observation(decision.seat), decision, rng))
    copy = clone(state)
    before = [state.observation(seat) for seat in range(players)]
    ended = play(copy, agents, agent_rngs("3", players))
    assert [state.observation(seat) for seat in range(players)] == before and not state.is_terminal()
    assert play(state, agents, agent_rngs("3", players)) == ended


def test_a_product_lists_every_combination_lazily() -> None:
    """Product: len, indexing (last part fastest), slices and `in`, against the
    same combinations built eagerly."""
    import itertools

    from pnp.engine.api import Product

    parts = [("a", "b"), (1, 2, 3), (None, "x")]
    eager = list(itertools.product(*parts))
    lazy = Product(parts)
    assert len(lazy) == 12 and [lazy[i] for i in range(12)] == eager and lazy[-1] == eager[-1] and lazy[2:5] == eager[2:5]
    assert all(c in lazy for c in eager)
    assert ("a", 4, None) not in lazy and ("a", 1) not in lazy and ["a", 1, None] not in lazy
    with pytest.raises(IndexError):
        lazy[12]


def test_decision_of_makes_the_same_decision_as_its_constructor() -> None:
    """decision_of (the fast path engines use) and Decision(...) agree field by
    field, in type, and in the default context."""
    from pnp.engine.api import NO_CONTEXT, Decision, decision_of

    context = {"suit": 2}
    fast, slow = decision_of((1, "push", (3, 4), context)), Decision(1, "push", (3, 4), context)
    assert type(fast) is Decision and fast == slow
    assert (fast.seat, fast.kind, fast.options, fast.context) == (1, "push", (3, 4), context)
    assert Decision(0, "raise", ()).context is NO_CONTEXT and decision_of((0, "raise", (), NO_CONTEXT)) == Decision(0, "raise", ())


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(min_value=0, max_value=120))
def test_shuffle_deals_as_the_standard_library_does(seed: int, size: int) -> None:
    """pnp's shuffle draws exactly what random.Random.shuffle draws: the same
    order, and the rng left in the same state."""
    from pnp.engine.api import shuffle

    mine, theirs = list(range(size)), list(range(size))
    ours, standard = random.Random(seed), random.Random(seed)
    shuffle(mine, ours)
    standard.shuffle(theirs)
    assert mine == theirs and ours.getstate() == standard.getstate()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(min_value=0, max_value=30), k=st.integers(min_value=0, max_value=30))
def test_sample_and_below_draw_as_the_standard_library_does(seed: int, size: int, k: int) -> None:
    """pnp's sample and below draw exactly what random.Random.sample and
    randrange (and choice) draw, and leave the rng in the same state."""
    from pnp.engine.api import below, sample

    k = min(k, size)
    ours, standard = random.Random(seed), random.Random(seed)
    assert sample(tuple(range(size)), k, ours) == standard.sample(tuple(range(size)), k)
    n = size + 1
    assert below(ours, n) == standard.randrange(n) and below(ours, 1) == standard.randrange(1)
    items = list(range(n))
    assert items[below(ours, n)] == standard.choice(items)
    assert ours.getstate() == standard.getstate()


def test_a_state_that_plays_itself_plays_as_the_generic_loop() -> None:
    """``play`` hands the game to a state's own loop when it has one: the
    same outcome, and the same agent generators' states, as asking
    decision, observation and apply one by one."""
    rules, game = shipped("persuasion-d01")
    assert game.engine is not None
    prepared = rules.prepare(game, dict(game.engine.options))
    for index in range(10):
        seed = f"own:{index}"
        runs = []
        for own in (True, False):
            state = rules.new_state(prepared, 4, random.Random(seed), {})
            assert callable(getattr(state, "play_out", None))
            agents = [rules.AGENTS[name]() for name in ("heuristic", "random", "heuristic", "plain")]
            rngs = agent_rngs(seed, 4)
            if own:
                outcome = play(state, agents, rngs)
            else:
                while (decision := state.decision()) is not None:
                    state.apply(agents[decision.seat](state.observation(decision.seat), decision, rngs[decision.seat]))
                outcome = state.outcome()
            runs.append((outcome, [r.getstate() for r in rngs]))
        assert runs[0] == runs[1]


def test_a_product_of_options_is_read_only() -> None:
    """An agent cannot change the options it is offered: the product's
    attributes cannot be set nor its parts replaced; a copy is still a product."""
    import copy
    import pickle

    from pnp.engine.api import Product

    offered = Product([("a", "b"), ("c",)])
    for edit in (lambda: setattr(offered, "parts", ()), lambda: delattr(offered, "parts"), lambda: offered.parts.append(("z",))):  # type: ignore[attr-defined]
        with pytest.raises(AttributeError):
            edit()
    assert list(offered) == [("a", "c"), ("b", "c")]
    assert list(copy.deepcopy(offered)) == list(pickle.loads(pickle.dumps(offered))) == list(offered)

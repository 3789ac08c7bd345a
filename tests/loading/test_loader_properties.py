"""Property tests: whatever a game folder holds, loading it either works or
raises pnp's own error type, never anything else."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pnp.errors import InputError, PnpError
from pnp.loading.loader import load_game
from tests.conftest import MINI

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False), st.text(max_size=20),
    st.sampled_from(["poker", "63.5mm", "sun", "moon", "red", "mini/card.html", "cards.yaml", "art/dot.svg", "-1", "+1"]),
)
keys = st.one_of(
    st.sampled_from(["id", "name", "title", "copies", "cards", "size", "front", "back", "each", "sets", "symbols",
                     "components", "players", "min", "max", "fields", "type", "set", "keys", "values", "checks",
                     "rules", "deal", "odds", "fonts", "style", "crest", "documents"]),
    st.text(max_size=8),
)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=5)),
    max_leaves=25,
)


def _load_with(game_yaml: str | None = None, cards_yaml: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "mini"
        shutil.copytree(MINI, game)
        if game_yaml is not None:
            (game / "game.yaml").write_text(game_yaml)
        if cards_yaml is not None:
            (game / "cards.yaml").write_text(cards_yaml)
        try:
            load_game(game)
        except PnpError:
            pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_any_yaml_game_file_loads_or_fails_cleanly(doc: object) -> None:
    _load_with(game_yaml=yaml.safe_dump(doc))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_any_yaml_cards_file_loads_or_fails_cleanly(doc: object) -> None:
    _load_with(cards_yaml=yaml.safe_dump({"cards": doc} if isinstance(doc, list) else doc))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_any_text_loads_or_fails_cleanly(text: str) -> None:
    _load_with(cards_yaml=text)
    _load_with(game_yaml=text)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(keys, documents, max_size=5), max_size=4))
def test_any_cards_in_the_real_shape_load_or_fail_cleanly(cards: list[dict[str, object]]) -> None:
    _load_with(cards_yaml=yaml.safe_dump({"cards": cards}))


counts = st.one_of(st.integers(-5, 12), st.integers(-10**12, 10**12), st.sampled_from(["two", None, 1.5, True]))
tables = st.dictionaries(counts, st.one_of(counts, st.dictionaries(st.sampled_from(["sun", "moon", "x"]), counts, max_size=3)), max_size=6)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.one_of(tables, counts), per_value=st.one_of(tables, counts), copies=st.lists(st.integers(0, 3), min_size=4, max_size=4),
       need=st.integers(1, 3), players=st.tuples(st.integers(1, 9), st.integers(1, 9)))
@example(hand={1: 0}, per_value={}, copies=[0, 0, 0, 0], need=1, players=(1, 1))  # a goal card at copies 0
@example(hand={}, per_value={1: 0}, copies=[0, 0, 0, 0], need=1, players=(1, 1))  # per-value over a field of many values
def test_any_rules_tables_are_checked_or_refused_cleanly(hand: object, per_value: object, copies: list[int], need: int, players: tuple[int, int]) -> None:
    """Whatever numbers a game's rules tables hold, the checks that read them
    report findings, or refuse the input at a line; they never end in an exception that is not pnp's."""
    from pnp.rules.check import check_game

    checks = {
        "rules": {"hand": hand, "per_value": per_value},
        "checks": {
            "deal": [{"deck": "cards", "hand": "hand", "extra": 1, "per_value": "per_value", "field": "symbols"}],
            "per_value": [{"component": "cards", "field": "symbols", "table": "per_value", "why": "w"}],
            "odds": [
                {"kind": "dominant-signs", "deck": "cards", "field": "symbols", "need": need, "hand": "hand", "band_min": 0.0, "band_max": 1.0},
                {"kind": "suit-matches", "deck": "cards", "field": "symbols", "need": need, "hand": "hand",
                 "band_min": 0.0, "band_max": 1.0, "seeks": "symbols", "deck_per_value": "per_value"},
            ],
            "supply": [{"component": "cards", "total_at_least": {"max_of": "hand"}, "why": "w"}],
        },
    }
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "mini"
        shutil.copytree(MINI, game)
        text = (game / "game.yaml").read_text().replace("players: {min: 2, max: 4}", f"players: {{min: {players[0]}, max: {players[1]}}}")
        (game / "game.yaml").write_text(text + yaml.safe_dump(checks))
        cards = yaml.safe_load((game / "cards.yaml").read_text())
        for card, n in zip(cards["cards"], copies, strict=False):
            card["copies"] = n
        (game / "cards.yaml").write_text(yaml.safe_dump(cards))
        try:
            loaded = load_game(game)
        except PnpError:
            return
        try:
            check_game(loaded)
        except InputError as exc:  # a check the data makes impossible (a deck of no copies): told at its line
            assert exc.diagnostics and all(d.source.line and d.source.col for d in exc.diagnostics), exc.diagnostics

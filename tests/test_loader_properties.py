"""Property tests: whatever a game folder holds, loading it either works or
raises pnp's own error type, never anything else."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.errors import PnpError
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

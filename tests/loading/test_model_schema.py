"""The schema is the model: each key of game.yaml is declared once, on the
frozen model class it fills, and loading builds those values directly."""

from __future__ import annotations

import dataclasses
import typing

from pnp.schema.checks import Checks, Instances, Simulation, Supply
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.loading.presets import load_layouts, load_sizes
from pnp.schema.scalars import Choice, Text
from pnp.loading.schema import game_record
from pnp.schema.spec import ModelRecord, Spec, walk
from pnp.model import LAYOUT, CropMarks, FontFace, Game, LabelSheet, SheetLayout


def _records(spec: Spec) -> list[ModelRecord[object]]:
    found = [spec] if isinstance(spec, ModelRecord) else []
    for _, child in spec.children():
        found += _records(child)
    return found


def _all_records() -> list[ModelRecord[object]]:
    return _records(game_record(load_sizes())) + _records(LAYOUT)


def test_every_model_key_is_one_schema_key_and_back() -> None:
    records = _all_records()
    models = {r.model for r in records}
    assert {Game, FontFace, Checks, Instances, Simulation, SheetLayout, CropMarks, LabelSheet} <= models
    for record in records:
        assert record.model is not None
        declared = [f.name for f in dataclasses.fields(record.model) if "pnp.key" in f.metadata]  # type: ignore[arg-type]
        filled = [f.attr for f in record.fields if f.attr is not None]
        assert filled == declared, record.model


def test_schema_paths_name_each_key_once() -> None:
    paths = [path for path, _ in walk(game_record(load_sizes()))]
    assert len(paths) == len(set(paths))
    assert "style" in paths and "styles" not in paths  # the YAML key, not the attribute it fills
    assert "components[].cards" in paths and "components[].each" in paths


def test_checks_and_fonts_load_as_typed_values() -> None:
    game = load_game(resolve_game_dir("partisan"))
    assert isinstance(game.checks, Checks)
    supply = game.checks.supply[0]
    assert isinstance(supply, Supply)
    assert (supply.component, supply.total_at_least, supply.why) == ("aid", {"per_player": 1}, "one player aid each")
    doubled = next(i for i in game.checks.instances if i.label == "double deck")
    assert (doubled.decks, doubled.more_than, doubled.modules, doubled.draw) == (2, "chips_double_deck", False, None)
    assert game.checks.simulation == Simulation(rounds_min=3, rounds_max=14, seat_balance_min=0.8)
    assert game.checks.deal == ()
    assert all(isinstance(f, FontFace) for f in game.fonts)


def _choices(spec: Spec) -> tuple[str, ...] | None:
    if isinstance(spec, Choice):
        return spec.choices
    if isinstance(spec, Text) and spec.pattern and all(part.replace("-", "").isalpha() for part in spec.pattern.split("|")):
        return tuple(spec.pattern.split("|"))  # a fixed set written as a pattern (checks.odds.kind)
    return None


def test_a_fixed_set_of_words_is_a_literal_of_exactly_those_words() -> None:
    seen = 0
    for record in _all_records():
        assert record.model is not None
        hints = typing.get_type_hints(record.model)
        for f in record.fields:
            words = _choices(f.spec)
            if words is None or f.attr is None:
                continue
            hint = hints[f.attr]
            parts = (hint,) if typing.get_origin(hint) is typing.Literal else typing.get_args(hint)
            literal = [a for a in parts if typing.get_origin(a) is typing.Literal]
            assert [typing.get_args(a) for a in literal] == [words], (record.model, f.attr)
            seen += 1
    assert seen >= 6  # font style, odds kind, label paper, duplex, rotate, guides


def test_layouts_are_built_by_their_schema() -> None:
    layouts = load_layouts()
    assert all(isinstance(layout, SheetLayout) for layout in layouts.values())
    assert {layout.rotate for layout in layouts.values()} <= {"never", "auto"}
    assert any(isinstance(layout.labels, LabelSheet) for layout in layouts.values())

"""Which engine module plays which game: game.yaml's ``engine: {rules: ...}``.

An engine module provides ``prepare(game, options) -> prepared data``,
``new_state(prepared, players, rng, options) -> State``, ``AGENTS`` (name ->
factory), ``score(prepared, table) -> dict`` for the matrimony calculator (the
table a YAML document in the format of docs/score-tables.md, scored by the same
function the engine uses) and ``score_text(result) -> lines`` for its text output.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from pnp.errors import UsageError
from pnp.model import Game

MODULES = {
    "persuasion-b04": "pnp.engine.persuasion_b04_play",
    "persuasion-d01": "pnp.engine.persuasion_d01_play",
}


def engine_for(game: Game) -> tuple[ModuleType, dict[str, Any]]:
    """The engine module of ``game`` and its options."""
    spec = game.engine
    if not spec:
        raise UsageError(f"{game.title} declares no engine (game.yaml: engine: {{rules: ...}})")
    name = spec["rules"]
    if name not in MODULES:
        raise UsageError(f"{game.title}: no engine named {name!r}; pnp has {', '.join(sorted(MODULES))}")
    return importlib.import_module(MODULES[name]), dict(spec.get("options") or {})

"""Versions of a game as data: one value of each named change, applied to the
loaded game and its engine options as game.yaml's own variants are
(:meth:`pnp.model.EngineSpec.options_for`): no code of any game here.

A version is a tuple of values, one per change of the sweep file, in order;
its *key* (:func:`key`) is its canonical JSON, which names it in results
files and derives its seeds, so a version plays the same games whatever
else the sweep holds and however many workers play it.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pnp.engine import agents as seats
from pnp.engine.api import PlayEngine
from pnp.errors import InputError, PnpError
from pnp.loading.schema import FIELD_TYPE, field_spec
from pnp.schema.spec import INVALID, Checker, MapOf
from pnp.loading.yamlsrc import load_yaml
from pnp.model import Game
from pnp.sweep.spec import Change, Sweep

Version = tuple[object, ...]
"""One value per change of a sweep, as its file gives them."""
PRINTED = "printed"
"""The value of a ``variant`` change that plays the rules as printed."""


def key(version: Version) -> str:
    return json.dumps(list(version), sort_keys=True, separators=(",", ":"))


def said(changes: Sequence[Change], version: Version) -> str:
    """``hand=4, r10=3``: a version in a table's words."""
    return ", ".join(f"{c.name}={json.dumps(v) if not isinstance(v, str) else v}" for c, v in zip(changes, version))


def apply(game: Game, changes: Sequence[Change], version: Version) -> tuple[Game, dict[str, object]]:
    """``game`` with ``version``'s card copies and rules values, and the
    engine options it plays with: those of its variant, then its options."""
    assert game.engine is not None
    chosen = next((v for c, v in zip(changes, version) if c.kind == "variant"), PRINTED)
    options = game.engine.options_for(None if chosen == PRINTED else str(chosen))
    rules = dict(game.rules)
    for change, value in zip(changes, version):
        if change.kind == "option":
            options[change.target[0]] = value
        elif change.kind == "rule":
            rule, at = change.target
            table = rules[rule]
            rules[rule] = value if at is None or not isinstance(table, dict) else {**table, at: value}  # a table (checked)
        elif change.kind == "copies":
            assert isinstance(value, int)  # the sweep file's copies are whole numbers (pnp.sweep.spec)
            game = _copies(game, change.target[0], change.target[1], value)
    return replace(game, rules=rules), options


def _copies(game: Game, component: str, card: str, copies: int) -> Game:
    parts = tuple(
        replace(c, cards=tuple(replace(k, copies=copies) if k.id == card else k for k in c.cards)) if c.id == component else c
        for c in game.components
    )
    return replace(game, components=parts)


def grid(changes: Sequence[Change]) -> list[Version]:
    return [tuple(v) for v in itertools.product(*(c.values for c in changes))]


def sample(changes: Sequence[Change], count: int, seed: int) -> list[Version]:
    """``count`` distinct versions drawn from the grid (all of it when smaller)."""
    every = grid(changes)
    if count >= len(every):
        return every
    return random.Random(f"{seed}:sample").sample(every, count)


def neighbours(changes: Sequence[Change], version: Version) -> list[Version]:
    """The versions one step away: one change moved to the value beside its own."""
    out = []
    for i, change in enumerate(changes):
        at = change.values.index(version[i])
        for j in (at - 1, at + 1):
            if 0 <= j < len(change.values):
                out.append((*version[:i], change.values[j], *version[i + 1:]))
    return out


def first(sweep: Sweep) -> list[Version]:
    """The versions the search starts with."""
    if sweep.search == "grid":
        return grid(sweep.changes)
    return sample(sweep.changes, sweep.samples, sweep.seed)


def check_against(sweep: Sweep, game: Game, engine: PlayEngine[object, object]) -> None:
    """Refuse, at the sweep file's lines, what the game does not have: a
    card, a rules value (or a value its declared type refuses), a variant,
    an agent, a player count."""
    ck = Checker(sweep.doc, [])
    assert game.engine is not None
    declared = _declared(game)
    for change in sweep.changes:
        _check_change(change, game, declared, ck)
    for i, name in enumerate(sweep.agents):
        _agent(engine, name, ("agents",) if len(sweep.agents) == 1 else ("agents", i), ck)
    if any(b.measure == "skill_gap" for b in sweep.targets):
        for i, name in enumerate(sweep.skill):
            _agent(engine, name, ("skill", ("strong", "weak")[i]), ck)
    if len(sweep.agents) > 1 and sweep.players != (len(sweep.agents),):
        ck.error(("agents",), f"{len(sweep.agents)} agents, one per seat, need players: [{len(sweep.agents)}]; or give one agent for every seat")
    low, high = game.players
    for i, n in enumerate(sweep.players or ()):
        if not low <= n <= high:
            ck.error(("players", i), f"{game.title} is for {low} to {high} players; expected a count within them")
    if ck.diagnostics:
        raise InputError(ck.diagnostics)


def _agent(engine: PlayEngine[object, object], name: str, path: tuple[str | int, ...], ck: Checker) -> None:
    try:
        seats.check(engine, name)
    except PnpError as exc:
        ck.error(path, exc.message.removeprefix("--agents: "))


def _check_change(change: Change, game: Game, declared: dict[str, Any], ck: Checker) -> None:
    assert game.engine is not None
    if change.kind == "copies":
        component, card = change.target
        found = next((c for c in game.components if c.id == component), None)
        if found is None:
            ck.error((*change.path, "component"), f"no component {component!r}; expected one of {', '.join(c.id for c in game.components)}")
        elif card not in {k.id for k in found.cards}:
            ck.error((*change.path, "card"), f"no card {card!r} in {component}")
    elif change.kind == "variant":
        known = [PRINTED, *game.engine.variants]
        for i, value in enumerate(change.values):
            if value not in known:
                ck.error((*change.path, "values", i), f"no variant {value!r}; expected one of {', '.join(known)}")
    elif change.kind == "rule":
        _check_rule(change, game, declared, ck)


def _check_rule(change: Change, game: Game, declared: dict[str, Any], ck: Checker) -> None:
    """Each value against the type game.yaml's ``rules_schema`` declares for it
    (for ``at``, the type of the mapping's entries)."""
    rule, at = change.target
    if rule not in game.rules:
        ck.error((*change.path, "rule"), f"no rules value {rule!r}; expected one of {', '.join(map(str, game.rules)) or 'none'}")
        return
    table = game.rules[rule]
    if at is not None and (not isinstance(table, dict) or at not in table):
        ck.error((*change.path, "at"), f"rules.{rule} has no entry {at!r}")
        return
    if rule not in declared:
        return  # undeclared: the loader warned already; nothing to check against
    spec = field_spec(declared[rule], ("rules_schema", rule), Checker(ck.doc, []))
    if at is not None and isinstance(spec, MapOf):
        spec = spec.value
    for i, value in enumerate(change.values):
        spec.check(value, (*change.path, "values", i), ck)


def _declared(game: Game) -> dict[str, Any]:
    """game.yaml's ``rules_schema``, checked (the loader checked it already)."""
    doc = load_yaml(game.source.file)
    out = {}
    declared = doc.data.get("rules_schema") if isinstance(doc.data, dict) else None
    for name, decl in (declared or {}).items():
        checked = FIELD_TYPE.check(decl, ("rules_schema", name), Checker(doc, []))
        if checked is not INVALID:
            out[name] = checked
    return out

"""sweep.yaml: which versions of a game to play, how many games, and the targets.

The file is read like game.yaml (:mod:`pnp.loading.yamlsrc`): every value
keeps its line and column, a wrong one is an error at ``file:line:col`` with
its key path and what was expected, and unknown keys are warnings. What only
the game can tell (a card, a rules value's declared type, an agent) is
checked against it by :func:`pnp.sweep.variants.check_against`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, InputError, Level
from pnp.schema.scalars import IDENT, Choice, Integer, Number, Text
from pnp.schema.spec import INVALID, AnyValue, Checker, Field, ListOf, Record, Variant
from pnp.loading.yamlsrc import Document, load_yaml
from pnp.model import MAX_COPIES

VALUES = "The values the change takes, one per version."
NAME = "The change's name in tables and reports (default: what it changes)."
KINDS: dict[str, Record] = {
    "option": Record((
        Field("name", IDENT, NAME, None),
        Field("option", Text(max_length=64), "The engine option set (game.yaml engine.options)."),
        Field("values", ListOf(AnyValue(), 1, 1000), VALUES),
    )),
    "copies": Record((
        Field("name", IDENT, NAME, None),
        Field("component", Text(max_length=64), "The component (deck) holding the card."),
        Field("card", Text(max_length=64), "The card's id."),
        Field("values", ListOf(Integer(0, MAX_COPIES), 1, 1000), VALUES),
    )),
    "rule": Record((
        Field("name", IDENT, NAME, None),
        Field("rule", IDENT, "The rules value set (game.yaml rules:)."),
        Field("at", AnyValue(), "For a mapping value (a table by player count): the key whose entry is set.", None),
        Field("values", ListOf(AnyValue(), 1, 1000), VALUES),
    )),
    "variant": Record((
        Field("name", IDENT, NAME, None),
        Field("values", ListOf(Text(max_length=64), 1, 100), "Variants of game.yaml engine.variants; 'printed' is the rules as printed."),
    )),
}
CHANGE = Variant("kind", tuple(KINDS.items()))
BAND = Record((
    Field("min", Number(), "The lowest value within the target.", None),
    Field("max", Number(), "The highest value within the target.", None),
), "a band {min, max}")
MEASURES = {
    "win_rate": "each seat's share of games won",
    "seat_balance": "1 minus the spread between the best and worst seat's win rate",
    "winners_share": "the share of players who win a game",
    "no_winner_rate": "the share of games nobody wins (ties where ties win nothing)",
    "rounds": "the mean length of a game, in the engine's rounds",
    "skill_gap": "points of win rate a skilled seat gains among weaker ones",
}
SWEEP = Record((
    Field("seed", Integer(0), "The same seed gives the same results.", 1),
    Field("games", Integer(1, 100_000_000), "Games per version and player count in the first round."),
    Field("batch", Integer(1, 10_000_000), "Games in one task (what a worker plays at once).", 100),
    Field("rounds", Integer(1, 20), "Rounds of play: after each, versions clearly outside the targets are dropped.", 1),
    Field("growth", Integer(1, 16), "How many times more games a version has after each round it survives.", 2),
    Field("players", ListOf(Integer(1, 100), 1, 100), "The player counts played (default: every count the rules allow).", None),
    Field("agents", AnyValue(), "One agent for every seat, or a list with one per seat (search:N included).", "heuristic"),
    Field("search", Record((
        Field("kind", Choice(("grid", "random", "adaptive")), "grid: every combination; random: samples drawn; adaptive: neighbours of the best.", "grid"),
        Field("samples", Integer(1, 100_000), "random and adaptive: versions drawn at first.", 20),
        Field("keep", Integer(1, 1000), "adaptive: the best versions whose neighbours are tried after each round.", 3),
    )), "How versions are chosen from the changes.", None),
    Field("changes", ListOf(CHANGE, 1, 32), "Named changes to the game; a version is one value of each."),
    Field("targets", Record(tuple(Field(k, BAND, f"A band on {v}.", None) for k, v in MEASURES.items())), "The bands wanted.", None),
    Field("skill", Record((
        Field("strong", Text(max_length=64), "The skilled agent of skill_gap.", "heuristic"),
        Field("weak", Text(max_length=64), "The agent at the other seats of skill_gap.", "random"),
    )), "The agents skill_gap compares.", None),
    Field("report", Record((
        Field("heatmap", ListOf(IDENT, 2, 2), "The two changes the heat maps are drawn over (default: the first two).", None),
    )), "What the HTML report draws.", None),
), "a sweep {games, changes, targets ...}")


@dataclass(frozen=True)
class Change:
    """One named change and the values it takes."""

    name: str
    kind: str
    target: tuple[Any, ...]
    """option: (option,); copies: (component, card); rule: (rule, at); variant: ()."""
    values: tuple[object, ...]
    path: tuple[str | int, ...]
    """Its key path in the sweep file, for errors about it."""


@dataclass(frozen=True)
class Band:
    measure: str
    low: float | None
    high: float | None


@dataclass(frozen=True)
class Sweep:
    """A checked sweep file."""

    doc: Document
    text: str
    seed: int
    games: int
    batch: int
    rounds: int
    growth: int
    players: tuple[int, ...] | None
    agents: tuple[str, ...]
    search: str
    samples: int
    keep: int
    changes: tuple[Change, ...]
    targets: tuple[Band, ...]
    skill: tuple[str, str]
    heatmap: tuple[str, str] | None


def read_sweep(path: Path, strict: bool = False) -> tuple[Sweep, list[Diagnostic]]:
    """The checked sweep file at ``path`` and its warnings; every error at
    once as an :class:`InputError` (exit status 2)."""
    doc = load_yaml(path)
    diagnostics: list[Diagnostic] = []
    ck = Checker(doc, diagnostics)
    top = SWEEP.check(doc.data, (), ck)
    sweep = None if top is INVALID else _sweep(doc, path, top, ck)
    if strict:
        diagnostics = [Diagnostic(d.source, d.path, d.message, Level.ERROR) for d in diagnostics]
    if sweep is None or any(d.level is Level.ERROR for d in diagnostics):
        raise InputError(diagnostics)
    return sweep, diagnostics


def _nested(name: str, value: Any, ck: Checker) -> Any:
    """A section as checked, or its defaults when the file leaves it out."""
    return SWEEP.field(name).spec.check({}, (name,), ck) if value is None else value


def _sweep(doc: Document, path: Path, top: dict[str, Any], ck: Checker) -> Sweep | None:
    search, skill, report = (_nested(k, top[k], ck) for k in ("search", "skill", "report"))
    targets = [] if top["targets"] is None else [
        Band(name, band["min"], band["max"]) for name, band in top["targets"].items() if band is not None
    ]
    for band in targets:
        if band.low is None and band.high is None:
            ck.error(("targets", band.measure), "expected min, max or both")
        elif band.low is not None and band.high is not None and band.low > band.high:
            ck.error(("targets", band.measure), f"min {band.low:g} is above max {band.high:g}")
    changes = [_change(i, c) for i, c in enumerate(top["changes"])]
    for change in changes:
        seen = [repr(v) for v in change.values]
        for i, value in enumerate(seen):
            if value in seen[:i]:
                ck.error((*change.path, "values", i), f"{value} a second time; expected each value once")
    names = [c.name for c in changes]
    for i, name in enumerate(names):
        if name in names[:i]:
            ck.error(("changes", i), f"a second change named {name!r}; give each change its own name")
    heatmap = report["heatmap"] if report is not INVALID else None
    for i, name in enumerate(heatmap or ()):
        if name not in names:
            ck.error(("report", "heatmap", i), f"no change named {name!r}; expected one of {', '.join(names)}")
    agents = _agents(top["agents"], ck)
    if top["games"] % top["batch"]:
        ck.error(("games",), f"{top['games']} games is not a whole number of batches of {top['batch']}; expected a multiple of batch")
    if INVALID in (search, skill, report, agents):
        return None
    return Sweep(
        doc, path.read_text(encoding="utf-8"), top["seed"], top["games"], top["batch"], top["rounds"], top["growth"],
        None if top["players"] is None else tuple(sorted(set(top["players"]))), agents, search["kind"], search["samples"],
        search["keep"], tuple(changes), tuple(targets), (skill["strong"], skill["weak"]),
        None if heatmap is None else (heatmap[0], heatmap[1]),
    )


def _change(index: int, raw: dict[str, Any]) -> Change:
    kind = raw["kind"]
    target: tuple[Any, ...]
    if kind == "option":
        target, default = (raw["option"],), raw["option"]
    elif kind == "copies":
        target, default = (raw["component"], raw["card"]), raw["card"]
    elif kind == "rule":
        target, default = (raw["rule"], raw["at"]), raw["rule"]
    else:
        target, default = (), "variant"
    return Change(raw["name"] or str(default), kind, target, tuple(raw["values"]), ("changes", index))


def _agents(raw: Any, ck: Checker) -> Any:
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n for n in names):
        return ck.error(("agents",), f"expected an agent's name (heuristic, search:200) or a list of them, one per seat; found {raw!r}")
    return tuple(names)

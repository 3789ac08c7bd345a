"""What a run of a game's checks (:func:`pnp.rules.check.check_game`) offers
each check: findings, where a value is written, rules values and tables read
with one error at the faulty value's own place."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard, TypeVar

from pnp.errors import Diagnostic, Source
from pnp.loading.yamlsrc import dotted
from pnp.model import Card, Component, Game
from pnp.rules.figures import Exact
from pnp.rules.findings import Finding, Severity

V = TypeVar("V")


class Run:
    """One check run over a game: its findings, exact results, and how it
    reads rules values and finds where a value is written."""

    def __init__(self, game: Game):
        self.game = game
        self.findings: list[Finding] = []
        self.exact: Exact = {}
        self.unusable: set[str] = set()
        """Rules keys already reported as unusable (each is reported once)."""
        self.refused: list[Diagnostic] = []
        """Checks that cannot be worked out from the data at all (unusable input)."""

    def add(self, level: Severity, check: str, message: str, where: str) -> None:
        self.findings.append(Finding(level, check, message, where))

    def source(self, path: str) -> Source:
        """Where the value at the dotted ``path`` of game.yaml is, or its nearest ancestor."""
        probe = path
        while probe and probe not in self.game.where:
            probe = probe[: max(0, probe.rfind("."), probe.rfind("["))]
        return self.game.where.get(probe, self.game.source)

    def where(self, path: str) -> str:
        return str(self.source(path))

    def no_key(self, check: str, key: str, path: str, besides: str = "") -> None:
        """An error at ``path``, which names ``key``: rules: has no such key."""
        keys = ", ".join(str(k) for k in self.game.rules) or "none"
        self.add(Severity.ERROR, check, f"{path}: no rules key {key!r}; expected {besides}one of the rules keys: {keys}", self.where(path))

    def card_where(self, component: Component, card: Card) -> str:
        """Where a card's copies are given: its entry in the cards file, or for a
        component made from a set (``each``), the component's ``copies``."""
        if card.entry is None:
            return str(card.source)
        return self.where(f"components[{self.game.components.index(component)}].copies")

    def refuse(self, path: str, message: str) -> None:
        """A check the data makes impossible to work out: an input error at ``path``."""
        self.refused.append(Diagnostic(self.source(path), path, message))

    def number(self, check: str, value: int | str, path: str) -> int | None:
        """A whole number given at ``path``, or the value of the rules key it
        names; None (after an error at the faulty value's own place) if neither."""
        if not isinstance(value, str):
            return int(value)
        if value not in self.game.rules:
            self.no_key(check, value, path, "a whole number or ")
            return None
        found = self.game.rules[value]
        if _count(found):
            return int(found)
        if value not in self.unusable:
            self.unusable.add(value)
            self.add(
                Severity.ERROR, check,
                f"rules.{value}: expected a whole number from 0 to {MAX_COUNT:,} ({path} counts with it), found {_shown(found)}",
                self.where(f"rules.{value}"),
            )
        return None

    def component(self, check: str, component_id: str, path: str) -> Component | None:
        try:
            return self.game.component(component_id)
        except StopIteration:
            known = ", ".join(c.id for c in self.game.components)
            self.add(Severity.ERROR, check, f"no component {component_id!r}; expected one of {known}", self.where(path))
            return None

    def table(self, check: str, key: str, path: str) -> dict[int, int] | None:
        """A rules table {player count: number}, with an entry from 0 to
        ``MAX_COUNT`` for every allowed player count; entries for other counts
        are dropped with a warning. None (after an error) when it is not one.
        ``path``: where the check names the key."""
        return self._counts(check, key, path, _count)

    def value_table(self, check: str, key: str, path: str) -> dict[int, int | dict[object, int]] | None:
        """A rules table {player count: number, or {value: number}} (cards of each value)."""
        return self._counts(check, key, path, _count_or_counts)

    def _counts(self, check: str, key: str, path: str, sound: Callable[[object], TypeGuard[V]]) -> dict[int, V] | None:
        table = self.game.rules.get(key)
        low, high = self.game.players
        where = self.where(f"rules.{key}")
        if key in self.unusable:
            return None
        if key not in self.game.rules:
            self.unusable.add(key)
            self.no_key(check, key, path)
            return None
        if not isinstance(table, dict) or not table or not all(_count(k) and sound(v) for k, v in table.items()):
            self.unusable.add(key)
            bad = next(((k, v) for k, v in table.items() if not (_count(k) and sound(v))), None) if isinstance(table, dict) else None
            found = f"found {_shown(table)}" if bad is None else f"found {_shown(bad[1])} for {bad[0]!r}"
            at = where if bad is None else self.where(f"rules.{dotted((key, bad[0]))}")
            self.add(Severity.ERROR, check, f"rules.{key} must map each player count to a whole number from 0 to {MAX_COUNT:,}; {found}", at)
            return None
        missing = [n for n in range(low, high + 1) if n not in table]
        extra = [n for n in table if not low <= n <= high]
        if extra:
            self.add(Severity.WARNING, "player-table", f"rules.{key} has entries for {', '.join(map(str, extra))} players, outside {low}-{high}", where)
        if missing:
            self.unusable.add(key)
            self.add(Severity.ERROR, "player-table", f"rules.{key} has no entry for {', '.join(map(str, missing))} players (the game allows {low}-{high})", where)
            return None
        return {n: table[n] for n in range(low, high + 1)}


MAX_COUNT = 10_000
"""The largest number a rules table may give (a hand, a deck size): far past any game."""


def _count(value: object) -> TypeGuard[int]:
    return type(value) is int and 0 <= value <= MAX_COUNT


def _count_or_counts(value: object) -> TypeGuard[int | dict[object, int]]:
    """A count, or a count for each of some values."""
    return _count(value) or (isinstance(value, dict) and all(_count(n) for n in value.values()))


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."

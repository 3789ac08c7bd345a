"""Reading a real table for `pnp score`: the checks every game's table needs.

A table is a YAML document ``{players: [...]}``, one mapping per player. A
:class:`TableReader` walks it, collects every problem with its
file:line:col and key path, and raises them together as one
:class:`~pnp.errors.InputError`. What a game calls things is its own: the key
that names each player (a seat, a colour, a house ...), the key of each
player's category, and the key, if any, that pairs two players who must name
each other (see :class:`Names`). An engine checks its own keys with
:meth:`TableReader.list_of`, :meth:`TableReader.count`, :func:`once_each`
and :meth:`TableReader.fail`; docs/score-tables.md documents the shipped games' tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import Diagnostic, InputError
from pnp.loading.yamlsrc import Document, KeyPath


def as_document(table: Document | Mapping[str, object]) -> Document:
    """A mapping given directly (from code) is read as a document without positions."""
    if isinstance(table, Document):
        return table
    return Document(Path("<table>"), table, {})


@dataclass(frozen=True)
class Names:
    """What a game calls the parts of a table every reader checks."""

    name: str = "name"
    """The key naming each player; names are unique."""
    category: str = "status"
    """The key of each player's category."""
    categories: tuple[str, ...] = ()
    """The categories a player may have; the first is the one a player without the key has."""
    partner: str | None = None
    """A key naming another player, who must name this one back."""
    partnered: tuple[str, ...] = ()
    """The categories whose players have a partner (and no other may)."""


@dataclass
class Player:
    index: int
    name: str
    category: str
    partner: int
    """The index of the player this one names under :attr:`Names.partner`, or -1."""
    data: Mapping[str, object]


class TableReader:
    """Checks a table document, collecting every problem before raising."""

    def __init__(
        self, doc: Document, names: Names, allowed: Sequence[str] | None, keys: Iterable[str], required: Iterable[str],
        tops: Sequence[str] = (),
    ):
        """``allowed``: the names a player may have (None: any text);
        ``keys``: every key a player may have; ``required``: the ones it must;
        ``tops``: the table's keys besides ``players`` (a game's shared
        pieces: topics, a pool), which the engine reads itself."""
        self.doc = doc
        self.names = names
        self.errors: list[Diagnostic] = []
        self.players: list[Player] = []
        data = doc.data
        known = {"players", *tops}
        if not isinstance(data, dict) or not set(data) <= known or not isinstance(data.get("players"), list) or not data["players"]:
            extra = sorted(set(data) - known) if isinstance(data, dict) else []
            message = f"unknown key {extra[0]!r}; " if extra else ""
            others = f" and optionally {', '.join(repr(t) for t in tops)}" if tops else ""
            self.fail((extra[0],) if extra else (), f"{message}expected 'players': a list of players{others} (docs/score-tables.md)")
            self.done()
        self._players(data["players"] if isinstance(data, dict) else [], allowed, set(keys), tuple(required))
        self._partners()
        if len(self.players) < 2 and not self.errors:
            self.fail(("players",), "a table has at least 2 players")

    def _players(self, entries: list[object], allowed: Sequence[str] | None, keys: set[str], required: tuple[str, ...]) -> None:
        n = self.names
        seen: dict[str, int] = {}
        for i, p in enumerate(entries):
            at: KeyPath = ("players", i)
            if not isinstance(p, dict):
                self.fail(at, f"expected a mapping with {', '.join(sorted(keys))}, found {p!r}")
                continue
            for key in p:
                if key not in keys:
                    self.fail(at + (key,), f"unknown key {key!r}; expected one of {', '.join(sorted(keys))}")
            for key in required:
                if key not in p:
                    self.fail(at, f"missing {key!r}")
            name = p.get(n.name)
            if allowed is None and not isinstance(name, str) and n.name in p:
                self.fail(at + (n.name,), f"expected a name, found {name!r}")
            elif allowed is not None and name is not None and name not in allowed:
                self.fail(at + (n.name,), f"unknown {n.name} {name!r}; expected one of {', '.join(allowed)}")
            elif name in seen:
                self.fail(at + (n.name,), f"{n.name} {name!r} is already players[{seen[name]}]")
            elif isinstance(name, str):
                seen[name] = i
            category = p.get(n.category, n.categories[0] if n.categories else None)
            if category not in n.categories:
                self.fail(at + (n.category,), f"unknown {n.category} {category!r}; expected one of {', '.join(n.categories)}")
            self.players.append(Player(i, str(name), str(category), -1, p))

    def _partners(self) -> None:
        """Each partnered player names another who names it back; no one else names one."""
        n = self.names
        if n.partner is None:
            return
        index = {p.name: k for k, p in enumerate(self.players)}
        for k, p in enumerate(self.players):
            at: KeyPath = ("players", p.index)
            partner = p.data.get(n.partner)
            if p.category in n.partnered:
                if partner not in index or index[partner] == k:
                    where = at + (n.partner,) if n.partner in p.data else at
                    self.fail(where, f"{_a(p.category)} player needs {n.partner!r}: another player's {n.name}, found {partner!r}")
                else:
                    p.partner = index[partner]
            elif partner is not None:
                self.fail(at + (n.partner,), f"only {_a(' or '.join(n.partnered))} player has a {n.partner} ({n.category} is {p.category!r})")
        for k, p in enumerate(self.players):
            if p.partner >= 0 and self.players[p.partner].partner != k:
                other = self.players[p.partner].name
                self.fail(("players", p.index, n.partner), f"{p.name}'s {n.partner} {other} does not name {p.name} back")

    def fail(self, path: KeyPath, message: str) -> None:
        self.errors.append(self.doc.error(path, message))

    def list_of(self, player: Player, key: str) -> list[tuple[KeyPath, object]]:
        value = player.data.get(key, [])
        at: KeyPath = ("players", player.index, key)
        if not isinstance(value, list):
            self.fail(at, f"expected a list, found {value!r}")
            return []
        return [(at + (j,), v) for j, v in enumerate(value)]

    def count(self, player: Player, key: str, low: int, high: int) -> int:
        value = player.data.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.fail(("players", player.index, key), f"expected a whole number from {low} to {high}, found {value!r}")
            return 0
        return value

    def done(self) -> None:
        """Raise every problem found, if any."""
        if self.errors:
            raise InputError(self.errors)


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def once_each(reader: TableReader, uses: Sequence[tuple[KeyPath, str]], copies: Mapping[str, int]) -> None:
    """Refuse a card named more often than the game has copies of it."""
    counted: dict[str, int] = {}
    for path, card in uses:
        counted[card] = counted.get(card, 0) + 1
        if counted[card] > copies.get(card, 1):
            reader.fail(path, f"card {card!r} is already on the table ({copies.get(card, 1)} in the game)")


__all__ = ["Names", "Player", "TableReader", "as_document", "once_each"]

"""Reading a real table for `pnp score` (the format is docs/score-tables.md).

A :class:`TableReader` walks the YAML document a player wrote, collects every
problem with its file:line:col and key path, and raises them together as one
:class:`~pnp.errors.InputError`: unknown keys, a crest or card that does not
exist, a card on the table twice, a fiance who does not name you back, an
unknown status.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, InputError
from pnp.loading.yamlsrc import Document, KeyPath


def as_document(table: Document | Mapping[str, Any]) -> Document:
    """A mapping given directly (from code) is read as a document without positions."""
    if isinstance(table, Document):
        return table
    return Document(Path("<table>"), table, {})


@dataclass
class Player:
    index: int
    crest: str
    status: str
    fiance: int
    data: Mapping[str, Any]


class TableReader:
    """Checks a table document, collecting every problem before raising."""

    def __init__(self, doc: Document, crests: Sequence[str] | None, statuses: Sequence[str], keys: Iterable[str], required: Iterable[str]):
        self.doc = doc
        self.errors: list[Diagnostic] = []
        self.players: list[Player] = []
        data = doc.data
        if not isinstance(data, dict) or set(data) != {"players"} or not isinstance(data.get("players"), list) or not data["players"]:
            extra = sorted(set(data) - {"players"}) if isinstance(data, dict) else []
            message = f"unknown key {extra[0]!r}; " if extra else ""
            self.fail((extra[0],) if extra else (), f"{message}expected one key, 'players': a list of players (docs/score-tables.md)")
            self.done()
        keys, required = set(keys), tuple(required)
        entries = data["players"]
        seen_crests: dict[str, int] = {}
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
            crest = p.get("crest")
            if crests is None and not isinstance(crest, str) and "crest" in p:
                self.fail(at + ("crest",), f"expected a name, found {crest!r}")
            elif crests is not None and crest is not None and crest not in crests:
                self.fail(at + ("crest",), f"unknown crest {crest!r}; expected one of {', '.join(crests)}")
            elif crest in seen_crests:
                self.fail(at + ("crest",), f"crest {crest!r} is already players[{seen_crests[crest]}]")
            elif isinstance(crest, str):
                seen_crests[crest] = i
            status = p.get("status", "available")
            if status not in statuses:
                self.fail(at + ("status",), f"unknown status {status!r}; expected one of {', '.join(statuses)}")
            self.players.append(Player(i, str(crest), str(status), -1, p))
        index = {p.crest: k for k, p in enumerate(self.players)}
        for k, p in enumerate(self.players):
            at = ("players", p.index)
            fiance = p.data.get("fiance")
            if p.status == "engaged":
                if fiance not in index or index[fiance] == k:
                    self.fail(at + ("fiance",) if "fiance" in p.data else at, f"an engaged player needs 'fiance': another player's crest, found {fiance!r}")
                else:
                    p.fiance = index[fiance]
            elif fiance is not None:
                self.fail(at + ("fiance",), f"only an engaged player has a fiance (status is {p.status!r})")
        for k, p in enumerate(self.players):
            if p.fiance >= 0 and self.players[p.fiance].fiance != k:
                self.fail(("players", p.index, "fiance"), f"{p.crest}'s fiance {self.players[p.fiance].crest} does not name {p.crest} back")
        if len(self.players) < 2 and not self.errors:
            self.fail(("players",), "a table has at least 2 players")

    def fail(self, path: KeyPath, message: str) -> None:
        self.errors.append(self.doc.error(path, message))

    def list_of(self, player: Player, key: str) -> list[tuple[KeyPath, Any]]:
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


def once_each(reader: TableReader, uses: Sequence[tuple[KeyPath, str]], copies: Mapping[str, int]) -> None:
    """Refuse a card named more often than the game has copies of it."""
    counted: dict[str, int] = {}
    for path, card in uses:
        counted[card] = counted.get(card, 0) + 1
        if counted[card] > copies.get(card, 1):
            reader.fail(path, f"card {card!r} is already on the table ({copies.get(card, 1)} in the game)")


__all__ = ["TableReader", "Player", "as_document", "once_each"]

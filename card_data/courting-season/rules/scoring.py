"""Scoring a real final table (``pnp score``): each player's prestige less the
penalty trait of the characters left in their society; the highest score
wins, and equal highest scores all win."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.engine.tables import Names, TableReader, as_document, once_each
from pnp.loading.yamlsrc import Document

from .pack import Pack

TABLE = Names("name", "status", ("played",))


def score(pack: Pack, table: Document | Mapping[str, Any]) -> dict[str, Any]:
    """``players: [{name, prestige, society: [character ids]}]``, after the end's farewell."""
    reader = TableReader(as_document(table), TABLE, None, ("name", "prestige", "society"), ("name", "prestige", "society"))
    chars = {c.id: c for c in pack.characters}
    penalty = pack.traits[pack.penalty]
    low, high = pack.players
    if not low <= len(reader.players) <= high:
        reader.fail(("players",), f"{len(reader.players)} players; the game is for {low} to {high}")
    held = [reader.count(p, "prestige", 0, pack.supply) for p in reader.players]
    if sum(held) > pack.supply:
        reader.fail(("players",), f"{sum(held)} prestige on the table; the supply holds {pack.supply}")
    uses, societies = [], []
    for p in reader.players:
        kept = []
        entries = reader.list_of(p, "society")
        if len(entries) > pack.society:
            reader.fail(("players", p.index, "society"), f"{len(entries)} characters; a society holds at most {pack.society}")
        for path, cid in entries:
            if cid not in chars:
                reader.fail(path, f"unknown character {cid!r}")
            else:
                uses.append((path, cid))
                kept.append(chars[cid])
        societies.append(kept)
    once_each(reader, uses, {})
    reader.done()
    lost = [sum(c.traits[pack.penalty] for c in kept) for kept in societies]
    scores = [prestige - pay for prestige, pay in zip(held, lost)]
    players = [
        {"name": p.name, "prestige": prestige, "penalty": pay, "score": total, "left": [c.title for c in kept], "wins": total == max(scores)}
        for p, prestige, pay, total, kept in zip(reader.players, held, lost, scores, societies)
    ]
    return {"penalty_trait": penalty, "players": players}


def score_text(result: Mapping[str, Any]) -> Sequence[str]:
    lines = []
    for p in result["players"]:
        left = ", ".join(p["left"]) or "nobody"
        lines.append(
            f"{p['name']}: {p['prestige']} prestige less {p['penalty']} {result['penalty_trait']} ({left}) = {p['score']}{': WINS' if p['wins'] else ''}"
        )
    return lines

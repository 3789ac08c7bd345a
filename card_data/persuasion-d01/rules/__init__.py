"""Persuasion D01 for the simulator and the calculator."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pnp.engine.tables import Names, TableReader, as_document, once_each
from pnp.loading.yamlsrc import Document, KeyPath
from pnp.model import Game

from .agents import AGENTS
from .cards import AtMatrimony, Pack, pack_from_game, score_players
from .determinize import determinize
from .state import MORNING, D01State

__all__ = [
    "ACTIONS", "AGENTS", "CATEGORIES", "FIRST_SEAT", "NO_WINNER", "ROUNDS",
    "determinize", "prepare", "new_state", "player_counts", "score", "score_text", "usable",
]

CATEGORIES = ("engaged", "available")
"""How a seat can end a game, in the order reports list them."""
ROUNDS = "days"
ACTIONS = "actions"
FIRST_SEAT = "host"
NO_WINNER = "nobody scored"
TABLE = Names("crest", "status", ("available", "engaged"), "fiance", ("engaged",))
"""What a scored table (docs/score-tables.md) calls a player's name, status and fiance."""


def prepare(game: Game, options: Mapping[str, Any]) -> Pack:
    return pack_from_game(game, options)


def new_state(pack: Pack, players: int, rng: random.Random, options: Mapping[str, Any]) -> D01State:
    return D01State(pack, players, rng, int(options.get("day_cap", 80)), not options.get("trusted_agents", False))


def usable(pack: Pack) -> dict[str, tuple[str, ...]]:
    """Every kind of morning action (as ``Outcome.actions`` counts them) and
    every letter whose power the game can use (as ``Outcome.powers`` counts them)."""
    return {"actions": MORNING, "powers": tuple(letter.id for letter in pack.letters if letter.powers)}


def player_counts(pack: Pack) -> list[int]:
    return sorted(pack.deck_per_suit)


def score(pack: Pack, table: Document | Mapping[str, Any]) -> dict[str, Any]:
    """Matrimony points for a real table (docs/score-tables.md), by
    :func:`score_players`, the engine's own scorer."""
    reader = TableReader(
        as_document(table), TABLE, pack.crests or None, ("crest", "desires", "status", "fiance", "hearts", "front"), ("crest", "desires", "front"),
    )
    reader.done()
    by_id = {letter.id: letter for letter in pack.letters + pack.optional}
    desires = {d.id: d for d in pack.desires}
    n = len(reader.players)
    if n not in pack.deck_per_suit:
        reader.fail(("players",), f"{n} players; the game is for {min(pack.deck_per_suit)} to {max(pack.deck_per_suit)}")
    uses: list[tuple[KeyPath, str]] = []
    seated = []
    for p in reader.players:
        front = []
        for path, card in reader.list_of(p, "front"):
            if isinstance(card, str) and card in by_id:
                front.append(by_id[card].suit)
                uses.append((path, card))
            elif isinstance(card, str) and card in pack.suits:
                front.append(card)
            else:
                reader.fail(path, f"expected a letter id or a suit ({', '.join(pack.suits)}), found {card!r}")
        wanted = p.data.get("desires")
        wish = desires.get(wanted) if isinstance(wanted, str) else None
        if wish is None:
            reader.fail(("players", p.index, "desires"), f"unknown desires card {p.data.get('desires')!r}")
        hearts = reader.count(p, "hearts", 0, pack.hearts * (n - 1))
        if wish is not None:
            seated.append(AtMatrimony(wish, tuple(front), hearts, p.partner))
    once_each(reader, uses, {})
    once_each(reader, [(("players", p.index, "desires"), str(p.data.get("desires"))) for p in reader.players], {})
    given = sum(seat.hearts for seat in seated)
    if given > pack.hearts * n:
        reader.fail(("players",), f"{given} hearts held in all; the table has only {pack.hearts * n}")
    reader.done()
    out = []
    for p, sc in zip(reader.players, score_players(pack, seated)):
        out.append({
            "crest": p.name, "status": p.category, "victories": dict(sc.victories), "hearts": sc.hearts,
            "points": sc.points, "wins": sc.wins, "why": sc.why,
        })
    return {"players": out}


def score_text(data: dict[str, Any]) -> list[str]:
    """`pnp score` without --json: one line a player."""
    return [f"{p['crest']} ({p['status']}): {'WINS' if p['wins'] else 'loses'}: {p['why']}" for p in data["players"]]

"""Persuasion B04 as the simulator and the calculator use it: the glue between
the loaded game data and :mod:`.state`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pnp.engine.tables import Names, TableReader, as_document, once_each
from pnp.loading.yamlsrc import Document, KeyPath
from pnp.model import Game

from .agents import AGENTS, warm
from .deck import AVAILABLE, ENGAGED, INDEPENDENT, Deck, deck_from_game, judge
from .determinize import determinize
from .state import B04State
from .views import KINDS

__all__ = [
    "ACTIONS", "AGENTS", "CATEGORIES", "FIRST_SEAT", "NO_WINNER", "ROUNDS", "determinize", "prepare", "new_state",
    "player_counts", "score", "score_text", "usable",
]

CATEGORIES = (ENGAGED, INDEPENDENT, AVAILABLE)
"""How a seat can end a game, in the order reports list them."""
ROUNDS = "rounds"
ACTIONS = "intentions"
FIRST_SEAT = "host"
NO_WINNER = "nobody won at matrimony"
TABLE = Names("crest", "status", (AVAILABLE, ENGAGED, INDEPENDENT), "fiance", (ENGAGED,))
"""What a scored table (docs/score-tables.md) calls a player's name, status and fiance."""


def prepare(game: Game, options: Mapping[str, Any]) -> Deck:
    deck = deck_from_game(game, options)
    warm(deck)
    return deck


def new_state(deck: Deck, players: int, rng: random.Random, options: Mapping[str, Any]) -> B04State:
    return B04State(deck, players, rng, int(options.get("round_cap", deck.round_cap)), not options.get("trusted_agents", False))


def usable(deck: Deck) -> dict[str, tuple[str, ...]]:
    """Every kind of action (the intentions ``Outcome.actions`` counts) and
    every card power B04 can use: its trait cards carry symbols only, no
    powers, so that list is empty (and ``Outcome.powers`` too)."""
    return {"actions": KINDS, "powers": ()}


def player_counts(deck: Deck) -> list[int]:
    return sorted(deck.hand_size)


def _vector(reader: TableReader, deck: Deck, value: Any, path: KeyPath, uses: list[tuple[KeyPath, str]]) -> tuple[int, ...]:
    """A card given by id, or inline as {symbol: +1 or -1}."""
    if isinstance(value, str):
        if value not in deck.ids:
            reader.fail(path, f"unknown card {value!r}")
            return (0,) * len(deck.symbols)
        uses.append((path, value))
        return deck.vectors[deck.ids.index(value)]
    if isinstance(value, dict) and value and all(s in deck.symbols for s in value) and all(v in (-1, 1) and not isinstance(v, bool) for v in value.values()):
        return tuple(int(value.get(s, 0)) for s in deck.symbols)
    reader.fail(path, f"expected a card id or {{symbol: 1 or -1}} with symbols {', '.join(deck.symbols)}, found {value!r}")
    return (0,) * len(deck.symbols)


def score(deck: Deck, table: Document | Mapping[str, Any]) -> dict[str, Any]:
    """Matrimony for a real table (docs/score-tables.md): each player's dominant
    symbols, and who wins and why, by :func:`judge`, the engine's own scorer."""
    reader = TableReader(
        as_document(table), TABLE, deck.crests or None, ("crest", "desires", "status", "fiance", "hand"), ("crest", "desires", "hand"),
    )
    reader.done()
    uses: list[tuple[KeyPath, str]] = []
    sums, wants = [], []
    size = deck.hand_size.get(len(reader.players))
    if size is None:
        reader.fail(("players",), f"{len(reader.players)} players; the game is for {min(deck.hand_size)} to {max(deck.hand_size)}")
    for p in reader.players:
        cards = reader.list_of(p, "hand")
        if size is not None and len(cards) != size:
            reader.fail(("players", p.index, "hand"), f"{len(cards)} cards; a hand at {len(reader.players)} players holds {size}")
        hand = [_vector(reader, deck, c, path, uses) for path, c in cards]
        sums.append([sum(v[k] for v in hand) for k in range(len(deck.symbols))])
        wants.append(_vector(reader, deck, p.data.get("desires"), ("players", p.index, "desires"), uses))
    once_each(reader, uses, {i: deck.ids.count(i) for i in set(deck.ids)})
    reader.done()
    names = [p.name for p in reader.players]
    verdicts = judge(names, wants, sums, [p.category for p in reader.players], [p.partner for p in reader.players])
    results = []
    for p, total, want, verdict in zip(reader.players, sums, wants, verdicts):
        results.append({
            "crest": p.name, "status": p.category,
            "dominant": {s: ("+" if t > 0 else "-") for s, t in zip(deck.symbols, total) if t},
            "desires": {s: ("+" if w > 0 else "-") for s, w in zip(deck.symbols, want) if w},
            "wins": verdict.wins, "why": verdict.why,
        })
    return {"players": results}


def score_text(data: dict[str, Any]) -> list[str]:
    """`pnp score` without --json: one line a player."""
    lines = []
    for p in data["players"]:
        dominant = " ".join(f"{sign}{symbol}" for symbol, sign in p["dominant"].items()) or "none"
        lines.append(f"{p['crest']} ({p['status']}): dominant {dominant}; {'WINS' if p['wins'] else 'loses'}: {p['why']}")
    return lines

"""Persuasion B04 as the simulator and the calculator use it: the glue between
the loaded game data and :mod:`pnp.engine.persuasion_b04`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pnp.engine.persuasion_b04 import ENGAGED, INDEPENDENT, NEED, B04State, Deck, deck_from_game, matches
from pnp.engine.persuasion_b04_agents import AGENTS
from pnp.errors import UsageError
from pnp.model import Game

__all__ = ["AGENTS", "prepare", "new_state", "score"]


def prepare(game: Game, options: Mapping[str, Any]) -> Deck:
    return deck_from_game(game, options)


def new_state(deck: Deck, players: int, rng: random.Random, options: Mapping[str, Any]) -> B04State:
    return B04State(deck, players, rng, int(options.get("round_cap", 60)), not options.get("trusted_agents", False))


def player_counts(deck: Deck) -> list[int]:
    return sorted(deck.hand_size)


def _vector(deck: Deck, value: Any, where: str) -> tuple[int, ...]:
    """A card given by id, or inline as {symbol: +1 or -1}."""
    if isinstance(value, str):
        if value not in deck.ids:
            raise UsageError(f"{where}: unknown card {value!r}")
        return deck.vectors[deck.ids.index(value)]
    if isinstance(value, dict):
        unknown = [s for s in value if s not in deck.symbols]
        if unknown or any(v not in (-1, 1) for v in value.values()):
            raise UsageError(f"{where}: expected a card id or {{symbol: +1 or -1}} with symbols {', '.join(deck.symbols)}")
        return tuple(int(value.get(s, 0)) for s in deck.symbols)
    raise UsageError(f"{where}: expected a card id or an inline card, found {value!r}")


def score(deck: Deck, table: Mapping[str, Any]) -> dict[str, Any]:
    """Matrimony for a real table: each player's dominant symbols, and who wins and why."""
    players = table.get("players")
    if not isinstance(players, list) or not players:
        raise UsageError("TABLE: expected 'players', a list of {crest, desires, hand, status, fiance}")
    crests = [p.get("crest") for p in players]
    results = []
    sums = []
    wants = []
    for i, p in enumerate(players):
        hand = [_vector(deck, c, f"players[{i}].hand[{j}]") for j, c in enumerate(p.get("hand") or [])]
        total = [sum(v[k] for v in hand) for k in range(len(deck.symbols))]
        sums.append(total)
        wants.append(_vector(deck, p.get("desires"), f"players[{i}].desires"))
    for i, p in enumerate(players):
        status = p.get("status", "available")
        dominant = {s: ("+" if t > 0 else "-") for s, t in zip(deck.symbols, sums[i]) if t}
        desired = {s: ("+" if w > 0 else "-") for s, w in zip(deck.symbols, wants[i]) if w}
        if status == ENGAGED:
            if p.get("fiance") not in crests:
                raise UsageError(f"players[{i}].fiance: expected the crest of another player, found {p.get('fiance')!r}")
            partner = crests.index(p["fiance"])
            got = matches(wants[i], sums[partner])
            won = got >= NEED
            why = f"{got} of the desired signs are dominant in {p['fiance']}'s hand (needs {NEED})"
        elif status == INDEPENDENT:
            best = max((matches(wants[i], sums[q]), crests[q]) for q in range(len(players)) if q != i)
            won = best[0] < NEED
            why = (
                f"no other hand has {NEED} of the desired signs (best: {best[1]} with {best[0]})"
                if won else f"{best[1]}'s hand has {best[0]} of the desired signs"
            )
        else:
            won, why = False, "still available at matrimony"
        results.append({
            "crest": p.get("crest"), "status": status, "dominant": dominant, "desires": desired,
            "wins": won, "why": why,
        })
    return {"players": results}


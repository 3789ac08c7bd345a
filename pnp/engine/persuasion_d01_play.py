"""Persuasion D01 for the simulator and the calculator."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pnp.engine.persuasion_d01 import D01State, Pack, pack_from_game, unique_met
from pnp.engine.persuasion_d01_agents import AGENTS
from pnp.errors import UsageError
from pnp.model import Game

__all__ = ["AGENTS", "prepare", "new_state", "player_counts", "score"]


def prepare(game: Game, options: Mapping[str, Any]) -> Pack:
    return pack_from_game(game, options)


def new_state(pack: Pack, players: int, rng: random.Random, options: Mapping[str, Any]) -> D01State:
    return D01State(pack, players, rng, int(options.get("day_cap", 80)), not options.get("trusted_agents", False))


def player_counts(pack: Pack) -> list[int]:
    return sorted(pack.deck_per_suit)


def score(pack: Pack, table: Mapping[str, Any]) -> dict[str, Any]:
    """Matrimony points for a real table: prim, proper, unique and hearts."""
    players = table.get("players")
    if not isinstance(players, list) or not players:
        raise UsageError("TABLE: expected 'players', a list of {crest, desires, front, hearts, status, fiance}")
    by_id = {letter.id: letter for letter in pack.letters}
    desires = {d.id: d for d in pack.desires}
    crests = [p.get("crest") for p in players]
    fronts = []
    for i, p in enumerate(players):
        front = []
        for j, card in enumerate(p.get("front") or []):
            if isinstance(card, str) and card in by_id:
                front.append(by_id[card].suit)
            elif isinstance(card, str) and card in pack.suits:
                front.append(card)
            else:
                raise UsageError(f"players[{i}].front[{j}]: expected a letter id or a suit ({', '.join(pack.suits)}), found {card!r}")
        fronts.append(front)
    out = []
    for i, p in enumerate(players):
        wish = desires.get(p.get("desires"))
        if wish is None:
            raise UsageError(f"players[{i}].desires: unknown desires card {p.get('desires')!r}")
        hearts = int(p.get("hearts", 0))
        got: dict[str, bool] = {}
        if p.get("status") == "engaged":
            if p.get("fiance") not in crests:
                raise UsageError(f"players[{i}].fiance: expected the crest of another player")
            partner = crests.index(p["fiance"])
            got["prim"] = sum(1 for s in fronts[partner] if s in wish.seeks) >= pack.prim
        got["proper"] = sum(1 for s in fronts[i] if s in wish.seeks) >= pack.proper
        got["unique"] = unique_met(wish.condition, fronts[i], hearts, pack.suits)
        points = pack.victory_points * sum(got.values()) + pack.heart_points * hearts
        out.append({"crest": p.get("crest"), "victories": got, "hearts": hearts, "points": points})
    best = max(r["points"] for r in out)
    for r in out:
        r["wins"] = r["points"] == best
        r["why"] = f"{r['points']} points ({', '.join(k for k, v in r['victories'].items() if v) or 'no victory'}, {r['hearts']} hearts)"
    return {"players": out}

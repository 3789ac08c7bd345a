""""I am thou, thou art I" as the simulator, the search agent and the scorer
use it: the glue between the loaded game data and :mod:`.state` (the rules),
:mod:`.endgame` (shared with `pnp score`) and :mod:`.redeal` (determinize)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pnp.engine.api import EngineError, rules_option, whole_option
from pnp.engine.tables import Names, TableReader, as_document
from pnp.loading.yamlsrc import Document
from pnp.model import Game

from . import endgame
from .agents import AGENTS
from .redeal import determinize
from .state import BETWEEN, CANDIDATE, JOINT, WINNER, ThouState
from .table import MOST, NPC_IDS, NPCS, SUIT_IDS, TOP_TWO, Prepared

__all__ = [
    "ACTIONS", "AGENTS", "CATEGORIES", "MEASURES", "NO_WINNER", "ROUNDS", "SWITCHES", "determinize", "new_state", "player_counts",
    "prepare", "score", "score_text", "usable",
]

CATEGORIES = (WINNER, JOINT, BETWEEN, CANDIDATE)
ROUNDS = "rounds"
ACTIONS = "choices"
NO_WINNER = "three or more tie for the Main Match: its Tokens of Life are void"
MEASURES = {
    "NPCs invalidated": "NPCs some player has points on that nobody wins (a tie the endgame leaves unbroken)",
    "three or more tie for first": "games whose Main Match is void: three or more players won the most NPCs",
    "joint main match": "games won jointly by two players (one Token of Life each)",
    "top-two endgame": "games played with the top two winning each NPC (the vote's share, in the vote variant)",
    "winning margin": "NPCs won by the first less the second",
    **{f"a {suit} player wins": f"games whose Main Match a {suit} player wins" for suit in SUIT_IDS},
}
DECISIONS = (
    "vote", "buy", "visit", "sword point", "fool", "magician-in", "magician-out", "high-priestess", "emperor", "hierophant",
    "lovers", "justice", "hanged-man", "temperance", "devil", "tower", "star", "moon", "sun", "judgement", "judgement-point",
    "world", "wands", "cups", "swords", "eliminate",
)
SWITCHES = True
"""The engine option ``without`` switches any of POWERS off (`pnp check`'s what-if play)."""
POWERS = (*NPC_IDS, *(f"{suit} {kind}" for suit in SUIT_IDS for kind in ("passive", "interaction")))
TABLE = Names("name", "result", ("played",))
WAYS = {"most": MOST, "top-two": TOP_TWO}




def _names(game: Game, options: Mapping[str, Any], key: str, ids: tuple[str, ...]) -> tuple[str, ...]:
    """The names of a component's cards, which must be exactly ``ids`` (the NPCs in number order)."""
    component = next((c for c in game.components if c.id == options.get(key)), None)
    if component is None:
        raise EngineError(f"engine.options.{key}: no component {options.get(key)!r}")
    found = {card.id: card for card in component.cards}
    if set(found) != set(ids):
        raise EngineError(f"engine.options.{key}: component {component.id!r} must hold exactly {', '.join(ids)}; it holds {', '.join(sorted(found))}")
    if key == "npcs":
        numbers = {card.id: card.fields.get("number") for card in component.cards}
        wrong = [i for n, i in enumerate(ids) if numbers[i] != n]
        if wrong:
            raise EngineError(f"engine.options.npcs: {wrong[0]} must have number {ids.index(wrong[0])}, found {numbers[wrong[0]]!r}")
    return tuple(str(found[i].fields.get("name", i)) for i in ids)


def prepare(game: Game, options: Mapping[str, Any]) -> Prepared:
    """The NPCs and suits (by their fixed ids) and the table's numbers."""
    way = options.get("endgame", "most")
    if way not in ("most", "top-two", "vote"):
        raise EngineError(f"engine.options.endgame: expected most, top-two or vote, found {way!r}")
    fool = options.get("fool", 1)
    if fool not in (1, 2):
        raise EngineError(f"engine.options.fool: expected 1 or 2 (the Fool's option), found {fool!r}")
    without = options.get("without", [])
    if not isinstance(without, (list, tuple)) or not set(without) <= set(POWERS):
        raise EngineError(f"engine.options.without: expected a list of powers among {', '.join(POWERS)}, found {without!r}")
    rules = game.rules
    return Prepared(
        _names(game, options, "npcs", NPC_IDS), _names(game, options, "suits", SUIT_IDS), game.players,
        whole_option(rules_option(game.rules, options, "rounds", 9), "rounds", 1), whole_option(rules_option(game.rules, options, "visits", 3), "visits", 1),
        whole_option(rules.get("coins_extra_cost", 6), "coins_extra_cost", 1), whole_option(rules.get("coins_extra_max", 6), "coins_extra_max"),
        whole_option(rules.get("garnet_thirds", 3), "garnet_thirds", 1), whole_option(rules.get("tol_main_match", 2), "tol_main_match"),
        whole_option(rules_option(game.rules, options, "garnets", 0), "garnets"), way, fool, bool(options.get("reveal", False)), frozenset(without),
    )


def player_counts(prep: Prepared) -> list[int]:
    return list(range(prep.players[0], prep.players[1] + 1))


def new_state(prep: Prepared, players: int, rng: random.Random, options: Mapping[str, Any]) -> ThouState:
    return ThouState(prep, players, rng, not options.get("trusted_agents", False))


def usable(prep: Prepared) -> dict[str, tuple[str, ...]]:
    """Every kind of choice and every power the game can use (`pnp check`)."""
    return {"actions": tuple(d for d in DECISIONS if d != "vote" or prep.endgame == "vote"), "powers": POWERS}


# -- a real table -----------------------------------------------------------------


def score(prep: Prepared, table: Document | Mapping[str, Any]) -> dict[str, Any]:
    """A final ledger: ``endgame: most | top-two`` (default: the variant's;
    the vote variant's table must say); ``players: [{name, points:
    {npc: n}, garnets, thirds}]``; ``eliminates: NAME`` when the fewest NPCs
    are tied (the Main Match winner's pick, else the moderator's draw)."""
    doc = as_document(table)
    reader = TableReader(doc, TABLE, None, ("name", "points", "garnets", "thirds"), ("name", "points"), ("endgame", "eliminates"))
    data = doc.data if isinstance(doc.data, dict) else {}
    way: Any = data.get("endgame", prep.endgame if prep.endgame in WAYS else None)
    if way not in WAYS:
        reader.fail(("endgame",) if "endgame" in data else (), f"endgame: expected most or top-two (the Group Decision's way), found {way!r}")
    points, thirds = [], []
    for p in reader.players:
        row = [0] * NPCS
        given = p.data.get("points")
        if not isinstance(given, dict):
            reader.fail(("players", p.index, "points"), f"expected {{npc: points}} with NPCs {', '.join(NPC_IDS)}, found {given!r}")
            given = {}
        for npc, value in given.items():
            if npc not in NPC_IDS:
                reader.fail(("players", p.index, "points", npc), f"unknown NPC {npc!r}; expected one of {', '.join(NPC_IDS)}")
            elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                reader.fail(("players", p.index, "points", npc), f"expected a whole number of points of at least 0, found {value!r}")
            else:
                row[NPC_IDS.index(npc)] = value
        points.append(row)
        thirds.append(reader.count(p, "garnets", 0, 10_000) * prep.thirds + reader.count(p, "thirds", 0, prep.thirds - 1))
    low, high = prep.players
    if not low <= len(reader.players) <= high:
        reader.fail(("players",), f"{len(reader.players)} players; the game is for {low} to {high}")
    reader.done()
    res = endgame.results(points, thirds, WAYS[way], NPCS, prep.tol, prep.thirds)
    names = [p.name for p in reader.players]
    candidate = res.fewest[0] if len(res.fewest) == 1 else None
    if candidate is None:
        pick = data.get("eliminates")
        if pick not in [names[s] for s in res.fewest]:
            chooser = f"{names[res.main[0]]} (the Main Match winner)" if len(res.main) == 1 else "the moderator (a draw)"
            reader.fail(("eliminates",) if "eliminates" in data else (), f"{', '.join(names[s] for s in res.fewest)} tie for fewest NPCs: "
                        f"name the Elimination Candidate {chooser} chose: eliminates: NAME")
            reader.done()
        candidate = names.index(str(pick))
    return _result(names, points, res, candidate, way)


def _result(names: list[str], points: list[list[int]], res: endgame.Results, candidate: int, way: str) -> dict[str, Any]:
    npcs = []
    for x, won in enumerate(res.npc_winners):
        top = max(row[x] for row in points)
        tied = [names[s] for s, row in enumerate(points) if row[x] == top] if top and not won else []
        npcs.append({"npc": NPC_IDS[x], "winners": [names[s] for s in won], "tied": tied, "points": top})
    players = [
        {"name": n, "npcs": res.won[s], "tokens": res.tokens[s], "garnets": res.garnets[s], "wins": s in res.main, "candidate": s == candidate}
        for s, n in enumerate(names)
    ]
    return {"endgame": way, "npcs": npcs, "players": players, "void": len(res.tied_first) >= 3}


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def score_text(result: Mapping[str, Any]) -> list[str]:
    lines = [f"endgame: {'the top two win each NPC' if result['endgame'] == 'top-two' else 'the most points win each NPC'}"]
    for npc in result["npcs"]:
        if npc["winners"]:
            lines.append(f"{npc['npc']}: {' and '.join(npc['winners'])}")
        elif npc["tied"]:
            lines.append(f"{npc['npc']}: {', '.join(npc['tied'])} tie with {npc['points']}: nobody wins it")
    if result["void"]:
        lines.append("three or more players tie for the most NPCs: the Tokens of Life are void")
    for p in result["players"]:
        what = [_count(p["npcs"], "NPC"), _count(p["garnets"], "Garnet")]
        if p["tokens"]:
            what.append(_count(p["tokens"], "Token") + " of Life")
        tail = ": MAIN MATCH" if p["wins"] else ""
        tail += ": ELIMINATION CANDIDATE" if p["candidate"] else ""
        lines.append(f"{p['name']}: {', '.join(what)}{tail}")
    return lines

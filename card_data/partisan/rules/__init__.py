"""Partisan as the simulator and the scorer use it: the glue between the loaded
game data and :mod:`.state` (the rules) and :mod:`.scoring` (the four steps)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pnp.engine.api import Agent, EngineError, rules_option, whole_option
from pnp.engine.tables import Names, TableReader, as_document
from pnp.loading.yamlsrc import Document, KeyPath
from pnp.model import Game

from . import scoring
from .agents import Greedy, Heuristic, random_agent
from .lookahead import Lookahead
from .state import BEHIND, FIRST, MOVES, PartisanState, determinize
from .table import Card, Pack, View

__all__ = [
    "ACTIONS", "AGENTS", "CATEGORIES", "FIRST_SEAT", "MEASURES", "NO_WINNER", "ROUNDS", "determinize", "new_state", "player_counts", "prepare",
    "score", "score_text", "usable",
]

AGENTS: dict[str, Callable[[], Agent[View]]] = {
    "heuristic": lambda: Greedy(contest=1.0, endgame=1.0),
    "partisan-first": lambda: Heuristic(),
    "random": lambda: random_agent,
    "partisan-only": lambda: Heuristic(always_party=True),
    "topics-only": lambda: Heuristic(never_party=True),
    "lookahead": lambda: Lookahead(),
}
"""Agent factories by name (:mod:`.agents`, :mod:`.lookahead`): named here,
above both, as :class:`.Lookahead` plays its rollouts with :class:`.Greedy`."""

CATEGORIES = (FIRST, BEHIND)
ROUNDS = "rounds"
ACTIONS = "moves"
FIRST_SEAT = "starting player"
NO_WINNER = "every score 0"
MEASURES = {
    "groups tied": "interest groups whose most partisans are tied between players",
    "groups won by nobody": "interest groups nobody wins (a tie the rules leave unbroken, or no partisans)",
    "ties settled by a leader": "group ties broken by the leader's holder (Leaders variant)",
    "topics split": "topics tied between groups won by different players, their chips shared out",
    "chips lost in splits": "chips discarded because a split did not come out even",
    "topics unclaimed": "topics with no chip of any group a player won",
    "tied for the win": "games whose highest score is shared",
    "score spread": "highest score less lowest",
    "winning margin": "highest score less the second highest",
    "turns": "turns played in all",
}
"""What each measure an outcome reports means (``tied: SUIT`` per suit besides)."""
TABLE = Names("name", "result", ("played",))




def prepare(game: Game, options: Mapping[str, Any]) -> Pack:
    """The draw deck (every card whose kind is in ``draw_kinds``, ``decks``
    times over), the chips per suit, and the table's other numbers."""
    deck = next((c for c in game.components if c.id == options.get("deck")), None)
    if deck is None:
        raise EngineError(f"engine.options.deck: no component {options.get('deck')!r}")
    entries = game.sets.get(str(options.get("suits")))
    if not entries:
        raise EngineError(f"engine.options.suits: no set {options.get('suits')!r}")
    suits = tuple(e.id for e in entries)
    kinds = rules_option(game.rules, options, "draw_kinds")
    if not isinstance(kinds, (list, tuple)) or not kinds:
        raise EngineError(f"engine.options.draw_kinds: expected a list of card kinds (or a rules key holding one), found {kinds!r}")
    kind_field = str(options.get("kind", "kind"))
    decks = whole_option(rules_option(game.rules, options, "decks", 1), "decks", 1)
    cards: list[Card] = []
    for _ in range(decks):
        for card in deck.cards:
            if card.fields.get(kind_field) in kinds:
                for _copy in range(card.copies):
                    listed = card.fields.get("suits") or ()
                    held = listed if isinstance(listed, (list, tuple)) else ()  # a list of suit ids (declared)
                    cards.append(Card(len(cards), card.id, tuple(suits.index(s) for s in held)))
    pack = Pack(
        suits, tuple(cards), whole_option(rules_option(game.rules, options, "chips"), "chips", 1), whole_option(rules_option(game.rules, options, "topics", 3), "topics", 1),
        whole_option(rules_option(game.rules, options, "hand", 2), "hand", 1), bool(options.get("leaders", False)), game.players,
        whole_option(options.get("turn_cap", 400), "turn_cap", 1),
    )
    need = pack.topics + pack.hand * game.players[1] + 1
    if len(cards) < need:
        raise EngineError(f"{game.players[1]} players need {need} cards in the draw deck; it has {len(cards)}")
    return pack


def player_counts(pack: Pack) -> list[int]:
    return list(range(pack.players[0], pack.players[1] + 1))


def new_state(pack: Pack, players: int, rng: random.Random, options: Mapping[str, Any]) -> PartisanState:
    return PartisanState(pack, players, rng, not options.get("trusted_agents", False))


def usable(pack: Pack) -> dict[str, tuple[str, ...]]:
    """Every kind of move a game can count (``Outcome.actions``), in every
    variant; the Decktet's cards have no powers in Partisan. (A leader's
    holder settling a tie is counted by the measure "ties settled by a leader".)"""
    return {"actions": MOVES, "powers": ()}


# -- a real table -----------------------------------------------------------------


def _chips(reader: TableReader, pack: Pack, value: Any, path: KeyPath) -> list[int]:
    """``{suit: count}`` as a list by suit."""
    out = [0] * len(pack.suits)
    if not isinstance(value, dict):
        reader.fail(path, f"expected {{suit: count}} with suits {', '.join(pack.suits)}, found {value!r}")
        return out
    for suit, count in value.items():
        if suit not in pack.suits:
            reader.fail((*path, suit), f"unknown suit {suit!r}; expected one of {', '.join(pack.suits)}")
        elif not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= pack.chips:
            reader.fail((*path, suit), f"expected a whole number from 0 to {pack.chips}, found {count!r}")
        else:
            out[pack.suits.index(suit)] = count
    return out


def score(pack: Pack, table: Document | Mapping[str, Any]) -> dict[str, Any]:
    """The four scoring steps for a real end-of-game table (docs/score-tables.md)."""
    doc = as_document(table)
    reader = TableReader(doc, TABLE, None, ("name", "partisans", "leaders"), ("name", "partisans"), ("topics", "settle"))
    partisans = [_chips(reader, pack, p.data.get("partisans"), ("players", p.index, "partisans")) for p in reader.players]
    names = [p.name for p in reader.players]
    low, high = pack.players
    if not low <= len(names) <= high:
        reader.fail(("players",), f"{len(names)} players; the game is for {low} to {high}")
    holders: list[int | None] = [None] * len(pack.suits)
    for seat, p in enumerate(reader.players):
        for path, suit in reader.list_of(p, "leaders"):
            if not pack.leaders:
                reader.fail(path, "leaders count only in the Leaders variant (pnp score --variant leaders)")
            elif suit not in pack.suits:
                reader.fail(path, f"unknown suit {suit!r}; expected one of {', '.join(pack.suits)}")
            elif holders[pack.suits.index(suit)] is not None:
                reader.fail(path, f"the {suit} leader is already held by {names[holders[pack.suits.index(suit)] or 0]}")
            elif partisans[seat][pack.suits.index(suit)] < 1:
                reader.fail(path, f"{p.name} holds the {suit} leader but no {suit} partisans; the leader counts among them")
            else:
                holders[pack.suits.index(suit)] = seat
    data = doc.data if isinstance(doc.data, dict) else {}
    topics_in = data.get("topics", [])
    topics: list[list[int]] = []
    labels: list[str] = []
    if not isinstance(topics_in, list):
        reader.fail(("topics",), f"expected a list of topics, found {topics_in!r}")
        topics_in = []
    for i, t in enumerate(topics_in):
        if not isinstance(t, dict) or not set(t) <= {"card", "chips"} or "chips" not in t:
            reader.fail(("topics", i), f"expected {{card: CARD, chips: {{suit: count}}}}, found {t!r}")
            continue
        topics.append(_chips(reader, pack, t["chips"], ("topics", i, "chips")))
        labels.append(str(t.get("card", f"topic {i + 1}")))
    for s, suit in enumerate(pack.suits):
        used = sum(p[s] for p in partisans) + sum(t[s] for t in topics)
        if used > pack.chips:
            reader.fail(("players",), f"{used} {suit} chips on the table; the game has {pack.chips}")
    settle = data.get("settle", {})
    if not isinstance(settle, dict) or not all(k in pack.suits and v in names for k, v in settle.items()):
        reader.fail(("settle",), f"expected {{suit: name}}: who each leader's holder picked in a tie; found {settle!r}")
        settle = {}
    reader.done()

    def picked(suit: int, holder: int, tied: tuple[int, ...]) -> int:
        name = settle.get(pack.suits[suit])
        if not isinstance(name, str) or names.index(name) not in tied:
            among = ", ".join(names[t] for t in tied)
            reader.fail(("settle",), f"{names[holder]} holds the {pack.suits[suit]} leader and must pick among {among}: settle: {{{pack.suits[suit]}: NAME}}")
            reader.done()
            raise AssertionError("unreachable: done() raised")
        return names.index(name)

    scored = scoring.score(partisans, topics, holders if pack.leaders else None, picked)
    return _result(pack, names, labels, scored)


def _result(pack: Pack, names: list[str], labels: list[str], scored: scoring.Scored) -> dict[str, Any]:
    groups = [
        {"suit": pack.suits[g.suit], "winner": None if g.winner is None else names[g.winner], "how": g.how, "tied": [names[t] for t in g.tied]}
        for g in scored.groups
    ]
    topics = [
        {
            "topic": labels[t.index], "owner": None if t.owner is None else names[t.owner],
            "shares": {names[s]: c for s, c in enumerate(t.shares) if c}, "split": [pack.suits[s] for s in t.split], "discarded": t.discarded,
        }
        for t in scored.topics
    ]
    players = [{"name": n, "score": s, "wins": w} for n, s, w in zip(names, scored.scores, scored.winners)]
    return {"groups": groups, "topics": topics, "players": players}


def score_text(result: dict[str, Any]) -> list[str]:
    lines = []
    for g in result["groups"]:
        if g["how"] == "none":
            lines.append(f"{g['suit']}: no partisans, nobody wins the group")
        elif g["how"] == "tie":
            lines.append(f"{g['suit']}: {', '.join(g['tied'])} tie for most partisans, nobody wins the group")
        elif g["how"] == "majority":
            lines.append(f"{g['suit']}: won by {g['winner']}")
        else:
            lines.append(f"{g['suit']}: {', '.join(g['tied'])} tie; {g['winner']} wins it by the leader")
    for t in result["topics"]:
        if t["split"]:
            shares = ", ".join(f"{n} {c}" for n, c in t["shares"].items())
            lines.append(f"{t['topic']}: split between {', '.join(t['split'])}: {shares}; {t['discarded']} discarded")
        elif t["owner"] is None:
            lines.append(f"{t['topic']}: no won group on it; its chips are discarded")
        else:
            lines.append(f"{t['topic']}: {t['owner']} takes {t['shares'][t['owner']]}")
    for p in result["players"]:
        lines.append(f"{p['name']}: {p['score']} points{': WINS' if p['wins'] else ''}")
    return lines

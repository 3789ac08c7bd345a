"""High Card: the engine of the example game (docs/engine.md), complete in one module.

Rules: shuffle the deck and deal each player ``hand`` cards. Each round every
player picks a card from their hand in secret; all are revealed together and
the single highest card takes the round (a tie for highest takes nothing).
After as many rounds as cards in hand, the player with the most rounds wins;
players tied for most all win.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from pnp.engine.api import Agent, Decision, EngineError, IllegalMove, Outcome, whole_option
from pnp.engine.tables import Names, TableReader, as_document
from pnp.loading.yamlsrc import Document
from pnp.model import Game

CATEGORIES = ("first", "behind")
"""A seat ends with the most rounds (first) or not (behind)."""
ROUNDS = "rounds"
ACTIONS = "plays"
FIRST_SEAT = "first seat"
TABLE = Names("name", "result", ("behind", "first"))


@dataclass(frozen=True)
class Deck:
    ids: tuple[str, ...]
    """One entry per printed card: a card with 2 copies appears twice."""
    ranks: tuple[int, ...]
    hand: int
    players: tuple[int, int]


@dataclass(frozen=True)
class Observation:
    """What one seat knows: its own hand, and every card revealed so far."""

    seat: int
    players: int
    hand: tuple[int, ...]
    """Card indices into the deck."""
    revealed: tuple[tuple[int, ...], ...]
    """Per finished round, every seat's card."""
    ranks: tuple[int, ...]


def prepare(game: Game, options: Mapping[str, object]) -> Deck:
    deck = next((c for c in game.components if c.id == options["deck"]), None)
    if deck is None:
        raise EngineError(f"engine.options.deck: no component {options['deck']!r}")
    rank = options["rank"]
    if not isinstance(rank, str):
        raise EngineError(f"engine.options.rank: expected the name of the cards' rank field, found {rank!r}")
    ids = tuple(card.id for card in deck.cards for _ in range(card.copies))
    ranks = tuple(card.whole(rank) for card in deck.cards for _ in range(card.copies))
    hand = whole_option(options.get("hand", 5), "hand", 1)
    if hand * game.players[1] > len(ids):
        raise EngineError(f"{game.players[1]} players need {hand * game.players[1]} cards; the deck has {len(ids)}")
    return Deck(ids, ranks, hand, game.players)


def player_counts(deck: Deck) -> list[int]:
    return list(range(deck.players[0], deck.players[1] + 1))


class HighCardState:
    """One game: a simultaneous pick per round, asked seat by seat."""

    def __init__(self, deck: Deck, players: int, rng: random.Random, options: Mapping[str, object]):
        order = list(range(len(deck.ids)))
        rng.shuffle(order)
        self.deck, self.n = deck, players
        self.hands = [sorted(order[s * deck.hand : (s + 1) * deck.hand]) for s in range(players)]
        self.picked: list[int] = []
        self.revealed: list[tuple[int, ...]] = []
        self.won = [0] * players
        self.check = not options.get("trusted_agents", False)

    def decision(self) -> Decision | None:
        if self.is_terminal():
            return None
        seat = len(self.picked)
        return Decision(seat, "play", tuple(self.hands[seat]))

    def apply(self, choice: object) -> None:
        seat = len(self.picked)
        if not isinstance(choice, int) or self.check and choice not in self.hands[seat]:
            raise IllegalMove(f"seat {seat}: {choice!r} is not a card in hand")
        self.hands[seat].remove(choice)
        self.picked.append(choice)
        if len(self.picked) == self.n:
            self.revealed.append(tuple(self.picked))
            self.score_round(self.revealed[-1])
            self.picked = []

    def score_round(self, picked: tuple[int, ...]) -> None:
        """The single highest card of a round takes it."""
        ranks = [self.deck.ranks[c] for c in picked]
        top = max(ranks)
        if ranks.count(top) == 1:
            self.won[ranks.index(top)] += 1

    def observation(self, seat: int) -> Observation:
        return Observation(seat, self.n, tuple(self.hands[seat]), tuple(self.revealed), self.deck.ranks)

    def is_terminal(self) -> bool:
        return len(self.revealed) == self.deck.hand

    def outcome(self) -> Outcome:
        best = max(self.won)
        winners = tuple(w == best for w in self.won)
        ids = self.deck.ids
        return Outcome(
            winners, tuple("first" if w else "behind" for w in winners), len(self.revealed), False,
            tuple(tuple(ids[r[s]] for r in self.revealed) for s in range(self.n)), tuple(float(w) for w in self.won),
            {"play": self.n * len(self.revealed)},
        )


def new_state(deck: Deck, players: int, rng: random.Random, options: Mapping[str, object]) -> HighCardState:
    return HighCardState(deck, players, rng, options)


def determinize(deck: Deck, obs: Observation, decision: Decision, rng: random.Random) -> HighCardState:
    """A whole game consistent with what ``obs``'s seat has seen, at its
    ``decision`` (for pnp's search agent): the cards it has not seen (the
    other hands, this round's picks of the seats before it) dealt afresh."""
    state = HighCardState(deck, 0, rng, {})
    state.n = players = obs.players
    seen = {card for played in obs.revealed for card in played} | set(obs.hand)
    unseen = [card for card in range(len(deck.ids)) if card not in seen]
    rng.shuffle(unseen)
    left = deck.hand - len(obs.revealed)
    state.picked = [unseen.pop() for _ in range(obs.seat)]
    state.hands = [list(obs.hand) if s == obs.seat else sorted(unseen.pop() for _ in range(left - (s < obs.seat))) for s in range(players)]
    state.revealed = list(obs.revealed)
    state.won = [0] * players
    for played in obs.revealed:
        state.score_round(played)
    return state


def _random() -> Agent[Observation]:
    def agent(obs: Observation, decision: Decision, rng: random.Random) -> object:
        return rng.choice(list(decision.options))

    return agent


def _highest() -> Agent[Observation]:
    """Plays its highest card: greedy, and beatable."""

    def agent(obs: Observation, decision: Decision, rng: random.Random) -> object:
        return max(decision.options, key=lambda card: obs.ranks[card])

    return agent


AGENTS: dict[str, Callable[[], Agent[Observation]]] = {"heuristic": _highest, "random": _random}


class Seat(TypedDict):
    name: str
    rounds: int
    wins: bool


class Scored(TypedDict):
    """A scored table: each player's rounds, and whether they win."""

    players: list[Seat]


def score(deck: Deck, table: Document | Mapping[str, object]) -> Scored:
    """A played table: ``players: [{name, rounds}]``; the most rounds wins."""
    reader = TableReader(as_document(table), TABLE, None, ("name", "rounds"), ("name", "rounds"))
    counts = [reader.count(p, "rounds", 0, deck.hand) for p in reader.players]
    reader.done()
    best = max(counts)
    return {"players": [{"name": p.name, "rounds": c, "wins": c == best} for p, c in zip(reader.players, counts)]}


def score_text(result: Scored) -> Sequence[str]:
    return [f"{p['name']}: {p['rounds']} rounds{': WINS' if p['wins'] else ''}" for p in result["players"]]

"""Persuasion B04: the rules, a matrimony calculator, and what each seat sees.

Readings chosen where the rules are ambiguous (also in the game's RULES-NOTES.md):

- Intentions are asked seat by seat, each from the seat's own observation, and
  revealed together (simultaneous play).
- Check availability happens at the start of every round after the first:
  one or no available player ends the game; exactly two make it the last round.
- Correspondence: proposals first, recipients in seat order from the host
  (seat 0) - the stalemate rule. A recipient may accept one proposal from a
  still-available proposer; two players who proposed to each other exchange
  their two proposal cards. A player engaged this way has its own pending
  proposal returned. Invitations next, recipients in seat order; an engaged or
  independent recipient, or one whose sender has become engaged, rejects.
- A refused invitation is returned unseen; a proposal is always peeked.
- Reflection: an available player whose own intention came back refused and
  whose letterbox received no other player's card may draw one card (if the
  deck has any) and keep it in place of one of theirs; the old card is
  discarded face down.
- A round cap (``round_cap``, default 60) ends a game that stalls; it is
  reported, and available players lose as at any matrimony.
- Engaged and independent players take no further part until matrimony.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pnp.engine.api import Decision, Outcome, QueuedState

AVAILABLE, ENGAGED, INDEPENDENT = "available", "engaged", "independent"
NEED = 2
"""Matching dominant symbols a desires card needs."""


@dataclass(frozen=True)
class Deck:
    """The trait deck as the engine uses it: ids, and each card's signs as a vector."""

    ids: tuple[str, ...]
    symbols: tuple[str, ...]
    vectors: tuple[tuple[int, ...], ...]
    hand_size: Mapping[int, int]

    @classmethod
    def from_cards(cls, cards: Sequence[tuple[str, Mapping[str, int]]], symbols: Sequence[str], hand_size: Mapping[int, int]) -> Deck:
        vectors = tuple(tuple(int(signs.get(s, 0)) for s in symbols) for _, signs in cards)
        return cls(tuple(card_id for card_id, _ in cards), tuple(symbols), vectors, dict(hand_size))


def totals(deck: Deck, hand: Sequence[int]) -> list[int]:
    """Each symbol's sum of signs over ``hand``."""
    if not hand:
        return [0] * len(deck.symbols)
    vectors = deck.vectors
    return [sum(column) for column in zip(*[vectors[card] for card in hand])]


def matches(desires: Sequence[int], hand_totals: Sequence[int]) -> int:
    """How many of the desires card's signed symbols are dominant, with that sign."""
    return sum(1 for want, have in zip(desires, hand_totals) if want and want * have > 0)


def winners(deck: Deck, desires: Sequence[int], hands: Sequence[Sequence[int]], status: Sequence[str], fiance: Sequence[int]) -> list[bool]:
    """Matrimony: who wins, by the B04 rules."""
    n = len(hands)
    sums = [totals(deck, hand) for hand in hands]
    wants = [deck.vectors[d] for d in desires]
    out = []
    for seat in range(n):
        if status[seat] == ENGAGED:
            out.append(matches(wants[seat], sums[fiance[seat]]) >= NEED)
        elif status[seat] == INDEPENDENT:
            out.append(all(matches(wants[seat], sums[p]) < NEED for p in range(n) if p != seat))
        else:
            out.append(False)
    return out


class Intentions(Sequence[tuple[Any, ...]]):
    """Every legal intention, without building them all: ("independent",), then
    ("invite", target, card) and ("propose", target, card) for each pair."""

    KINDS = ("invite", "propose")
    __slots__ = ("seat", "available", "cards", "_targets")

    def __init__(self, seat: int, available: tuple[int, ...], cards: list[int]):
        self.seat, self.available, self.cards = seat, available, cards
        self._targets: tuple[int, ...] | None = None

    @property
    def targets(self) -> tuple[int, ...]:
        if self._targets is None:
            self._targets = tuple(p for p in self.available if p != self.seat)
        return self._targets

    @property
    def _per_kind(self) -> int:
        return (len(self.available) - 1) * len(self.cards)

    def __len__(self) -> int:
        return 1 + 2 * self._per_kind

    def __getitem__(self, index: int) -> tuple[Any, ...]:  # type: ignore[override]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index == 0:
            return ("independent",)
        kind, rest = divmod(index - 1, self._per_kind)
        target, card = divmod(rest, len(self.cards))
        return (self.KINDS[kind], self.targets[target], self.cards[card])

    def __contains__(self, choice: object) -> bool:
        if choice == ("independent",):
            return True
        return (
            isinstance(choice, tuple) and len(choice) == 3 and choice[0] in self.KINDS
            and choice[1] != self.seat and choice[1] in self.available and choice[2] in self.cards
        )


class Answers(Sequence[Any]):
    """The answers to an invitation: "refuse", or ("accept", card) with the
    reply card from the recipient's hand, without building them all."""

    __slots__ = ("hand",)

    def __init__(self, hand: list[int]):
        self.hand = hand

    def __len__(self) -> int:
        return 1 + len(self.hand)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return "refuse" if index == 0 else ("accept", self.hand[index - 1])

    def __contains__(self, choice: object) -> bool:
        return choice == "refuse" or (
            isinstance(choice, tuple) and len(choice) == 2 and choice[0] == "accept" and choice[1] in self.hand
        )


class Observation:
    """What one seat knows: its own cards, what it has seen, and public facts.

    It is a live view: the engine keeps one per seat and it follows the game,
    but it never exposes another seat's hand or desires.
    """

    __slots__ = ("seat", "hand", "desires", "seen", "status", "hand_sizes", "round", "last_round", "deck", "notes")

    def __init__(self, seat: int, hand: list[int], desires: int, seen: list[set[int]], status: list[str],
                 hand_sizes: list[int], deck: Deck):
        self.seat, self.hand, self.desires, self.seen, self.status = seat, hand, desires, seen, status
        self.hand_sizes, self.deck = hand_sizes, deck
        self.round = 0
        self.last_round = False
        self.notes: dict[Any, Any] = {}
        """The seat's agent's own notebook for this game (memory between its decisions)."""


class B04State(QueuedState):
    """One game of Persuasion B04 in progress."""

    def __init__(self, deck: Deck, players: int, rng: random.Random, round_cap: int = 60, check_moves: bool = True):
        if players not in deck.hand_size:
            raise ValueError(f"the player table has no entry for {players} players")
        size = deck.hand_size[players]
        order = list(range(len(deck.ids)))
        rng.shuffle(order)  # chance: the deal
        self.deck_info = deck
        self.rng = rng
        self.check_moves = check_moves
        """False only for the simulator's own agents, whose moves the playout tests prove legal."""
        self.n = players
        self.round_cap = round_cap
        self.hands = [order[i * size : (i + 1) * size] for i in range(players)]
        self.desires = [order[players * size + i] for i in range(players)]
        self.draw_pile = order[players * size + players :]
        self.discards: list[int] = []
        self.status = [AVAILABLE] * players
        self.fiance = [-1] * players
        self.seen: list[list[set[int]]] = [[set() for _ in range(players)] for _ in range(players)]
        for seat in range(players):
            self.seen[seat][seat] = set(self.hands[seat])
        self.round = 0
        self.last_round = False
        self.over = False
        self.capped = False
        self.actions = {"invite": 0, "propose": 0, "independent": 0}
        self._queue: list[Decision] = []
        self._pending: dict[str, Any] = {}
        self._stage: Callable[[], None] = self._end_round
        self._handlers = {
            "intention": self._on_intention, "proposal": self._on_proposal, "give": self._on_give,
            "invitation": self._on_invitation, "reflect": self._on_reflect,
        }
        sizes = [len(h) for h in self.hands]  # trades are one for one: sizes never change
        self._views = [
            Observation(seat, self.hands[seat], self.desires[seat], self.seen[seat], self.status, sizes, deck)
            for seat in range(players)
        ]
        self._start_round()

    # -- the public interface (decision, apply, observation: QueuedState) -------

    def outcome(self) -> Outcome:
        won = winners(self.deck_info, self.desires, self.hands, self.status, self.fiance)
        ids = self.deck_info.ids
        return Outcome(
            tuple(won), tuple(self.status), self.round, self.capped,
            tuple(tuple(map(ids.__getitem__, hand)) for hand in self.hands), (), dict(self.actions),
        )

    def all_cards(self) -> list[int]:
        """Every card somewhere: hands, desires, draw pile, discards (for invariant checks)."""
        return [c for hand in self.hands for c in hand] + list(self.desires) + list(self.draw_pile) + list(self.discards)

    # -- the round --------------------------------------------------------------

    def _available(self) -> list[int]:
        return [s for s in range(self.n) if self.status[s] == AVAILABLE]

    def _start_round(self) -> None:
        self.round += 1
        available = self._available()
        if self.round > 1:
            if len(available) <= 1:
                self.over = True
                return
            if len(available) == 2:
                self.last_round = True
        for view in self._views:
            view.round, view.last_round = self.round, self.last_round
        if self.round > self.round_cap:
            self.over, self.capped = True, True
            return
        self._pending = {"intentions": {}}
        self._stage = self._mail
        ready = tuple(available)
        hands = self.hands
        self._queue.extend([Decision(seat, "intention", Intentions(seat, ready, hands[seat])) for seat in available])

    def _on_intention(self, decision: Decision, choice: tuple[Any, ...]) -> None:
        self._pending["intentions"][decision.seat] = choice
        self.actions[choice[0]] += 1

    def _end_round(self) -> None:
        if self.last_round:
            self.over = True
        else:
            self._start_round()

    def _mail(self) -> None:
        intentions = self._pending["intentions"]
        for seat, choice in intentions.items():
            if choice[0] == "independent":
                self.status[seat] = INDEPENDENT
        self._stage = self._next_proposal
        self._pending.update(
            proposals=sorted((c[1], s, c[2]) for s, c in intentions.items() if c[0] == "propose"),
            invitations=sorted((c[1], s, c[2]) for s, c in intentions.items() if c[0] == "invite"),
            touched={c[1] for c in intentions.values() if c[0] in ("invite", "propose")},
            proposal_queue=sorted({c[1] for c in intentions.values() if c[0] == "propose"}),
            refused=set(),
            received=set(),
        )

    def _next_proposal(self) -> None:
        p = self._pending
        queue = p["proposal_queue"]
        while queue:
            r = queue.pop(0)
            offers = [(s, c) for (t, s, c) in p["proposals"] if t == r]
            for s, c in offers:
                self.seen[r][s].add(c)  # a proposal is always peeked
            live = [(s, c) for s, c in offers if self.status[s] == AVAILABLE and c in self.hands[s]]
            if self.status[r] != AVAILABLE or not live:
                p["refused"].update(s for s, _ in offers)
                continue
            options = tuple(["refuse"] + [("accept", s) for s, _ in live])
            self._queue.append(Decision(r, "proposal", options, {"offers": live}))
            return
        self._stage = self._next_invitation

    def _on_proposal(self, decision: Decision, choice: Any) -> None:
        p = self._pending
        r = decision.seat
        offers = decision.context["offers"]
        if choice == "refuse":
            p["refused"].update(s for s, _ in offers)
            return
        s = choice[1]
        card = next(c for t, c in offers if t == s)
        p["refused"].update(t for t, _ in offers if t != s)
        mine = [c2 for (t, s2, c2) in p["proposals"] if s2 == r and t == s]
        if mine and mine[0] in self.hands[r]:
            self._trade(r, s, mine[0], card)  # mutual proposals: the two ring cards change hands
        else:
            options = tuple(c for c in self.hands[r])
            self._queue.insert(0, Decision(r, "give", options, {"to": s, "card": card}))
            p["trade"] = (r, s, card)
            return
        self._engage(r, s)

    def _on_give(self, decision: Decision, choice: int) -> None:
        r, s, card = self._pending.pop("trade")
        self._trade(r, s, choice, card)
        self._engage(r, s)

    def _trade(self, r: int, s: int, from_r: int, from_s: int) -> None:
        self.hands[r].remove(from_r)
        self.hands[s].remove(from_s)
        self.hands[r].append(from_s)
        self.hands[s].append(from_r)
        for a, b, c in ((r, s, from_r), (s, r, from_s)):
            self.seen[a][b].add(c)
            self.seen[b][b].add(c)
            self.seen[a][a].discard(c)
        self.seen[r][r] = set(self.hands[r])
        self.seen[s][s] = set(self.hands[s])

    def _engage(self, r: int, s: int) -> None:
        self.status[r] = self.status[s] = ENGAGED
        self.fiance[r], self.fiance[s] = s, r
        self._pending["received"].update((r, s))

    def _next_invitation(self) -> None:
        p = self._pending
        while p["invitations"]:
            t, s, c = p["invitations"].pop(0)
            if self.status[t] != AVAILABLE or self.status[s] != AVAILABLE or c not in self.hands[s]:
                p["refused"].add(s)
                continue
            self._queue.append(Decision(t, "invitation", Answers(self.hands[t]), {"from": s}))
            p["current"] = (t, s, c)
            return
        self._stage = self._next_reflection
        p["reflecting"] = [
            s for s in range(self.n)
            if self.status[s] == AVAILABLE and s in p["refused"] and s not in p["touched"] and s not in p["received"]
        ]

    def _on_invitation(self, decision: Decision, choice: Any) -> None:
        t, s, c = self._pending.pop("current")
        if choice == "refuse":
            self._pending["refused"].add(s)
            return
        # Accepting is answering: the reply card goes to the sender, the
        # invitation card into the recipient's hand to read.
        self.seen[t][s].add(c)
        self.seen[s][t].add(choice[1])
        self._pending["received"].add(s)

    def _next_reflection(self) -> None:
        p = self._pending
        while p["reflecting"]:
            seat = p["reflecting"].pop(0)
            if not self.draw_pile:
                continue
            drawn = self.draw_pile.pop()  # chance: the pile was shuffled at the deal
            options = tuple(["keep"] + [("swap", c) for c in self.hands[seat]])
            self._queue.append(Decision(seat, "reflect", options, {"drawn": drawn}))
            return
        self._stage = self._end_round

    def _on_reflect(self, decision: Decision, choice: Any) -> None:
        seat, drawn = decision.seat, decision.context["drawn"]
        if choice == "keep":
            self.discards.append(drawn)
            return
        old = choice[1]
        self.hands[seat][self.hands[seat].index(old)] = drawn
        self.discards.append(old)
        self.seen[seat][seat] = set(self.hands[seat])


def deck_from_game(game: Any, options: Mapping[str, Any]) -> Deck:
    """The trait deck of a loaded game, as the engine options in game.yaml name it."""
    component = game.component(options["deck"])
    field = options["field"]
    symbols = [e.id for e in game.sets[options["symbols"]]]
    cards = [(card.id, dict(card.fields[field])) for card in component.cards for _ in range(card.copies)]
    table = {int(k): int(v) for k, v in game.rules[options["hand"]].items()}
    return Deck.from_cards(cards, symbols, table)

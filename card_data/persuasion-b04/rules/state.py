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
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from pnp.engine.api import Decision, EngineError, Outcome, QueuedState, shuffle

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
    crests: tuple[str, ...] = ()
    """The families' crest ids (for reading a real table); empty: any name."""

    @classmethod
    def from_cards(cls, cards: Sequence[tuple[str, Mapping[str, int]]], symbols: Sequence[str], hand_size: Mapping[int, int], crests: Sequence[str] = ()) -> Deck:
        vectors = tuple(tuple(int(signs.get(s, 0)) for s in symbols) for _, signs in cards)
        return cls(tuple(card_id for card_id, _ in cards), tuple(symbols), vectors, MappingProxyType(dict(hand_size)), tuple(crests))


def totals(deck: Deck, hand: Sequence[int]) -> list[int]:
    """Each symbol's sum of signs over ``hand``."""
    if not hand:
        return [0] * len(deck.symbols)
    vectors = deck.vectors
    return [sum(column) for column in zip(*[vectors[card] for card in hand])]


def matches(desires: Sequence[int], hand_totals: Sequence[int]) -> int:
    """How many of the desires card's signed symbols are dominant, with that sign."""
    return sum(1 for want, have in zip(desires, hand_totals) if want and want * have > 0)


@dataclass(frozen=True)
class Verdict:
    wins: bool
    why: str


def judge(names: Sequence[str], wants: Sequence[Sequence[int]], sums: Sequence[Sequence[int]], status: Sequence[str], fiance: Sequence[int]) -> list[Verdict]:
    """Matrimony by the B04 rules, the one scorer of B04 (the engine's outcome
    and ``pnp score``): ``wants`` are the desires cards' signs, ``sums`` each
    hand's symbol totals, ``names`` how to call each player in the reasons."""
    out = []
    for seat, kind in enumerate(status):
        if kind == ENGAGED:
            partner = fiance[seat]
            got = matches(wants[seat], sums[partner])
            out.append(Verdict(got >= NEED, f"{got} of the desired signs are dominant in {names[partner]}'s hand (needs {NEED})"))
        elif kind == INDEPENDENT:
            best = max(((matches(wants[seat], sums[p]), names[p]) for p in range(len(status)) if p != seat), default=(0, "nobody"))
            won = best[0] < NEED
            why = f"no other hand has {NEED} of the desired signs (best: {best[1]} with {best[0]})" if won else f"{best[1]}'s hand has {best[0]} of the desired signs"
            out.append(Verdict(won, why))
        elif kind == AVAILABLE:
            out.append(Verdict(False, "still available at matrimony"))
        else:
            raise EngineError(f"unknown status {kind!r}")
    return out


def winners(deck: Deck, desires: Sequence[int], hands: Sequence[Sequence[int]], status: Sequence[str], fiance: Sequence[int]) -> list[bool]:
    """Matrimony: who wins, by the B04 rules (:func:`judge` on the engine's cards)."""
    sums = [totals(deck, hand) for hand in hands]
    wants = [deck.vectors[d] for d in desires]
    return [v.wins for v in judge([f"seat {s}" for s in range(len(hands))], wants, sums, status, fiance)]


class Intentions(Sequence[tuple[Any, ...]]):
    """Every legal intention, without building them all: ("independent",), then
    ("invite", target, card) and ("propose", target, card) for each pair."""

    KINDS = ("invite", "propose")
    __slots__ = ("seat", "available", "cards", "_targets")

    def __init__(self, seat: int, available: tuple[int, ...], cards: tuple[int, ...]):
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

    def __init__(self, hand: Sequence[int]):
        self.hand = tuple(hand)

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


class Observation(NamedTuple):
    """A frozen snapshot of what one seat knows, made for each decision.

    It holds no reference to the game: the seat's own hand and desires, the
    cards it has seen of each player, and public facts. ``notes`` is the seat's
    agent's own notebook (memory between its decisions); the engine never reads it.
    """

    seat: int
    round: int
    last_round: bool
    hand: tuple[int, ...]
    desires: int
    seen: tuple[frozenset[int], ...]
    """Per player: the cards of theirs this seat has seen (its own: its hand)."""
    status: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    deck: Deck
    """The card catalogue (public: every card's symbols), not the draw pile."""
    notes: dict[Any, Any]


_new = tuple.__new__


class B04State(QueuedState):
    """One game of Persuasion B04 in progress."""

    def __init__(self, deck: Deck, players: int, rng: random.Random, round_cap: int = 60, check_moves: bool = True):
        if players not in deck.hand_size:
            raise EngineError(f"the player table has no entry for {players} players")
        size = deck.hand_size[players]
        order = list(range(len(deck.ids)))
        shuffle(order, rng)  # chance: the deal
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
        self.seen: list[list[frozenset[int]]] = [[frozenset() for _ in range(players)] for _ in range(players)]
        """seen[a][b]: the cards of b's that a has seen (replaced, never changed in place)."""
        for seat in range(players):
            self.seen[seat][seat] = frozenset(self.hands[seat])
        self.round = 0
        self.last_round = False
        self.over = False
        self.capped = False
        self.actions = {"invite": 0, "propose": 0, "independent": 0}
        self.away: set[int] = set()
        """Cards lying on another player's board this round (sent, or given as replies)."""
        self._queue: list[Decision] = []
        self._pending: dict[str, Any] = {}
        self._stage: Callable[[], None] = self._end_round
        self._handlers = {
            "intention": self._on_intention, "proposal": self._on_proposal, "give": self._on_give,
            "invitation": self._on_invitation, "reflect": self._on_reflect, "sort": self._on_sort,
            "mutual": self._on_mutual,
        }
        self._sizes = tuple(len(h) for h in self.hands)  # trades are one for one: sizes never change
        self._status_view = tuple(self.status)
        self._notes: list[dict[Any, Any]] = [{} for _ in range(players)]
        self._seen_view = [tuple(row) for row in self.seen]
        self._hand_view = [tuple(hand) for hand in self.hands]
        self._start_round()

    # -- the public interface (decision, apply: QueuedState) -------------------

    def observation(self, seat: int) -> Observation:
        return _new(Observation, (  # tuple.__new__: no Python frame for the named tuple's own __new__
            seat, self.round, self.last_round, self._hand_view[seat], self.desires[seat], self._seen_view[seat],
            self._status_view, self._sizes, self.deck_info, self._notes[seat],
        ))

    def outcome(self) -> Outcome:
        won = winners(self.deck_info, self.desires, self.hands, self.status, self.fiance)
        ids = self.deck_info.ids
        return Outcome(
            tuple(won), tuple(self.status), self.round, self.capped,
            tuple(tuple(map(ids.__getitem__, hand)) for hand in self.hands), actions=dict(self.actions),
        )

    def all_cards(self) -> list[int]:
        """Every card somewhere: hands, desires, draw pile, discards (for invariant checks)."""
        return [c for hand in self.hands for c in hand] + list(self.desires) + list(self.draw_pile) + list(self.discards)

    # -- the round --------------------------------------------------------------

    def _set_status(self, seat: int, status: str) -> None:
        self.status[seat] = status
        self._status_view = tuple(self.status)

    def _see(self, who: int, whose: int, card: int) -> None:
        if card not in self.seen[who][whose]:
            self.seen[who][whose] = self.seen[who][whose] | {card}
            self._seen_view[who] = tuple(self.seen[who])

    def _own_hand_changed(self, seat: int) -> None:
        self.seen[seat][seat] = frozenset(self.hands[seat])
        self._seen_view[seat] = tuple(self.seen[seat])
        self._hand_view[seat] = tuple(self.hands[seat])

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
        if self.round > self.round_cap:
            self.over, self.capped = True, True
            return
        self._pending = {"intentions": {}}
        self._stage = self._mail
        ready = tuple(available)
        views = self._hand_view
        self._queue.extend([Decision(seat, "intention", Intentions(seat, ready, views[seat])) for seat in available])

    def _on_intention(self, decision: Decision, choice: tuple[Any, ...]) -> None:
        self._pending["intentions"][decision.seat] = choice
        self.actions[choice[0]] += 1

    def _end_round(self) -> None:
        if self.last_round:
            self.over = True
        else:
            self._start_round()

    def _mail(self) -> None:
        """Every intention delivered at once; then correspondence."""
        intentions = self._pending["intentions"]
        inbox: list[dict[str, list[tuple[int, int]]]] = [{"invite": [], "propose": []} for _ in range(self.n)]
        for seat in sorted(intentions):
            choice = intentions[seat]
            if choice[0] == "independent":
                self._set_status(seat, INDEPENDENT)
            else:
                inbox[choice[1]][choice[0]].append((seat, choice[2]))
                self.away.add(choice[2])
        self._pending.update(
            inbox=inbox,
            touched={c[1] for c in intentions.values() if c[0] in ("invite", "propose")},
            refused=set(),
            received=set(),
            turns=deque(r for r in range(self.n) if inbox[r]["invite"] or inbox[r]["propose"]),
        )
        self._stage = self._correspond

    # -- correspondence: turns clockwise from the host, one item of mail a turn --

    def _correspond(self) -> None:
        """Players resolve their boards one item at a time, taking turns
        clockwise from the host (the stalemate rule); each picks which kind of
        mail to resolve next (until a proposal is accepted you may shop around)."""
        p = self._pending
        inbox, turns = p["inbox"], p["turns"]
        while turns:
            r = turns.popleft()  # clockwise from the host, one item a turn
            mail = inbox[r]
            if not mail["invite"] and not mail["propose"]:
                continue
            if self.status[r] != AVAILABLE:  # engaged or independent: every item is refused
                p["refused"].update(s for s, _ in mail["invite"] + mail["propose"])
                for s, c in mail["propose"]:
                    self._see(r, s, c)  # a proposal is peeked
                mail["invite"], mail["propose"] = [], []
                continue
            if mail["invite"] and mail["propose"]:
                self._queue.append(Decision(r, "sort", ("invitation", "proposals")))
                turns.append(r)
            elif mail["invite"]:
                self._next_invitation(r)
                if mail["invite"]:
                    turns.append(r)
            else:
                self._proposals(r)
            if self._queue:
                return
        self._pending["reflecting"] = [
            s for s in range(self.n)
            if self.status[s] == AVAILABLE and s in p["refused"] and s not in p["touched"] and s not in p["received"]
        ]
        self.away.clear()  # every card goes home
        self._stage = self._next_reflection

    def _on_sort(self, decision: Decision, choice: str) -> None:
        if choice == "invitation":
            self._next_invitation(decision.seat)
        else:
            self._proposals(decision.seat)

    def _free(self, seat: int, *also: int) -> list[int]:
        """The cards in ``seat``'s hand it may send now: not lying on another board."""
        away = self.away
        return [c for c in self.hands[seat] if c not in away and c not in also]

    def _next_invitation(self, r: int) -> None:
        s, c = self._pending["inbox"][r]["invite"].pop(0)
        free = self._free(r)
        if self.status[s] != AVAILABLE or not free:
            self._pending["refused"].add(s)
            return
        self._queue.append(Decision(r, "invitation", Answers(free), MappingProxyType({"from": s})))
        self._pending["current"] = (r, s, c)

    def _on_invitation(self, decision: Decision, choice: Any) -> None:
        t, s, c = self._pending.pop("current")
        if choice == "refuse":
            self._pending["refused"].add(s)  # returned unseen
            return
        # Accepting is answering: the reply card goes to the sender's board, the
        # invitation card into the recipient's hand to read.
        self._see(t, s, c)
        self._see(s, t, choice[1])
        self.away.add(choice[1])
        self._pending["received"].add(s)

    def _proposals(self, r: int) -> None:
        """Every proposal on ``r``'s board at once: r peeks at them all, then accepts one or none."""
        p = self._pending
        offers = p["inbox"][r]["propose"]
        p["inbox"][r]["propose"] = []
        for s, c in offers:
            self._see(r, s, c)  # a proposal is always peeked
        live = [(s, c) for s, c in offers if self.status[s] == AVAILABLE]
        p["refused"].update(s for s, _ in offers if (s, _) not in live)
        if not live or not self._free(r):
            p["refused"].update(s for s, _ in live)
            return
        options = tuple(["refuse"] + [("accept", s) for s, _ in live])
        self._queue.append(Decision(r, "proposal", options, MappingProxyType({"offers": tuple(live)})))

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
        self._queue.insert(0, Decision(r, "give", tuple(self._free(r)), MappingProxyType({"to": s, "card": card})))
        p["trade"] = (r, s, card)

    def _on_give(self, decision: Decision, choice: int) -> None:
        r, s, card = self._pending.pop("trade")
        self._trade(r, s, choice, card)
        self._engage(r, s)
        # Mutual proposals: if r had proposed to s too, s may accept as well.
        mine = [(t, c) for t, c in self._pending["inbox"][s]["propose"] if t == r]
        if mine:
            self._pending["inbox"][s]["propose"].remove(mine[0])
            ring_card = mine[0][1]
            self._see(s, r, ring_card)
            free = self._free(s, choice)  # "you cannot send a card you received this turn"
            if free:
                self._queue.insert(0, Decision(s, "mutual", ("refuse", *free), MappingProxyType({"from": r, "card": ring_card, "received": choice})))

    def _on_mutual(self, decision: Decision, choice: Any) -> None:
        s, r, ring_card = decision.seat, decision.context["from"], decision.context["card"]
        if choice != "refuse":
            self._trade(s, r, choice, ring_card)

    def _trade(self, r: int, s: int, from_r: int, from_s: int) -> None:
        self.hands[r].remove(from_r)
        self.hands[s].remove(from_s)
        self.hands[r].append(from_s)
        self.hands[s].append(from_r)
        self.away.discard(from_r)
        self.away.discard(from_s)
        for a, b, c in ((r, s, from_r), (s, r, from_s)):
            self._see(a, b, c)
            self._see(b, b, c)
        self._own_hand_changed(r)
        self._own_hand_changed(s)

    def _engage(self, r: int, s: int) -> None:
        self._set_status(r, ENGAGED)
        self._set_status(s, ENGAGED)
        self.fiance[r], self.fiance[s] = s, r
        self._pending["received"].update((r, s))

    def _next_reflection(self) -> None:
        p = self._pending
        while p["reflecting"]:
            seat = p["reflecting"].pop(0)
            if not self.draw_pile:
                continue
            drawn = self.draw_pile.pop()  # chance: the pile was shuffled at the deal
            options = tuple(["keep"] + [("swap", c) for c in self.hands[seat]])
            self._queue.append(Decision(seat, "reflect", options, MappingProxyType({"drawn": drawn})))
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
        self._own_hand_changed(seat)


def deck_from_game(game: Any, options: Mapping[str, Any]) -> Deck:
    """The trait deck of a loaded game, as the engine options in game.yaml name it."""
    component = game.component(options["deck"])
    field = options["field"]
    symbols = [e.id for e in game.sets[options["symbols"]]]
    cards = [(card.id, dict(card.fields[field])) for card in component.cards for _ in range(card.copies)]
    table = {int(k): int(v) for k, v in game.rules[options["hand"]].items()}
    crests = tuple(e.id for e in game.sets.get(options.get("crests", "crests"), ()))
    return Deck.from_cards(cards, symbols, table, crests)

"""Partisan as printed, one decision at a time.

A turn is three decisions of the active seat: ``raise`` a card from its hand
as a new topic; ``gather``, one pick for each suit on it (a chip of that suit
from the supply or from another topic, or none), offered as a
:class:`~pnp.engine.api.Product` of the picks; ``push``, one place for each
chip on the new topic (leave it, make it a partisan, or move it to another
topic), again a product. The seat then draws and empty topics are discarded.
A decision with nothing to choose is skipped. After the last card is drawn
the round is finished, so every seat has had as many turns. In the Leaders
variant the holder of a suit's leader settles a tie its holder is not part
of (``settle``).

What a seat sees (:class:`View`): its own hand and the public table
(:class:`~.table.Public`: topics, supply, partisans, where each leader is,
how many cards are left), read-only and kept current by the engine, which
plays on its own :class:`Table`. Other hands and the order of the deck are
never reachable from it, and no edit through it reaches the game. Options
name a topic by its card, so they compare equal in every copy of a game and
every guessed deal (:func:`determinize`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from pnp.engine.api import NO_CONTEXT, Decision, EngineError, IllegalMove, NoEnd, Outcome, Product, decision_of, shuffle

from . import scoring
from .table import SUPPLY, Card, Pack, Table, Topic, View, gain

STAY, PARTY = "stay", "party"
FIRST, BEHIND = "top score", "behind"
MOVES = ("take from the supply", "take from a topic", "take nothing", "make partisan", "move to a topic", "leave on the topic")
_SUPPLIED, _TAKEN, _NOTHING, _MADE, _MOVED, _LEFT = range(len(MOVES))
"""Where each kind of move is counted in ``PartisanState.actions`` (a list by MOVES)."""


_FROM_SUPPLY = (SUPPLY, False)


class _Contexts(dict[Any, Any]):
    """Read-only decision contexts, made once per key and shared."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def __missing__(self, key: Any) -> Any:
        made = self[key] = MappingProxyType({self.name: key})
        return made


_SUIT_CONTEXT = _Contexts("suit")
_SUITS_CONTEXT = _Contexts("suits")
"""gather: the new topic's suits, in the order of the picks."""
_CHIPS_CONTEXT = _Contexts("chips")
"""push: the chips on the new topic, (suit, is it the leader), in the order of the places."""


class PartisanState:
    """One game in progress."""

    def __init__(self, pack: Pack, players: int, rng: random.Random, check_moves: bool = True):
        low, high = pack.players
        if not low <= players <= high:
            raise EngineError(f"Partisan is played by {low} to {high} players, not {players}")
        deck = list(pack.cards)
        shuffle(deck, rng)  # chance: the only one
        table = Table(players, len(pack.suits), pack.chips, pack.leaders, 0)
        for _ in range(pack.topics):
            topic = table.raise_topic(deck.pop())
            for s in topic.card.suits:
                if table.supply[s]:
                    table.supply[s] -= 1
                    topic.chips[s] += 1
        hands = [[deck.pop() for _ in range(pack.hand)] for _ in range(players)]
        table.deck_left = table.draws = len(deck)
        table.show()
        self._seat(pack, table, hands, deck, check_moves)
        self._start_turn()

    def _seat(self, pack: Pack, table: Table, hands: list[list[Card]], deck: list[Card], check_moves: bool) -> None:
        """The game's pieces in place, between two decisions (``table`` shown: :meth:`Table.show`)."""
        self.pack, self.n, self.check_moves = pack, table.players, check_moves
        self.table, self.hands, self.deck = table, hands, deck
        self._mine = [{"hand": tuple(hand)} for hand in hands]
        """What only each seat sees (its view shows it read-only): its hand."""
        self.views = [View(seat, table.public, pack, mine) for seat, mine in enumerate(self._mine)]
        self.actions = [0] * len(MOVES)
        self.over = False
        self.scored: scoring.Scored | None = None
        self._new: Topic | None = None
        self._gather: tuple[int, ...] = ()
        """gather: the new topic's suits, in the order of the picks."""
        self._push: tuple[tuple[int, bool], ...] = ()
        """push: the chips on the new topic, (suit, is it the leader), in the order of the places."""
        self._settle: list[tuple[int, int, tuple[int, ...]]] = []
        self._settling = -1
        self._emptied = True
        """Whether a topic may have lost its last chip this turn (at first, any may hold none)."""
        self._current: Decision | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> PartisanState:
        """A copy that plays on alone (:func:`pnp.engine.api.clone`), made
        without ``copy.deepcopy``: the pack, the cards and the current decision
        (which names only cards and constants) are shared."""
        twin = copy.copy(self)
        twin.table = table = self.table.copy()
        twin.hands, twin.deck, twin.actions, twin._settle = [list(h) for h in self.hands], list(self.deck), list(self.actions), list(self._settle)
        twin._mine = [dict(mine) for mine in self._mine]
        twin.views = [View(seat, table.public, self.pack, mine) for seat, mine in enumerate(twin._mine)]
        twin._new = None if self._new is None else table.topics[self._new.card]
        return twin

    # -- the decision interface ------------------------------------------------

    def decision(self) -> Decision | None:
        return self._current

    def observation(self, seat: int) -> View:
        return self.views[seat]

    def is_terminal(self) -> bool:
        return self.over

    def apply(self, choice: Any) -> None:
        d = self._current
        if d is None:
            raise IllegalMove("the game is over")
        if self.check_moves and choice not in d.options:
            raise IllegalMove(f"seat {d.seat}: {choice!r} is not a legal {d.kind}")
        _HANDLERS[d.kind](self, choice)

    # -- a turn ----------------------------------------------------------------

    def _start_turn(self) -> None:
        table = self.table
        if table.turn >= self.pack.turn_cap:
            raise NoEnd(f"no end after {table.turn} turns")
        hand = self._mine[table.active]["hand"]  # a tuple, made as the hand changed
        self._current = decision_of((table.active, "raise", hand, NO_CONTEXT))

    def _on_raise(self, card: Card) -> None:
        table = self.table
        hand = self.hands[table.active]
        hand.remove(card)
        self._mine[table.active]["hand"] = tuple(hand)
        parts = self._sources(card.suits)
        self._new = table.raise_topic(card)
        for part in parts:
            if part[0] is not None:  # each part ends with None: taking nothing
                self._gather = card.suits
                self._current = decision_of((table.active, "gather", Product(parts), _SUITS_CONTEXT[card.suits]))
                return
        self.actions[_NOTHING] += len(parts)
        self._offer_push(())

    def _sources(self, suits: tuple[int, ...]) -> list[tuple[Any, ...]]:
        """For each of ``suits``, where a chip of it may come from: (the supply
        or a topic's card, is it the leader), and None for taking nothing. Asked
        before the raised card joins the topics, so it is never its own source."""
        table = self.table
        leader, topics, supply = table.leader, table.topics, table.supply
        parts = []
        for suit in suits:
            where = leader[suit] if leader is not None else None  # without leaders, every chip of a suit is alike
            options: list[Any] = []
            have = supply[suit]
            if have:
                if where == SUPPLY:
                    if have > 1:
                        options.append(_FROM_SUPPLY)
                    options.append((SUPPLY, True))
                else:
                    options.append(_FROM_SUPPLY)
            for topic in topics.values():
                count = topic.chips[suit]
                if count:
                    card = topic.card
                    if where is card:
                        if count > 1:
                            options.append((card, False))
                        options.append((card, True))
                    else:
                        options.append((card, False))
            options.append(None)
            parts.append(tuple(options))
        return parts

    def _on_gather(self, choice: tuple[Any, ...]) -> None:
        """One pick per suit of the new topic, in its order: (source, leader) or None."""
        table, new, actions = self.table, self._new, self.actions
        assert new is not None
        on = new.chips
        gathered = []
        supplied = False
        for suit, pick in zip(self._gather, choice):
            if pick is None:
                actions[_NOTHING] += 1
                continue
            source, lead = pick
            if source == SUPPLY:
                table.supply[suit] -= 1
                actions[_SUPPLIED] += 1
                supplied = True
            else:
                topic = table.topics[source]
                chips = topic.chips
                chips[suit] -= 1
                if not chips[suit] and not any(chips):
                    self._emptied = True
                table.shown[source] = tuple(chips)
                actions[_TAKEN] += 1
            on[suit] += 1
            gathered.append((suit, lead))
            if lead:
                table.move_leader(suit, new.card)
        if supplied:
            table.live["supply"] = tuple(table.supply)
        table.shown[new.card] = tuple(on)
        self._offer_push(tuple(gathered))

    def _offer_push(self, chips: tuple[tuple[int, bool], ...]) -> None:
        """Each chip gathered onto the new topic, (suit, is it the leader), in
        the card's order of suits (one a suit at most: a card names a suit
        once), is left, made a partisan or moved to another topic: one place a chip."""
        table = self.table
        if not chips:
            self._emptied = True  # the new topic holds none
            self._end_turn()
            return
        places = (STAY, PARTY, *table.topics)[:-1]  # the new topic, raised this turn, is the last
        self._push = chips
        self._current = decision_of((table.active, "push", Product([places] * len(chips)), _CHIPS_CONTEXT[chips]))

    def _on_push(self, choice: tuple[Any, ...]) -> None:
        table, new, actions = self.table, self._new, self.actions
        assert new is not None
        seat, on, made = table.active, new.chips, False
        for (suit, lead), place in zip(self._push, choice):
            if place == STAY:
                actions[_LEFT] += 1
                continue
            on[suit] -= 1
            if place == PARTY:
                table.partisans[seat][suit] += 1
                actions[_MADE] += 1
                made = True
                if lead:
                    table.move_leader(suit, seat)
                gain(table, seat, suit)
            else:
                topic = table.topics[place]
                chips = topic.chips
                chips[suit] += 1
                table.shown[place] = tuple(chips)
                actions[_MOVED] += 1
                if lead:
                    table.move_leader(suit, place)
        if made:
            table.show_partisans(seat)
        table.shown[new.card] = tuple(on)
        if not any(on):
            self._emptied = True
        self._end_turn()

    def _end_turn(self) -> None:
        table, seat, deck = self.table, self.table.active, self.deck
        if deck:
            hand = self.hands[seat]
            hand.append(deck.pop())
            self._mine[seat]["hand"] = tuple(hand)
            table.deck_left = len(deck)
        if self._emptied:
            self._emptied = False
            table.discard_empty()
        self._new = None
        table.turn += 1
        table.live["turn"] = table.turn
        if not deck:
            table.last_round = True
            if seat == self.n - 1 or not any(self.hands):
                self._end_game()
                return
        table.active = (seat + 1) % self.n
        self._start_turn()

    # -- the end ---------------------------------------------------------------

    def _end_game(self) -> None:
        """Each group tie the leader's holder must settle waits for the holder's pick, by suit."""
        self._settle = self._ties()
        self._next_settle()

    def _ties(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """(suit, the leader's holder, the tied seats) for each group tie the
        holder must settle (the scorer says which), by suit."""
        holders = self.leader_holders()
        ties: list[tuple[int, int, tuple[int, ...]]] = []
        if holders is not None:

            def ask(suit: int, holder: int, tied: tuple[int, ...]) -> int:
                ties.append((suit, holder, tied))
                return tied[0]  # a stand-in: the group is scored once the holder has picked

            scoring.win_groups(self.table.partisans, holders, ask)
        return ties

    def leader_holders(self) -> list[int | None] | None:
        """Per suit, the seat holding its leader as a partisan (Leaders variant)."""
        leader = self.table.leader
        if leader is None:
            return None
        return [where if isinstance(where, int) else None for where in leader]

    def _next_settle(self) -> None:
        if self._settle:
            suit, holder, tied = self._settle.pop(0)
            self._settling = suit
            self._current = Decision(holder, "settle", tied, _SUIT_CONTEXT[suit])
            return
        table = self.table
        picks = table.picks
        self.scored = scoring.score(
            table.partisans, [t.chips for t in table.topics.values()], self.leader_holders(), lambda suit, holder, tied: picks[suit],
        )
        self._current = None
        self.over = True

    def _on_settle(self, seat: int) -> None:
        self.table.picks[self._settling] = seat
        self._next_settle()

    def outcome(self) -> Outcome:
        scored = self.scored
        if scored is None:
            raise EngineError("the game is not over")
        winners = scored.winners
        topics = list(self.table.topics)
        won: list[list[str]] = [[] for _ in range(self.n)]
        for t in scored.topics:
            if t.owner is not None:
                won[t.owner].append(topics[t.index].id)
        return Outcome(
            winners, tuple(FIRST if w else BEHIND for w in winners), -(-self.table.turn // self.n), False, tuple(map(tuple, won)),
            tuple(map(float, scored.scores)), dict(zip(MOVES, self.actions)), {}, measures(scored, self.pack.suits, self.table.turn),
        )


def determinize(pack: Pack, view: View, decision: Decision, rng: random.Random, check_moves: bool = True) -> PartisanState:
    """A whole game consistent with what ``view``'s seat has seen, in which it
    is about to make ``decision`` (the engine API's search hook,
    docs/engine.md): the table as the view shows it, the seat's own hand, and
    every card it has not seen (the printed deck less its hand, the topics and
    the discards) shuffled with ``rng`` and dealt to the deck and to the other
    hands in the sizes every seat can count (:func:`hand_sizes`). Partisan
    has no chance after the deal, so the state needs no generator of its own.
    Reads only its arguments; ``check_moves=False`` trusts the agents that play it on."""
    table = view.table
    if decision.seat != view.seat:
        raise EngineError(f"seat {view.seat}'s view cannot make seat {decision.seat}'s decision")
    sizes = hand_sizes(pack, table.players, table.turn, decision.kind in ("gather", "push"))
    seen = {c.index for c in (*view.hand, *table.topics, *table.discards)}
    unseen = [c for c in pack.cards if c.index not in seen]
    if len(view.hand) != sizes[view.seat] or len(unseen) != table.deck_left + sum(sizes) - len(view.hand):
        raise EngineError(f"{len(unseen)} unseen cards: the view shows {table.deck_left} in the deck and hands of {sizes}")
    shuffle(unseen, rng)
    deck = [unseen.pop() for _ in range(table.deck_left)]  # the deck first, then the hands: as the look-ahead always dealt
    hands = [list(view.hand) if seat == view.seat else [unseen.pop() for _ in range(size)] for seat, size in enumerate(sizes)]
    state = PartisanState.__new__(PartisanState)
    state._seat(pack, Table.showing(table), hands, deck, check_moves)
    kind, context = decision.kind, decision.context
    if kind in ("gather", "push"):
        state._new = next(reversed(state.table.topics.values()))
        state._gather = tuple(context["suits"]) if kind == "gather" else ()
        state._push = tuple(context["chips"]) if kind == "push" else ()
    elif kind == "settle":
        state._settling = context["suit"]
        state._settle = [tie for tie in state._ties() if tie[0] > state._settling]
    state._current = decision
    return state


def hand_sizes(pack: Pack, players: int, turn: int, raised: bool) -> list[int]:
    """How many cards each seat holds after ``turn`` turns (the backs are
    public): a full hand, less one for each turn it has played since the deck
    ran out, and less the card the active seat has raised this turn (``raised``)."""
    draws = len(pack.cards) - pack.topics - pack.hand * players  # the first ``draws`` turns end with a draw
    sizes = [pack.hand] * players
    for played in range(draws, turn):
        sizes[played % players] -= 1
    if raised:
        sizes[turn % players] -= 1
    return sizes


_HANDLERS: dict[str, Callable[[PartisanState, Any], None]] = {
    "gather": PartisanState._on_gather, "push": PartisanState._on_push,
    "raise": PartisanState._on_raise, "settle": PartisanState._on_settle,
}
"""Each decision kind's handler (looked up once a decision: tens of thousands a second)."""


def measures(scored: scoring.Scored, suits: tuple[str, ...], turns: int) -> dict[str, float]:
    """Per game: what a designer asks about ties, spread and length."""
    scores = sorted(scored.scores, reverse=True)
    tied = nobody = settled = split = lost = unclaimed = 0
    for g in scored.groups:
        tied += bool(g.tied)
        nobody += g.winner is None
        settled += g.how in ("leader", "settled")
    for t in scored.topics:
        if t.split:
            split += 1
            lost += t.discarded
        elif t.owner is None:
            unclaimed += 1
    out = {
        "groups tied": float(tied),
        "groups won by nobody": float(nobody),
        "ties settled by a leader": float(settled),
        "topics split": float(split),
        "chips lost in splits": float(lost),
        "topics unclaimed": float(unclaimed),
        "tied for the win": float(scores.count(scores[0]) > 1),
        "score spread": float(scores[0] - scores[-1]),
        "winning margin": float(scores[0] - scores[1]) if len(scores) > 1 else 0.0,
        "turns": float(turns),
    }
    names = _TIED[suits]
    for g in scored.groups:
        out[names[g.suit]] = float(bool(g.tied))
    return out


class _TiedNames(dict[tuple[str, ...], tuple[str, ...]]):
    """``tied: SUIT`` for each suit, made once per set of suits."""

    def __missing__(self, suits: tuple[str, ...]) -> tuple[str, ...]:
        made = self[suits] = tuple(f"tied: {suit}" for suit in suits)
        return made


_TIED = _TiedNames()

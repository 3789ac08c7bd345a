"""Persuasion B04: the rules, and what each seat sees.

Readings chosen where the rules leave room (also in the game's RULES-NOTES.md):

- Intentions are asked seat by seat, each from the seat's own observation, and
  revealed together (simultaneous play).
- Check availability happens at the start of every round after the first:
  one or no available player ends the game; exactly two make it the last round.
- Mail: every intention is delivered at once, and every player at once peeks
  at the proposals in ring sleeves on its letterbox.
- Correspondence: players take turns clockwise from the host (seat 0), the
  stalemate rule, each resolving one item of its mail a turn: any waiting
  invitation, by its sender, or its proposals, all together (accept one or
  none). An engaged or independent player refuses whatever is left; an
  invitation from a sender engaged meanwhile is refused. Two players who
  proposed to each other may exchange their two proposal cards.
- A refused invitation goes back unseen; an accepted one shows both cards.
- Reflection: an available player whose own intention came back refused and
  whose letterbox received no other player's card may draw a card (if the
  deck has any), then may keep it in place of one of theirs; the card let go
  is discarded face down.
- A round cap (``Deck.round_cap``, default 60) ends a game that stalls; it is
  reported, and available players lose as at any matrimony.
- Engaged and independent players take no further part until matrimony.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pnp.engine.api import NO_CONTEXT, Decision, EngineError, IllegalMove, Outcome, decision_of, shuffle

from .correspondence import EMPTY, Correspondence, _first
from .deck import AVAILABLE, ENGAGED, INDEPENDENT, NEED, Deck, Verdict, deck_from_game, judge, matches, totals, winners
from .views import KINDS, Answers, Intentions, Mail, Observation

__all__ = [
    "AVAILABLE", "ENGAGED", "INDEPENDENT", "NEED", "Answers", "B04State", "Deck", "Intentions", "Mail",
    "Observation", "Verdict", "deck_from_game", "judge", "matches", "totals", "winners",
]

_new = tuple.__new__
_MOVES_MAIL = frozenset(("sort", "invitation", "proposal", "give", "mutual"))
"""The decisions whose handlers change the public mail (the waiting items,
who was refused or received, the cards away); every stage that changes it
(the round, the mail, correspondence, reflection) drops the view itself."""


@lru_cache(maxsize=None)
def _empty_mail(n: int) -> Mail:
    """The mail of a round before any is sent."""
    return Mail(((),) * n, ((),) * n, EMPTY, EMPTY, EMPTY, (), (), (0,) * n)


class B04State(Correspondence):
    """One game of Persuasion B04 in progress."""

    def __init__(self, deck: Deck, players: int, rng: random.Random, round_cap: int = 60, check_moves: bool = True, deal: bool = True):
        if players not in deck.hand_size:
            raise EngineError(f"the player table has no entry for {players} players")
        size = deck.hand_size[players]
        order = list(range(len(deck.ids)))
        if deal:
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
        self.drawing: int | None = None
        """A reflection draw not yet kept or discarded."""
        self.status = [AVAILABLE] * players
        self.fiance = [-1] * players
        self.seen: list[list[frozenset[int]]] = [[EMPTY] * players for _ in range(players)]
        """seen[a][b]: the cards of b's that a has seen (replaced, never changed in place)."""
        self.known: list[list[frozenset[int]]] = [[EMPTY] * players for _ in range(players)]
        """known[a][b]: the cards a knows to be in b's hand now."""
        self.discarded: list[frozenset[int]] = [EMPTY] * players
        """The cards each seat discarded itself."""
        self.round = 0
        self.last_round = False
        self.over = False
        self.capped = False
        self.actions = dict.fromkeys(KINDS, 0)
        self.away: set[int] = set()
        """Cards lying on another player's board this round (sent, or given as replies)."""
        self.intentions: list[tuple[Any, ...]] = [()] * players
        self.lying: list[frozenset[int]] = [EMPTY] * players
        """Per seat: other players' cards it has seen lying on a letterbox this round."""
        self.offers: list[tuple[tuple[int, int], ...]] = [()] * players
        self._queue: list[Decision] = []
        self._pending: dict[str, Any] = {}
        self._stage: Callable[[], None] = self._end_round
        self._handlers = {
            "intention": self._on_intention, "proposal": self._on_proposal, "give": self._on_give,
            "invitation": self._on_invitation, "draw": self._on_draw, "reflect": self._on_reflect,
            "sort": self._on_sort, "mutual": self._on_mutual,
        }
        self._sizes = tuple(len(h) for h in self.hands)  # trades are one for one: sizes never change
        self._status_view = tuple(self.status)
        self._fiance_view = tuple(self.fiance)
        self._notes: list[dict[Any, Any]] = [{} for _ in range(players)]
        self._seen_view = [tuple(row) for row in self.seen]
        self._known_view = [tuple(row) for row in self.known]
        self._hand_view = [tuple(hand) for hand in self.hands]
        self._mail_view: Mail | None = None
        self._invites: list[tuple[int, ...]] = [()] * players
        """Per letterbox: the senders of the invitations waiting on it (public)."""
        self._proposers: list[tuple[int, ...]] = [()] * players
        """Per letterbox: the senders of the proposals waiting on it (public)."""
        self._lent = [EMPTY] * players
        """Per player: its cards lying on other letterboxes (how many: public)."""
        for seat in range(players):
            self._own_hand_changed(seat)
        if deal:
            self._start_round()

    # -- the public interface (decision, apply: QueuedState) -------------------

    def apply(self, choice: Any) -> None:
        """QueuedState.apply, written out (one call less a decision), dropping
        the public mail view when the decision changes it."""
        decision = self._queue.pop(0)
        if self.check_moves and choice not in decision.options:
            raise IllegalMove(f"seat {decision.seat}: {choice!r} is not a legal {decision.kind}")
        kind = decision.kind
        if kind in _MOVES_MAIL:
            self._mail_view = None
        self._handlers[kind](decision, choice)

    def observation(self, seat: int) -> Observation:
        mail = self._mail_view
        if mail is None:
            mail = self._mail_view = self._public_mail()
        return _new(Observation, (  # tuple.__new__: no Python frame for the named tuple's own __new__
            seat, self.round, self.last_round, self._hand_view[seat], self.desires[seat], self._seen_view[seat],
            self._status_view, self._sizes, self.deck_info, self._notes[seat], self._known_view[seat],
            self.discarded[seat], len(self.draw_pile), self._fiance_view, self.intentions[seat], self._lent[seat],
            self.lying[seat], self.offers[seat], mail,
        ))

    def outcome(self) -> Outcome:
        won = winners(self.deck_info, self.desires, self.hands, self.status, self.fiance)
        ids = self.deck_info.ids
        return Outcome(
            tuple(won), tuple(self.status), self.round, self.capped,
            tuple(tuple(map(ids.__getitem__, hand)) for hand in self.hands), actions=dict(self.actions),
        )

    def all_cards(self) -> list[int]:
        """Every card somewhere: hands, desires, draw pile, discards, a draw in hand (for invariant checks)."""
        drawing = [] if self.drawing is None else [self.drawing]
        return [c for hand in self.hands for c in hand] + list(self.desires) + list(self.draw_pile) + list(self.discards) + drawing

    def _public_mail(self) -> Mail:
        p = self._pending
        if not p:
            return _empty_mail(self.n)
        return _new(Mail, (
            tuple(self._invites), tuple(self._proposers), frozenset(p["touched"]), frozenset(p["refused"]),
            frozenset(p["received"]), tuple(p["turns"]), tuple(p.get("reflecting", ())), tuple(map(len, self._lent)),
        ))

    # -- the round --------------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self._mail_view = None
        self._pending = {}
        self.intentions = [()] * self.n
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
        self._stage = self._mail
        ready = tuple(available)
        views = self._hand_view
        self._queue.extend([decision_of((seat, "intention", Intentions(seat, ready, views[seat]), NO_CONTEXT)) for seat in available])

    def _on_intention(self, decision: Decision, choice: tuple[Any, ...]) -> None:
        self.intentions[decision.seat] = choice
        self.actions[choice[0]] += 1

    def _end_round(self) -> None:
        if self.last_round:
            self.over = True
        else:
            self._start_round()

    def _mail(self) -> None:
        """Every intention delivered at once; every player peeks at the
        proposals on its letterbox; then correspondence."""
        self._mail_view = None
        inbox: list[dict[str, list[tuple[int, int]]]] = [{"invite": [], "propose": []} for _ in range(self.n)]
        lent = self._lent
        for seat, choice in enumerate(self.intentions):
            if not choice:
                continue
            if choice[0] == "independent":
                self._set_status(seat, INDEPENDENT)
            else:
                inbox[choice[1]][choice[0]].append((seat, choice[2]))
                self.away.add(choice[2])
                lent[seat] = lent[seat] | {choice[2]}
        self._invites = [tuple(map(_first, box["invite"])) for box in inbox]
        self._proposers = [tuple(map(_first, box["propose"])) for box in inbox]
        for r, box in enumerate(inbox):
            if box["propose"]:
                for s, c in box["propose"]:
                    self._see(r, s, c)  # ring sleeves may be peeked at freely
                self.offers[r] = tuple(box["propose"])
                self.lying[r] = frozenset(c for _, c in box["propose"])
        self._pending.update(
            inbox=inbox,
            touched={c[1] for c in self.intentions if c and c[0] != "independent"},
            refused=set(),
            received=set(),
            turns=deque([r for r in range(self.n) if inbox[r]["invite"] or inbox[r]["propose"]]),
        )
        self._stage = self._correspond

"""Persuasion B04's correspondence and reflection, and what each seat knows of
where cards are: the stages after the mail, as the base of
:class:`.state.B04State` (which deals, asks intentions and delivers mail)."""

from __future__ import annotations

import random
from itertools import filterfalse
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from pnp.engine.api import NO_CONTEXT, Decision, QueuedState, decision_of

from .deck import AVAILABLE, ENGAGED, Deck
from .views import Answers, Mail

EMPTY: frozenset[int] = frozenset()
_first = itemgetter(0)


class Correspondence(QueuedState):
    """The table's cards and what each seat knows of them, and the stages
    after the mail."""

    deck_info: Deck
    rng: random.Random
    n: int
    hands: list[list[int]]
    draw_pile: list[int]
    discards: list[int]
    drawing: int | None
    status: list[str]
    fiance: list[int]
    seen: list[list[frozenset[int]]]
    known: list[list[frozenset[int]]]
    discarded: list[frozenset[int]]
    away: set[int]
    lying: list[frozenset[int]]
    offers: list[tuple[tuple[int, int], ...]]
    _pending: dict[str, Any]
    _status_view: tuple[str, ...]
    _fiance_view: tuple[int, ...]
    _seen_view: list[tuple[frozenset[int], ...]]
    _known_view: list[tuple[frozenset[int], ...]]
    _hand_view: list[tuple[int, ...]]
    _mail_view: Mail | None
    _invites: list[tuple[int, ...]]
    _proposers: list[tuple[int, ...]]
    _lent: list[frozenset[int]]

    def _end_round(self) -> None:
        raise NotImplementedError

    # -- what each seat knows -----------------------------------------------------

    def _set_status(self, seat: int, status: str) -> None:
        self.status[seat] = status
        self._status_view = tuple(self.status)

    def _see(self, who: int, whose: int, card: int) -> None:
        """``who`` sees ``card`` in ``whose``'s hand."""
        row = self.seen[who]
        if card not in row[whose]:
            row[whose] = row[whose] | {card}
            self._seen_view[who] = tuple(row)
        row = self.known[who]
        if card not in row[whose]:
            row[whose] = row[whose] | {card}
            self._known_view[who] = tuple(row)

    def _know(self, who: int, whose: int, cards: frozenset[int]) -> None:
        self.known[who][whose] = cards
        self._known_view[who] = tuple(self.known[who])

    def _changed_unseen(self, seat: int, *but: int) -> None:
        """``seat``'s hand changed where the others (but ``but``) could not see
        how: they still know where a card of its they saw lying on a letterbox
        is (a card away cannot change hands), and nothing else."""
        for other in range(self.n):
            if other != seat and other not in but and self.known[other][seat]:
                self._know(other, seat, self.known[other][seat] & self.lying[other])

    def _own_hand_changed(self, seat: int) -> None:
        self.seen[seat][seat] = frozenset(self.hands[seat])
        self._seen_view[seat] = tuple(self.seen[seat])
        self._know(seat, seat, self.seen[seat][seat])
        self._hand_view[seat] = tuple(self.hands[seat])

    def _available(self) -> list[int]:
        return [s for s in range(self.n) if self.status[s] == AVAILABLE]

    # -- correspondence: turns clockwise from the host, one item of mail a turn --

    def _correspond(self) -> None:
        """Players resolve their boards one item at a time, taking turns
        clockwise from the host (the stalemate rule); each picks which item to
        resolve next, any invitation or its proposals (until a proposal is
        accepted you may shop around)."""
        self._mail_view = None
        p = self._pending
        inbox, turns = p["inbox"], p["turns"]
        while turns:
            r = turns.popleft()  # clockwise from the host, one item a turn
            mail = inbox[r]
            if not mail["invite"] and not mail["propose"]:
                continue
            if self.status[r] != AVAILABLE:  # engaged or independent: every item is refused
                p["refused"].update(s for s, _ in mail["invite"] + mail["propose"])
                mail["invite"], mail["propose"] = [], []
                self._invites[r] = self._proposers[r] = ()
                continue
            invites, proposals = mail["invite"], mail["propose"]
            if len(invites) + (1 if proposals else 0) > 1:
                items: list[Any] = [("invitation", s) for s, _ in invites]
                if proposals:
                    items.append("proposals")
                turns.append(r)
                self._queue.append(decision_of((r, "sort", tuple(items), NO_CONTEXT)))
            elif invites:
                self._invitation(r, invites[0][0])
            else:
                self._proposals(r)
            if self._queue:
                return
        self._end_correspondence()

    def _end_correspondence(self) -> None:
        p = self._pending
        p["reflecting"] = [
            s for s in range(self.n)
            if self.status[s] == AVAILABLE and s in p["refused"] and s not in p["touched"] and s not in p["received"]
        ]
        self.away.clear()  # every card goes home
        self._lent = [EMPTY] * self.n
        self.lying = [EMPTY] * self.n
        self.offers = [()] * self.n
        self._stage = self._next_reflection

    def _on_sort(self, decision: Decision, choice: Any) -> None:
        if choice == "proposals":
            self._proposals(decision.seat)
        else:
            self._invitation(decision.seat, choice[1])

    def _free(self, seat: int, *also: int) -> list[int]:
        """The cards in ``seat``'s hand it may send now: not lying on another board."""
        if also:
            return [c for c in self.hands[seat] if c not in self.away and c not in also]
        return list(filterfalse(self.away.__contains__, self.hands[seat]))

    def _invitation(self, r: int, s: int) -> None:
        invites = self._pending["inbox"][r]["invite"]
        at = self._invites[r].index(s)  # the public senders, in the same order
        c = invites.pop(at)[1]
        self._invites[r] = tuple(map(_first, invites))
        free = self._free(r)
        if self.status[s] != AVAILABLE or not free:
            self._pending["refused"].add(s)
            return
        self._queue.append(decision_of((r, "invitation", Answers(free), MappingProxyType({"from": s}))))
        self._pending["current"] = (r, s, c)

    def _on_invitation(self, decision: Decision, choice: Any) -> None:
        t, s, c = self._pending.pop("current")
        if choice == "refuse":
            self._pending["refused"].add(s)  # returned unseen
            return
        # Accepting is answering: the reply card goes to the sender's board, the
        # invitation card into the recipient's hand to read.
        reply = choice[1]
        self._see(t, s, c)
        self._see(s, t, reply)
        self.lying[t] = self.lying[t] | {c}
        self.lying[s] = self.lying[s] | {reply}
        self.away.add(reply)
        self._lent[t] = self._lent[t] | {reply}
        self._pending["received"].add(s)

    def _proposals(self, r: int) -> None:
        """Every proposal on ``r``'s board at once (peeked at on arrival): accept one or none."""
        p = self._pending
        offers = p["inbox"][r]["propose"]
        p["inbox"][r]["propose"] = []
        self._proposers[r] = ()
        live = [(s, c) for s, c in offers if self.status[s] == AVAILABLE]
        p["refused"].update(s for s, _ in offers if (s, _) not in live)
        if not live or not self._free(r):
            p["refused"].update(s for s, _ in live)
            return
        options = tuple(["refuse"] + [("accept", s) for s, _ in live])
        self._queue.append(decision_of((r, "proposal", options, MappingProxyType({"offers": tuple(live)}))))

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
        self._queue.insert(0, decision_of((r, "give", tuple(self._free(r)), MappingProxyType({"to": s, "card": card}))))
        p["trade"] = (r, s, card)

    def _on_give(self, decision: Decision, choice: int) -> None:
        r, s, card = self._pending.pop("trade")
        self._trade(r, s, choice, card)
        self._engage(r, s)
        # Mutual proposals: if r had proposed to s too, s may accept as well.
        mine = [(t, c) for t, c in self._pending["inbox"][s]["propose"] if t == r]
        if mine:
            self._pending["inbox"][s]["propose"].remove(mine[0])
            self._proposers[s] = tuple([t for t, _ in self._pending["inbox"][s]["propose"]])
            ring_card = mine[0][1]
            free = self._free(s, choice)  # "you cannot send a card you received this turn"
            if free:
                self._queue.insert(0, decision_of((s, "mutual", ("refuse", *free), MappingProxyType({"from": r, "card": ring_card, "received": choice}))))

    def _on_mutual(self, decision: Decision, choice: Any) -> None:
        s, r, ring_card = decision.seat, decision.context["from"], decision.context["card"]
        if choice != "refuse":
            self._trade(s, r, choice, ring_card)

    def _trade(self, r: int, s: int, from_r: int, from_s: int) -> None:
        """``r`` gives ``from_r`` to ``s`` for ``from_s``: the two see both
        cards; the others see a trade, not which cards."""
        away = self.away
        if from_r in away:
            away.discard(from_r)
            self._lent[r] = self._lent[r] - {from_r}
        if from_s in away:
            away.discard(from_s)
            self._lent[s] = self._lent[s] - {from_s}
        self.hands[r].remove(from_r)
        self.hands[s].remove(from_s)
        self.hands[r].append(from_s)
        self.hands[s].append(from_r)
        for a, b, c, gone in ((r, s, from_r, from_s), (s, r, from_s, from_r)):
            self._know(a, b, self.known[a][b] - {gone})
            self._see(a, b, c)
            self.lying[a] = self.lying[a] - {gone}
            self._own_hand_changed(a)
            self._changed_unseen(a, b)

    def _engage(self, r: int, s: int) -> None:
        self._set_status(r, ENGAGED)
        self._set_status(s, ENGAGED)
        self.fiance[r], self.fiance[s] = s, r
        self._fiance_view = tuple(self.fiance)
        self._pending["received"].update((r, s))

    # -- reflection ---------------------------------------------------------------

    def _next_reflection(self) -> None:
        self._mail_view = None
        p = self._pending
        while p["reflecting"]:
            seat = p["reflecting"].pop(0)
            if self.draw_pile:
                self._queue.append(decision_of((seat, "draw", ("draw", "pass"), NO_CONTEXT)))
                return
        self._stage = self._end_round

    def _on_draw(self, decision: Decision, choice: str) -> None:
        if choice == "pass":
            return
        seat = decision.seat
        drawn = self.drawing = self.draw_pile.pop()  # chance: the pile was shuffled at the deal
        self._changed_unseen(seat)  # the others see a draw, not whether the card was kept
        options = tuple(["keep"] + [("swap", c) for c in self.hands[seat]])
        self._queue.insert(0, decision_of((seat, "reflect", options, MappingProxyType({"drawn": drawn}))))

    def _on_reflect(self, decision: Decision, choice: Any) -> None:
        seat, drawn = decision.seat, decision.context["drawn"]
        self.drawing = None
        gone = drawn if choice == "keep" else choice[1]
        if choice != "keep":
            self.hands[seat][self.hands[seat].index(gone)] = drawn
            self._own_hand_changed(seat)
        self.discards.append(gone)
        self.discarded[seat] = self.discarded[seat] | {gone}

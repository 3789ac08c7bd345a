"""The evening post and matrimony.

Evening: every letterbox is opened at once, so each recipient sees all its
letters (and rings) before answering any. Rings are answered first, a
recipient's rings together: accept one (the rest go back) or reject them
all; a recipient whose own ring is away waits for it, and if every waiting
recipient waits on another, the ring held nearest the host goes back first
(the FAQ). Then letters, recipient by recipient from the host, in the order
the recipient chooses (asked only when a letter's on-receipt power makes the
order matter). Then the scorned, whose letterbox got nothing that morning.
No letter power touches a ring, so answering rings first changes nothing a
seat could have chosen.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import partial
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from pnp.engine.api import Decision, decision_of

from .cards import AtMatrimony, score_players
from .powers import Powers
from .table import AT_SCORNED, AT_SUPPLY, Step
from .views import EMPTY, Subsets

_LETTER = itemgetter(2)
"""A post item's letter: (recipient, sender, letter)."""


class Evening(Powers):
    def _evening(self) -> None:
        """Open every letterbox: recipients see their letters; own letters go home."""
        self._opened, self.stage = True, "evening"
        seen = self._post_seen
        for item in list(self._letters):
            r, _, c = item
            self._show(r, c)
            seen[r] += (item,)
            if r == self.owner[c]:
                self._unpost(item)
                self._put(r, c)
        self._then(self._next_ring, self._next_letter, self._next_scorned)

    # -- rings ---------------------------------------------------------------------

    def _next_ring(self) -> None:
        """Answer the rings: a recipient whose own ring is away waits for it."""
        while self._rings:
            ready = next((r for r, _ in self._rings if self.fiance[r] >= 0 or self.ring[r] == r), None)
            if ready is None:  # everyone waits on someone: the host's side rejects first
                r, s = min(self._rings)
                self._rings.remove((r, s))
                self._ring_home(s)
                continue
            senders = tuple(s for r, s in self._rings if r == ready)
            if self.fiance[ready] >= 0:  # engaged meanwhile: the rings come back
                self._return_rings(ready, senders, None)
                continue
            self._ask(ready, "ring", ("reject", *(("accept", s) for s in senders)), {"from": senders})
            self._steps.insert(0, self._next_ring)  # _then, without a call
            return

    def _return_rings(self, r: int, senders: tuple[int, ...], accepted: int | None) -> None:
        for s in senders:
            self._rings.remove((r, s))
            if s != accepted:
                self._ring_home(s)
        if accepted is not None:
            self._engage(r, accepted)
        self._pub = None

    def _on_ring(self, decision: Decision, choice: Any) -> None:
        self._return_rings(decision.seat, decision.context["from"], None if choice == "reject" else choice[1])

    # -- letters -------------------------------------------------------------------

    def _next_letter(self) -> None:
        letters = self._letters
        if not letters:
            return
        first = min(letters)  # the host's side first; a recipient's letters by sender
        if len(letters) > 1 and not self._receipt_cards.isdisjoint(map(_LETTER, letters)):  # some letter in the post has one
            r = first[0]
            mine = sorted([(s, c) for rr, s, c in letters if rr == r])
            if len(mine) > 1 and not self._receipt_cards.isdisjoint([c for _, c in mine]):
                self._ask(r, "open", tuple([c for _, c in mine]))  # _on_open goes on
                return
        self._open(*first)

    def _on_open(self, decision: Decision, choice: int) -> None:
        self._open(decision.seat, next(s for r, s, c in self._letters if c == choice), choice)

    def _open(self, r: int, s: int, c: int) -> None:
        """Answer letter ``c``: its on-receipt powers first, then relate or attend."""
        self._pending_letter = (r, s, c)
        if c in self._receipt_cards:
            self._then(*[partial(self._use_power, r, c, p) for p in self._powers(c, "on-receipt")], self._ask_letter, self._next_letter)
        else:  # nothing happens before the letter is answered: asked now (_ask_letter, without a call)
            options = ("relate", "attend") if self.supply[r] > 0 else ("attend",)
            self._queue.append(decision_of((r, "letter", options, MappingProxyType({"from": s, "letter": c}))))
            self._steps.insert(0, self._next_letter)  # _then, without a call

    def _ask_letter(self) -> None:
        r, s, c = self._pending_letter
        options = ("relate", "attend") if self.supply[r] > 0 else ("attend",)
        self._queue.append(decision_of((r, "letter", options, MappingProxyType({"from": s, "letter": c}))))  # _ask, written out

    def _on_letter(self, decision: Decision, choice: str) -> None:
        r, s, c = letter = self._pending_letter
        at = self._letters.index(letter)  # in the post until now: _unpost, without a call
        del self._letters[at]
        posted = self._posted
        self._posted = posted[:at] + posted[at + 1:]
        owner = self.owner[c]
        holder = r if choice == "relate" else owner  # related: kept; attended: back to its owner
        if choice == "relate":
            self.supply[r] -= 1
            self.received[owner].append(r)
            self._public_changed(AT_SUPPLY, tuple(self.supply), tuple(map(tuple, self.received)))  # supply, then received
        self.hands[holder].append(c)  # _put, without a call
        backs = self._back[holder]
        at = bisect_right(backs, owner)
        self._back[holder] = backs[:at] + (owner,) + backs[at:]
        places, views = self._places, self._places_view  # _place, for the sender and the recipient, without a call
        for seat in (s, r) if holder == owner else (s,):
            if seat != holder:
                places[seat][c] = holder
                views[seat] = None
                self._placed.add(c)

    # -- the scorned ---------------------------------------------------------------

    def _next_scorned(self) -> None:
        while self._scorned:
            seat = self._scorned.pop(0)
            self._public_changed(AT_SCORNED, tuple(self._scorned))
            if self.deck:
                self._queue.append(decision_of((seat, "scorned", ("reflect", "skip"), EMPTY)))  # _ask, without a call
                self._steps.insert(0, self._next_scorned)  # _then, without a call
                return

    def _on_scorned(self, decision: Decision, choice: str) -> None:
        if choice == "reflect":
            self._reflect(decision.seat, None)

    # -- matrimony --------------------------------------------------------------------

    def _matrimony(self) -> None:
        """Commitments ("at matrimony"), then step 1: every letter goes home but
        those held by its owner's fiance; then step 2: the gifts."""
        self.stage = "matrimony"
        for holder in range(self.n):
            self._ask_commits(holder)
        self._then(self._go_home)

    def _ask_commits(self, holder: int) -> None:
        by_kind = self._by_kind
        for card in self.hands[holder]:
            for power in by_kind[card].get("commitment", ()):
                if power["effect"]["what"] == "this":  # "you may commit this letter"
                    self._ask(holder, "commit", ("skip", card), {"letter": card})
                else:  # "you may commit one letter from your hand"
                    self._ask(holder, "commit", ("skip", *self.hands[holder]), {"letter": card})

    def _on_commit(self, decision: Decision, choice: Any) -> None:
        if choice != "skip" and choice not in self.committed and choice in self.hands[decision.seat]:
            self.committed[choice] = decision.seat
            self._tail[decision.seat] = None
            self._used(decision.context["letter"])

    def _go_home(self) -> None:
        for holder, hand in enumerate(self.hands):
            for c in list(hand):
                owner = self.owner[c]
                if c in self.committed or owner == holder or self.fiance[holder] == owner:
                    continue
                self._take(holder, c)
                self._put(owner, c)
        self._gifts = {}
        for seat in range(self.n):
            if self.fiance[seat] >= 0:
                self._gifts[seat] = []
                self._ask_gift(seat)
        self._then(self._score)

    def _ask_gift(self, seat: int) -> None:
        own = [c for c in self.hands[seat] if self.owner[c] == seat and c not in self.committed]
        if own:
            self._ask(seat, "gift", Subsets(own), {"to": self.fiance[seat]})

    def _on_gift(self, decision: Decision, choice: tuple[int, ...]) -> None:
        self._gifts[decision.seat] = list(choice)

    def _score(self) -> None:
        for seat, gifts in self._gifts.items():  # revealed together
            for c in gifts:
                self.hands[seat].remove(c)
                self.hands[self.fiance[seat]].append(c)
        self.fronts = [[c for c in hand if c not in self.committed] for hand in self.hands]
        for c, seat in self.committed.items():
            self.fronts[seat].append(c)
        self._backs_again()
        suits = self.pack.letters
        self.scores = score_players(self.pack, [
            AtMatrimony(self.desires[s], tuple([suits[c].suit for c in self.fronts[s]]), len(self.received[s]), self.fiance[s])
            for s in range(self.n)
        ])
        self.over = True

    def matrimony(self) -> tuple[list[int], list[str], list[list[int]]]:
        """Play matrimony now with no commitments and no gifts: points, status, fronts
        (a shortcut for tests)."""
        self._queue.clear()
        self._gifts = {}
        self.committed = {}
        self._tail = [None] * self.n
        self._go_home()
        self._queue.clear()
        self._gifts = {}
        self._score()
        return [s.points for s in self.scores], ["engaged" if f >= 0 else "available" for f in self.fiance], self.fronts

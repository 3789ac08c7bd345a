"""Letter powers: what each printed power does, and the trades, peeks and
discards they ask for. Pronouns follow the source: "I" is the letter's
owner (its seal), "you" its holder, "they" a third player."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from pnp.engine.api import Decision, EngineError

from .table import Step, Table


class Powers(Table):
    def _at_start(self) -> None:
        """"At start" powers, once every player has drawn (and every rule change is
        in force), clockwise from the host. Letters drawn by them are ignored."""
        steps: list[Step] = []
        by_kind = self._by_kind
        for seat in range(self.n):
            for card in list(self.hands[seat]):
                for power in by_kind[card].get("at-start", ()):
                    steps.append(partial(self._use_power, seat, card, power))
        self._then(*steps)

    def _use_power(self, user: int, card: int, power: Mapping[str, Any]) -> None:
        """What each printed power does. ``user`` takes it; the letter's owner is "I"."""
        effect, owner = power["effect"], self.owner[card]
        kind = effect["type"]
        holder, letters = user, self.pack.letters
        self._note(f"seat {user} uses {letters[card].id}")
        self._used(card)
        if kind == "draw":  # "I draw a letter": the owner draws, sealing it
            for _ in range(int(effect["count"])):
                drawn = self._draw(owner)
                if drawn is not None:
                    self._note(f"seat {owner} draws {letters[drawn].id}")
        elif kind == "peek" and effect["at"] == "deck":  # "I look at the top 3 letters of the deck"
            top = tuple(reversed(self.deck[-int(effect["count"]):]))
            for c in top:
                self._learn(user, c)
            self._deck_seen[user] = top
            self._tail[user] = None
        elif kind == "peek" and effect["at"] == "desires":  # "I look at one suitor's desires card"
            self._ask(user, "peek-desires", [p for p in range(self.n) if p != user], {"letter": card})
        elif kind == "peek" and effect["at"] == "hand":  # holder: "look at 2 letters in my hand"
            if self._prevents(owner, "peek"):
                self._prevented(card, holder)
                return
            cards = self.hands[owner]
            for c in self.rng.sample(cards, min(int(effect["count"]), len(cards))):  # chosen face down
                self._show(holder, c)
                self._place(holder, c, owner)
        elif kind == "trade" and effect["with"] == "owner":  # holder: "trade a letter from your hand for one from mine"
            self._start_trade(user, owner, card)
        elif kind == "trade":  # owner: "I trade a letter from my hand for one of theirs"
            partners = [p for p in range(self.n) if p != user and self.hands[p]]
            if partners:
                self._ask(user, "trade-partner", partners, {"letter": card})
        elif kind == "discard":  # "discard a letter from your hand": the holder chooses
            if self.hands[holder]:
                self._ask(holder, "discard", list(self.hands[holder]), {"letter": card})
        elif kind == "reward-heart":  # "reward me one of your hearts"
            to = owner if effect["to"] == "owner" else holder
            if holder != to and self.supply[holder] > 0:
                self.supply[holder] -= 1
                self.received[to].append(holder)
                self._pub = None
        elif kind == "return-heart":  # "I return one of your hearts to you"
            giver = holder if effect["from"] == "holder" else owner
            keeper = owner if giver == holder else holder
            if giver in self.received[keeper]:
                self.received[keeper].remove(giver)
                self.supply[giver] += 1
                self._pub = None
        else:
            raise EngineError(f"{self.pack.letters[card].id}: the engine cannot use a {power['kind']} {kind} power")

    def _use_if_held(self, user: int, card: int, power: Mapping[str, Any]) -> None:
        if card in self.hands[user]:  # an earlier power this morning may have moved it
            self._use_power(user, card, power)

    def _prevents(self, seat: int, against: str) -> bool:
        """Is ``seat`` protected from a suitor's ``against`` power (counted as a use of the protection)?"""
        shield = self.protector(seat, against)
        if shield is not None:
            self._used(shield)
        return shield is not None

    def _prevented(self, card: int, holder: int) -> None:
        """A protection stopped a power: the letter that carried it goes home."""
        owner = self.owner[card]
        self._note(f"{self.pack.letters[card].id} is prevented")
        if holder != owner and card in self.hands[holder]:
            self._take(holder, card)
            self._give(owner, card)
            if owner in self._scorned:  # returned to the owner's letterbox: not empty
                self._scorned.remove(owner)
                self._pub = None

    def _tradeable(self, seat: int, user: int, power_letter: int) -> list[int]:
        """Letters ``seat`` may give in a trade ``user`` makes: not the power's own
        letter, nor a letter whose owner is protected from suitors' trades."""
        return [c for c in self.hands[seat] if c != power_letter and (self.owner[c] == user or not self.protected(self.owner[c], "trade"))]

    def _start_trade(self, user: int, partner: int, card: int) -> None:
        mine, theirs = self._tradeable(user, user, card), self._tradeable(partner, user, card)
        if not mine or not theirs:
            shields = {self.protector(self.owner[c], "trade") for c in self.hands[partner] + self.hands[user] if self.owner[c] != user}
            for shield in sorted(s for s in shields if s is not None):  # a protection against trades stopped this one
                self._used(shield)
            self._prevented(card, user)
            return
        self._trade = {"user": user, "partner": partner, "letter": card}
        self._ask(user, "trade-give", mine, {"to": partner, "letter": card})

    def _on_trade_partner(self, decision: Decision, choice: int) -> None:
        self._start_trade(decision.seat, choice, decision.context["letter"])

    def _on_trade_give(self, decision: Decision, choice: int) -> None:
        t = self._trade
        if decision.seat == t["user"]:
            t["given"] = choice
            # The partner learns who trades, not which letter carried the power (its suit stays covered).
            self._ask(t["partner"], "trade-give", self._tradeable(t["partner"], t["user"], t["letter"]), {"to": t["user"]})
            return
        user, partner, mine = t["user"], t["partner"], t["given"]
        self._take(user, mine)
        self._take(partner, choice)
        self._give(user, choice)
        self._give(partner, mine)
        self._show(user, choice)
        self._show(partner, mine)
        self._place(user, mine, partner)
        self._place(partner, choice, user)
        self._note(f"seat {user} trades {self.pack.letters[mine].id} for seat {partner}'s {self.pack.letters[choice].id}")

    def _on_peek_desires(self, decision: Decision, target: int) -> None:
        if self._prevents(target, "peek"):
            self._note(f"seat {decision.seat}'s peek at seat {target} is prevented")
            return
        self._peeked[decision.seat][target] = self.desires[target]
        self._tail[decision.seat] = None

    def _on_discard(self, decision: Decision, choice: int) -> None:
        self._take(decision.seat, choice)
        self._discard(choice)

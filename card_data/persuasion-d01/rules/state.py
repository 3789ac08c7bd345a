"""Persuasion D01: the rules, matrimony, and what each seat sees.

The readings chosen where the printed rules leave room are listed, with the
sentence of the source rules each rests on, in the game's RULES-NOTES.md
(``card_data/persuasion-d01/RULES-NOTES.md``). In short:

- Setup builds the letter deck and the desires deck suit by suit from the
  tables; each player draws 5 letters (one more for each hand-size letter they
  own), a desires card and 3 hearts. At-start powers then resolve, after every
  rule change is in force.
- Morning actions are chosen seat by seat from each seat's own observation and
  revealed together. Break-ups and the post (letters, rings) happen first, then
  reflections and powers clockwise from the host (the stalemate rule).
- Evening (``evening.py``): two rings sent to each other engage at once.
  Every letterbox opens at once; a recipient answers its rings together
  (accept one or none) once its own ring is home, then its letters in the
  order it chooses. The scorned, whose letterbox got nothing that morning,
  may reflect.
- Matrimony: commitments first (the holder of a commitment letter decides),
  then every letter goes home except those its holder's fiance owns, then each
  engaged player chooses which of their own letters to give their fiance.
  Scoring is :func:`score_players`, the one scorer ``pnp score`` uses too.
- Powers do what the printed letter says: see ``powers.py``.

The table itself (where everything is, who has seen what) is ``table.py``;
this module deals a new game and plays the morning.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from pnp.engine.api import Decision, Outcome, decision_of, sample, shuffle

from .cards import AtMatrimony, Desire, Letter, Pack, Score, pack_from_game, score_players, unique_met
from .evening import Evening
from .views import EMPTY, MorningOptions, Observation, Subsets, morning_options

MORNING = ("write", "reflect", "propose", "break", "power")
"""Every kind of morning action (``Outcome.actions``). "rest", offered when a
seat has nothing else, never comes: a free seat's ring is home every morning,
so it may propose, and an engaged seat may break off."""


class D01State(Evening):
    def __init__(self, pack: Pack, players: int, rng: random.Random, day_cap: int = 80, check_moves: bool = True, deal: bool = True):
        super().__init__(pack, players, rng, day_cap, check_moves)
        self._handlers = {
            "morning": self._on_morning, "ring": self._on_ring, "letter": self._on_letter, "open": self._on_open,
            "keep": self._on_keep, "scorned": self._on_scorned, "peek-desires": self._on_peek_desires,
            "trade-partner": self._on_trade_partner, "trade-give": self._on_trade_give,
            "discard": self._on_discard, "commit": self._on_commit, "gift": self._on_gift,
        }
        if deal:
            self._deal(rng)

    def _deal(self, rng: random.Random) -> None:
        pack, players = self.pack, self.n
        letters = pack.letters
        per = pack.deck_per_suit[players]
        deck: list[int] = []
        for suit in pack.suits:
            of_suit = self._letters_of[suit]
            deck += sample(of_suit, min(per, len(of_suit)), rng)  # chance: which letters play (rng.sample's draws)
        shuffle(deck, rng)
        wanted = pack.desires_per_suit[players]
        desires_deck = [d for suit in pack.suits for d in sample(self._desires_of[suit], wanted.get(suit, 0), rng)]
        shuffle(desires_deck, rng)
        self.deck = deck
        self.box = sorted(set(range(len(pack.letters))).difference(deck))
        self.desires = desires_deck[:players]
        for seat in range(players):  # each draws its hand from the top, as _draw would, card by card
            drawn = deck[-1:-1 - pack.hand:-1]
            del deck[len(deck) - len(drawn):]
            self.hands[seat] += drawn
            known, owners = self._known[seat], self._owners[seat]  # _learn, for a seat that has seen nothing yet
            for card in drawn:
                self.owner[card] = owners[card] = seat
                known[card] = letters[card]
            self._known_view[seat] = None
            self._back_of(seat)
        for seat in range(players):  # "my hand holds one letter more than usual"
            while len(self.hands[seat]) < self.hand_limit(seat) and self._draw(seat) is not None:
                for c, _ in self._growers:
                    if self.owner[c] == seat:
                        self._used(c)
        self._steps = [self._at_start, self._start_day]

    def outcome(self) -> Outcome:
        ids = self.pack.letters
        status = tuple(["engaged" if f >= 0 else "available" for f in self.fiance])
        scores = self.scores
        return Outcome(
            tuple([s.wins for s in scores]), status, self.day, self.capped,
            tuple([tuple([ids[c].id for c in front]) for front in self.fronts]), tuple([float(s.points) for s in scores]),
            dict(self.actions), powers=dict(self.powers),
        )

    # -- the morning -----------------------------------------------------------------

    def _start_day(self) -> None:
        self.day += 1
        self.stage = "morning"
        if self.day > self.day_cap:  # a stalled game: matrimony as it stands
            self.capped = True
            self._then(self._matrimony)
            return
        self._morning = {}
        queue, options = self._queue, self._morning_options
        for seat in range(self.n):  # _ask, without a call each
            queue.append(decision_of((seat, "morning", options(seat), EMPTY)))
        self._steps.insert(0, self._reveal)  # _then, without a call

    def _morning_options(self, seat: int) -> MorningOptions:
        hand = tuple(self.hands[seat])
        fiance = self.fiance[seat]
        received = self.received[seat]
        powers: tuple[int, ...] = ()
        morning = self._morning_cards
        if not morning.isdisjoint(hand):  # few letters have a morning power
            by_kind, owner = self._by_kind, self.owner
            powers = tuple([
                c for c in hand if c in morning
                for power in by_kind[c].get("owner-morning" if owner[c] == seat else "holder-morning", ())
                if self._usable(seat, c, power)
            ])
        return morning_options(
            hand, self._suitors[seat], tuple(sorted(set(received))) if received and self.deck else (),
            fiance < 0 and self.ring[seat] == seat, fiance >= 0, powers,
        )

    def _usable(self, seat: int, card: int, power: Any) -> bool:
        effect = power["effect"]
        if effect["type"] == "peek" and effect["at"] == "deck":
            return bool(self.deck)
        if effect["type"] == "trade":
            return len(self.hands[seat]) > 1
        return True

    def _on_morning(self, decision: Decision, choice: tuple[Any, ...]) -> None:
        self._morning[decision.seat] = choice
        actions, kind = self.actions, choice[0]  # counted for Outcome.actions
        actions[kind] = actions.get(kind, 0) + 1

    def _reveal(self) -> None:
        """Morning actions revealed: break-ups and the post first, then
        reflections and powers clockwise from the host (kept as public data,
        ``_later``), then the evening."""
        self.stage = "reveal"
        letters: list[tuple[int, int, int]] = []
        self._letters, rings, self._later = letters, [], []
        posted: list[tuple[int, int, int]] = []  # the letters' backs (public)
        seen = self._post_seen = [()] * self.n  # each sender sees its own letter
        delivered: set[int] = set()  # seats an item is delivered to this morning
        self._opened = False
        was = list(self.fiance)
        for seat in range(self.n):
            choice = self._morning[seat]
            kind = choice[0]
            if kind == "write":
                _, target, card = choice
                self._take(seat, card)
                letters.append(item := (target, seat, card))
                posted.append((target, seat, self.owner[card]))
                seen[seat] = (item,)
                delivered.add(target)
            elif kind == "propose":
                rings.append((choice[1], seat))
                self.ring[seat] = -1 - choice[1]
                delivered.add(choice[1])
            elif kind == "break":
                partner = self.fiance[seat]
                delivered.add(was[seat])  # their ring goes back to their letterbox
                if partner >= 0:  # both may break off the same morning: once is enough
                    self.ring[seat], self.ring[partner] = seat, partner
                    self.fiance[seat] = self.fiance[partner] = -1
            elif kind == "reflect":
                self._later.append((seat, "reflect", choice[1]))
                delivered.add(choice[1])  # the heart goes back to its owner's letterbox
            elif kind == "power":
                card = choice[1]
                own = self.owner[card] == seat
                for other in range(self.n):  # shown to explain the action: its power names it
                    self._learn(other, card)
                    self._place(other, card, seat)
                for power in self._powers(card, "owner-morning" if own else "holder-morning"):
                    self._later.append((seat, "power", card, self.pack.letters[card].powers.index(power)))
        self._posted = tuple(posted)
        self._scorned = [seat for seat in range(self.n) if seat not in delivered]
        self._pub = None
        sent = set(rings)
        for r, s in sorted(rings):  # mutual proposals accept themselves
            if (s, r) in sent and self.fiance[r] < 0 and self.fiance[s] < 0:
                self._engage(r, s)
        self._rings = [(r, s) for r, s in sorted(rings) if self.fiance[s] != r]
        self._then(self._next_morning, self._evening, self._end_day)

    def _next_morning(self) -> None:
        """The revealed reflections and powers, one by one, clockwise from the host."""
        while self._later and not self._queue:
            seat, kind, *rest = self._later.pop(0)
            self._pub = None
            if kind == "reflect":
                self._reflect(seat, rest[0])
            else:
                card, index = rest
                self._use_if_held(seat, card, self.pack.letters[card].powers[index])
        if self._later:
            self._then(self._next_morning)

    def _end_day(self) -> None:
        engaged = self.n - self.fiance.count(-1)  # a fiance is a seat, or -1
        if not self.deck or engaged >= self.n - 1:
            self._then(self._matrimony)
        else:
            self._then(self._start_day)


__all__ = ["D01State", "Pack", "Letter", "Desire", "Observation", "AtMatrimony", "Score", "Subsets", "pack_from_game", "score_players", "unique_met", "MORNING"]

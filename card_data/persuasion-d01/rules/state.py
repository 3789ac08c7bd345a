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
- Evening: two rings sent to each other engage at once. A ring waits while its
  recipient's own ring is away; it is answered once that ring comes home (or
  returned if the recipient got engaged). If every waiting ring waits on
  another, the host's side rejects first (the FAQ). Letters are answered
  recipient by recipient from the host.
- Matrimony: commitments first (the holder of a commitment letter decides),
  then every letter goes home except those its holder's fiance owns, then each
  engaged player chooses which of their own letters to give their fiance.
  Scoring is :func:`score_players`, the one scorer ``pnp score`` uses too.
- Powers do what the printed letter says: see :meth:`D01State._use_power`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from types import MappingProxyType
from typing import Any

from pnp.engine.api import Decision, EngineError, Outcome, QueuedState, shuffle

from .cards import AtMatrimony, Desire, Letter, Pack, Score, pack_from_game, score_players, unique_met
from .views import EMPTY, Observation, Subsets


PowerIndex = tuple[dict[str, tuple[int, ...]], tuple[tuple[int, int], ...], tuple[dict[str, list[Mapping[str, Any]]], ...]]
_INDEXES: dict[int, tuple[Pack, PowerIndex]] = {}


def _index(pack: Pack) -> PowerIndex:
    """Which letters protect, which change the hand size, and each letter's
    powers by kind: worked out once per pack."""
    cached = _INDEXES.get(id(pack))
    if cached is not None and cached[0] is pack:
        return cached[1]
    letters = pack.letters
    protectors = {
        kind: tuple(i for i, L in enumerate(letters) for p in L.powers if p["effect"]["type"] == "protect" and p["effect"]["against"] in (kind, "all"))
        for kind in ("peek", "trade")
    }
    growers = tuple((i, int(p["effect"]["delta"])) for i, L in enumerate(letters) for p in L.powers if p["effect"]["type"] == "hand-size")
    by_kind: list[dict[str, list[Mapping[str, Any]]]] = [{} for _ in letters]
    for i, L in enumerate(letters):
        for p in L.powers:
            by_kind[i].setdefault(p["kind"], []).append(p)
    index = (protectors, growers, tuple(by_kind))
    _INDEXES[id(pack)] = (pack, index)
    return index

Step = Callable[[], None]
_new = tuple.__new__


class D01State(QueuedState):
    def __init__(self, pack: Pack, players: int, rng: random.Random, day_cap: int = 80, check_moves: bool = True):
        if players not in pack.deck_per_suit:
            raise EngineError(f"the deck table has no entry for {players} players")
        self.pack, self.n, self.rng, self.day_cap = pack, players, rng, day_cap
        self.check_moves = check_moves
        per = pack.deck_per_suit[players]
        deck: list[int] = []
        for suit in pack.suits:
            of_suit = [i for i, card in enumerate(pack.letters) if card.suit == suit]
            deck += rng.sample(of_suit, min(per, len(of_suit)))  # chance: which letters play
        shuffle(deck, rng)
        wanted = pack.desires_per_suit[players]
        desires_deck = [d for suit in pack.suits for d in rng.sample([x for x in pack.desires if x.suit == suit], wanted.get(suit, 0))]
        shuffle(desires_deck, rng)
        self.deck = deck
        """The letter deck; its top is the end of the list."""
        in_deck = set(deck)
        self.box = [i for i in range(len(pack.letters)) if i not in in_deck]
        self.discards: list[int] = []
        self.owner = [-1] * len(pack.letters)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.desires = desires_deck[:players]
        self.supply = [pack.hearts] * players
        self.received: list[list[int]] = [[] for _ in range(players)]
        self.ring = list(range(players))
        """Where each seat's ring is: its own seat (home), the seat holding it, or -1 - recipient in the post."""
        self.fiance = [-1] * players
        self.committed: dict[int, int] = {}
        """Committed letters and the player they lie in front of."""
        self.day = 0
        self.over = False
        self.capped = False
        self.actions: dict[str, int] = {}
        self.log: list[str] = []
        """What happened, in words, for playthroughs (only when ``record`` is set)."""
        self.record = False
        self.fronts: list[list[int]] = []
        self.scores: list[Score] = []
        self._queue: list[Decision] = []
        self._steps: list[Step] = []
        self._letters: list[tuple[int, int, int]] = []  # (recipient, sender, letter) in the post
        self._rings: list[tuple[int, int]] = []  # (recipient, proposer) waiting for an answer
        self._scorned: list[int] = []
        self._morning: dict[int, tuple[Any, ...]] = {}
        self._gifts: dict[int, list[int]] = {}
        self._protectors, self._growers, self._by_kind = _index(pack)
        self._known: list[dict[int, Letter]] = [{} for _ in range(players)]
        self._owners: list[dict[int, int]] = [{} for _ in range(players)]
        self._known_view: list[Mapping[int, Letter] | None] = [EMPTY] * players
        self._owners_view: list[Mapping[int, int]] = [EMPTY] * players
        self._seen_suits: list[tuple[tuple[str, ...], ...]] = [((),) * players for _ in range(players)]
        self._peeked: list[dict[int, Desire]] = [{} for _ in range(players)]
        self._deck_seen: list[tuple[int, ...]] = [()] * players
        self._notes: list[dict[Any, Any]] = [{} for _ in range(players)]
        self._pub: tuple[Any, ...] | None = None
        self._handlers = {
            "morning": self._on_morning, "ring": self._on_ring, "letter": self._on_letter,
            "keep": self._on_keep, "scorned": self._on_scorned, "peek-desires": self._on_peek_desires,
            "trade-partner": self._on_trade_partner, "trade-give": self._on_trade_give,
            "discard": self._on_discard, "commit": self._on_commit, "gift": self._on_gift,
        }
        for seat in range(players):
            for _ in range(pack.hand):
                self._draw(seat)
        for seat in range(players):  # "my hand holds one letter more than usual"
            while len(self.hands[seat]) < self.hand_limit(seat) and self._draw(seat) is not None:
                pass
        self._stage = self._run_steps
        self._steps = [self._at_start, self._start_day]

    # -- interface (decision, apply: QueuedState) -----------------------------------

    def observation(self, seat: int) -> Observation:
        supply, received, fiances, rings, discards = self._pub or self._public()
        known = self._known_view[seat]
        if known is None:  # made when first asked after the seat learnt something
            known = self._known_view[seat] = MappingProxyType(dict(self._known[seat]))
            self._owners_view[seat] = MappingProxyType(dict(self._owners[seat]))
        return _new(Observation, (  # tuple.__new__: no Python frame for the named tuple's own __new__
            seat, self.n, self.day, len(self.deck), tuple(self.hands[seat]), self.desires[seat],
            known, self._owners_view[seat], self._seen_suits[seat],
            MappingProxyType(dict(self._peeked[seat])) if self._peeked[seat] else EMPTY, self._deck_seen[seat],
            supply, received, fiances, rings, discards, self._notes[seat],
        ))

    def _public(self) -> tuple[Any, ...]:
        """Hearts, rings and discards as every seat sees them (kept until they change)."""
        self._pub = (
            tuple(self.supply), tuple(map(tuple, self.received)), tuple(self.fiance),
            tuple(r == s for s, r in enumerate(self.ring)), tuple(self.discards),
        )
        return self._pub

    def all_letters(self) -> list[int]:
        return [c for hand in self.hands for c in hand] + self.deck + self.box + self.discards + [c for (_, _, c) in self._letters]

    def outcome(self) -> Outcome:
        ids = self.pack.letters
        status = tuple("engaged" if f >= 0 else "available" for f in self.fiance)
        return Outcome(
            tuple(s.wins for s in self.scores), status, self.day, self.capped,
            tuple(tuple(ids[c].id for c in front) for front in self.fronts), tuple(float(s.points) for s in self.scores),
            dict(self.actions),
        )

    # -- rules in force ------------------------------------------------------------

    def in_play(self, letter: int) -> bool:
        """A letter with a seal that has not been discarded: its rule changes apply."""
        return self.owner[letter] >= 0 and letter not in self.discards

    def protected(self, seat: int, against: str) -> bool:
        """Does a rule-change letter ``seat`` owns keep suitors' ``against`` powers off them?"""
        return any(self.owner[c] == seat and self.in_play(c) for c in self._protectors[against])

    def hand_limit(self, seat: int) -> int:
        return self.pack.hand + sum(d for c, d in self._growers if self.owner[c] == seat and self.in_play(c))

    # -- helpers ----------------------------------------------------------------

    def _note(self, text: str) -> None:
        if self.record:
            self.log.append(text)

    def _learn(self, seat: int, letter: int) -> None:
        """``seat`` sees ``letter`` (its face and its seal)."""
        owner = self.owner[letter]
        if self._owners[seat].get(letter, -2) == owner:
            return
        self._known[seat][letter] = self.pack.letters[letter]
        self._owners[seat][letter] = owner
        self._known_view[seat] = None

    def _show(self, seat: int, letter: int) -> None:
        """``seat`` is shown ``letter`` by someone: it learns the letter and, if
        the letter is another player's own, that player's suit."""
        owner = self.owner[letter]
        if self._owners[seat].get(letter, -2) != owner:
            self._learn(seat, letter)
        if owner >= 0 and owner != seat:
            seen = self._seen_suits[seat]
            self._seen_suits[seat] = seen[:owner] + (seen[owner] + (self.pack.letters[letter].suit,),) + seen[owner + 1:]

    def _draw(self, seat: int) -> int | None:
        if not self.deck:
            return None
        card = self.deck.pop()
        self.owner[card] = seat
        self.hands[seat].append(card)
        self._learn(seat, card)
        return card

    def _give(self, seat: int, letter: int) -> None:
        self.hands[seat].append(letter)
        self._learn(seat, letter)

    def _discard(self, letter: int) -> None:
        self.discards.append(letter)
        self._pub = None
        for seat in range(self.n):  # the discard pile is public
            self._learn(seat, letter)

    def _count(self, kind: str) -> None:
        self.actions[kind] = self.actions.get(kind, 0) + 1

    def _powers(self, card: int, kind: str) -> Sequence[Mapping[str, Any]]:
        return self._by_kind[card].get(kind, ())

    def _ask(self, seat: int, kind: str, options: Sequence[Any], context: dict[str, Any] | None = None) -> None:
        self._queue.append(Decision(seat, kind, options if isinstance(options, (tuple, Subsets)) else tuple(options), MappingProxyType(context) if context else EMPTY))

    def _run_steps(self) -> None:
        """Run queued steps until one asks a decision (or the game ends)."""
        if not self._steps:
            raise EngineError("the game has nothing left to do but is not over")
        while self._steps and not self._queue and not self.over:
            self._steps.pop(0)()

    def _then(self, *steps: Step) -> None:
        """Run ``steps`` next, before anything already queued."""
        self._steps[0:0] = steps

    # -- powers ---------------------------------------------------------------

    def _at_start(self) -> None:
        """"At start" powers, once every player has drawn (and every rule change is
        in force), clockwise from the host. Letters drawn by them are ignored."""
        steps: list[Step] = []
        for seat in range(self.n):
            for card in list(self.hands[seat]):
                for power in self._powers(card, "at-start"):
                    steps.append(partial(self._use_power, seat, card, power))
        self._then(*steps)

    def _use_power(self, user: int, card: int, power: Mapping[str, Any]) -> None:
        """What each printed power does. ``user`` takes it; the letter's owner is "I"."""
        effect, owner = power["effect"], self.owner[card]
        kind = effect["type"]
        holder, letters = user, self.pack.letters
        self._note(f"seat {user} uses {letters[card].id}")
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
        elif kind == "peek" and effect["at"] == "desires":  # "I look at one suitor's desires card"
            self._ask(user, "peek-desires", [p for p in range(self.n) if p != user], {"letter": card})
        elif kind == "peek" and effect["at"] == "hand":  # holder: "look at 2 letters in my hand"
            if self.protected(owner, "peek"):
                self._prevented(card, holder)
                return
            cards = self.hands[owner]
            for c in self.rng.sample(cards, min(int(effect["count"]), len(cards))):  # chosen face down
                self._show(holder, c)
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

    def _prevented(self, card: int, holder: int) -> None:
        """A protection stopped a power: the letter that carried it goes home."""
        owner = self.owner[card]
        self._note(f"{self.pack.letters[card].id} is prevented")
        if holder != owner and card in self.hands[holder]:
            self.hands[holder].remove(card)
            self._give(owner, card)

    def _tradeable(self, seat: int, user: int, power_letter: int) -> list[int]:
        """Letters ``seat`` may give in a trade ``user`` makes: not the power's own
        letter, nor a letter whose owner is protected from suitors' trades."""
        return [c for c in self.hands[seat] if c != power_letter and (self.owner[c] == user or not self.protected(self.owner[c], "trade"))]

    def _start_trade(self, user: int, partner: int, card: int) -> None:
        mine, theirs = self._tradeable(user, user, card), self._tradeable(partner, user, card)
        if not mine or not theirs:
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
        self.hands[user].remove(mine)
        self.hands[partner].remove(choice)
        self._give(user, choice)
        self._give(partner, mine)
        self._show(user, choice)
        self._show(partner, mine)
        self._note(f"seat {user} trades {self.pack.letters[mine].id} for seat {partner}'s {self.pack.letters[choice].id}")

    def _on_peek_desires(self, decision: Decision, target: int) -> None:
        if self.protected(target, "peek"):
            self._note(f"seat {decision.seat}'s peek at seat {target} is prevented")
            return
        self._peeked[decision.seat][target] = self.desires[target]

    def _on_discard(self, decision: Decision, choice: int) -> None:
        self.hands[decision.seat].remove(choice)
        self._discard(choice)

    # -- the day -------------------------------------------------------------------

    def _start_day(self) -> None:
        self.day += 1
        if self.day > self.day_cap:  # a stalled game: matrimony as it stands
            self.capped = True
            self._then(self._matrimony)
            return
        self._morning = {}
        for seat in range(self.n):
            self._ask(seat, "morning", self._morning_options(seat))
        self._then(self._reveal)

    def _morning_options(self, seat: int) -> list[tuple[Any, ...]]:
        hand = self.hands[seat]
        suitors = [p for p in range(self.n) if p != seat]
        options: list[tuple[Any, ...]] = [("write", t, c) for c in hand for t in suitors]
        if self.received[seat] and self.deck:
            options += [("reflect", g) for g in sorted(set(self.received[seat]))]
        if self.fiance[seat] < 0 and self.ring[seat] == seat:
            options += [("propose", t) for t in suitors]
        if self.fiance[seat] >= 0:
            options.append(("break",))
        for c in hand:
            own = self.owner[c] == seat
            for power in self._powers(c, "owner-morning" if own else "holder-morning"):
                if self._usable(seat, c, power):
                    options.append(("power", c))
        if not options:
            options.append(("rest",))
        return options

    def _usable(self, seat: int, card: int, power: Mapping[str, Any]) -> bool:
        effect = power["effect"]
        if effect["type"] == "peek" and effect["at"] == "deck":
            return bool(self.deck)
        if effect["type"] == "trade":
            return len(self.hands[seat]) > 1
        return True

    def _on_morning(self, decision: Decision, choice: tuple[Any, ...]) -> None:
        self._morning[decision.seat] = choice
        self._count(choice[0])

    def _reveal(self) -> None:
        """Morning actions revealed: break-ups and the post first, then
        reflections and powers clockwise from the host."""
        self._letters, rings = [], []
        later: list[Step] = []
        for seat in range(self.n):
            choice = self._morning[seat]
            kind = choice[0]
            if kind == "write":
                _, target, card = choice
                self.hands[seat].remove(card)
                self._letters.append((target, seat, card))
            elif kind == "propose":
                rings.append((choice[1], seat))
                self.ring[seat] = -1 - choice[1]
                self._pub = None
            elif kind == "break":
                partner = self.fiance[seat]
                if partner >= 0:  # both may break off the same morning: once is enough
                    self.ring[seat], self.ring[partner] = seat, partner
                    self.fiance[seat] = self.fiance[partner] = -1
                    self._pub = None
            elif kind == "reflect":
                later.append(partial(self._reflect, seat, choice[1]))
            elif kind == "power":
                card = choice[1]
                own = self.owner[card] == seat
                for power in self._powers(card, "owner-morning" if own else "holder-morning"):
                    later.append(partial(self._use_if_held, seat, card, power))
        addressed = {r for r, _, _ in self._letters} | {r for r, _ in rings}
        self._scorned = [seat for seat in range(self.n) if seat not in addressed]
        sent = set(rings)
        for r, s in sorted(rings):  # mutual proposals accept themselves
            if (s, r) in sent and self.fiance[r] < 0 and self.fiance[s] < 0:
                self._engage(r, s)
        self._rings = [(r, s) for r, s in sorted(rings) if self.fiance[s] != r]
        self._then(*later, self._next_ring)

    def _reflect(self, seat: int, giver: int | None) -> None:
        if giver is not None and giver in self.received[seat]:
            self.received[seat].remove(giver)
            self.supply[giver] += 1
            self._pub = None
        drawn = self._draw(seat)
        if drawn is not None:
            options = ["drawn"] + [c for c in self.hands[seat] if c != drawn and self.owner[c] == seat]
            self._ask(seat, "keep", options, {"drawn": drawn})

    def _on_keep(self, decision: Decision, choice: Any) -> None:
        # Keep the hand's size: discard the drawn letter or the one it replaces.
        victim = decision.context["drawn"] if choice == "drawn" else choice
        self.hands[decision.seat].remove(victim)
        self._discard(victim)

    def _ring_home(self, seat: int) -> None:
        self.ring[seat] = seat
        self._pub = None

    def _engage(self, a: int, b: int) -> None:
        self.fiance[a], self.fiance[b] = b, a
        self.ring[a], self.ring[b] = b, a
        self._pub = None

    def _next_ring(self) -> None:
        """Answer the rings: a recipient whose own ring is away waits for it."""
        while self._rings:
            for r, s in self._rings:
                if self.fiance[r] >= 0 or self.ring[r] == r:
                    break
            else:  # everyone waits on someone: the host's side rejects first
                r, s = min(self._rings, key=lambda rs: (rs[0], rs[1]))
                self._rings.remove((r, s))
                self._ring_home(s)
                continue
            self._rings.remove((r, s))
            if self.fiance[r] >= 0:  # engaged meanwhile: the ring comes back
                self._ring_home(s)
                continue
            self._ask(r, "ring", ("accept", "reject"), {"from": s})
            self._then(self._next_ring)
            return
        self._then(self._next_letter)

    def _on_ring(self, decision: Decision, choice: str) -> None:
        r, s = decision.seat, decision.context["from"]
        if choice == "accept":
            self._engage(r, s)
        else:
            self._ring_home(s)

    def _next_letter(self) -> None:
        for r, s, c in sorted(self._letters):
            owner = self.owner[c]
            self._show(r, c)
            if r == owner:
                self._letters.remove((r, s, c))
                self.hands[r].append(c)
                continue
            steps: list[Step] = [partial(self._use_power, r, c, p) for p in self._powers(c, "on-receipt")]
            self._then(*steps, partial(self._ask_letter, r, s, c), self._next_letter)
            return
        self._then(self._next_scorned)

    def _ask_letter(self, r: int, s: int, c: int) -> None:
        self._pending_letter = (r, s, c)
        options = ("relate", "attend") if self.supply[r] > 0 else ("attend",)
        self._ask(r, "letter", options, {"from": s, "letter": c})

    def _on_letter(self, decision: Decision, choice: str) -> None:
        r, s, c = self._pending_letter
        self._letters.remove((r, s, c))  # in the post until now
        owner = self.owner[c]
        if choice == "relate":
            self.supply[r] -= 1
            self.received[owner].append(r)
            self._pub = None
            self.hands[r].append(c)
        else:
            self.hands[owner].append(c)  # attended: back to its owner

    def _next_scorned(self) -> None:
        while self._scorned:
            seat = self._scorned.pop(0)
            if self.deck:
                self._ask(seat, "scorned", ("reflect", "skip"))
                self._then(self._next_scorned)
                return
        self._then(self._end_day)

    def _on_scorned(self, decision: Decision, choice: str) -> None:
        if choice == "reflect":
            self._reflect(decision.seat, None)

    def _end_day(self) -> None:
        engaged = sum(1 for f in self.fiance if f >= 0)
        if not self.deck or engaged >= self.n - 1:
            self._then(self._matrimony)
        else:
            self._then(self._start_day)

    # -- matrimony --------------------------------------------------------------------

    def _matrimony(self) -> None:
        """Commitments ("at matrimony"), then step 1: every letter goes home but
        those held by its owner's fiance; then step 2: the gifts."""
        for holder in range(self.n):
            for card in self.hands[holder]:
                for power in self._powers(card, "commitment"):
                    if power["effect"]["what"] == "this":  # "you may commit this letter"
                        self._ask(holder, "commit", ("skip", card), {"letter": card})
                    else:  # "you may commit one letter from your hand"
                        self._ask(holder, "commit", ("skip", *self.hands[holder]), {"letter": card})
        self._then(self._go_home)

    def _on_commit(self, decision: Decision, choice: Any) -> None:
        if choice != "skip" and choice not in self.committed and choice in self.hands[decision.seat]:
            self.committed[choice] = decision.seat

    def _go_home(self) -> None:
        for holder, hand in enumerate(self.hands):
            for c in list(hand):
                owner = self.owner[c]
                if c in self.committed or owner == holder or self.fiance[holder] == owner:
                    continue
                hand.remove(c)
                self.hands[owner].append(c)
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
        suits = self.pack.letters
        self.scores = score_players(self.pack, [
            AtMatrimony(self.desires[s], tuple(suits[c].suit for c in self.fronts[s]), len(self.received[s]), self.fiance[s])
            for s in range(self.n)
        ])
        self.over = True

    def matrimony(self) -> tuple[list[int], list[str], list[list[int]]]:
        """Play matrimony now with no commitments and no gifts: points, status, fronts
        (a shortcut for tests)."""
        self._queue.clear()
        self._gifts = {}
        self.committed = {}
        self._go_home()
        self._queue.clear()
        self._gifts = {}
        self._score()
        return [s.points for s in self.scores], ["engaged" if f >= 0 else "available" for f in self.fiance], self.fronts


__all__ = ["D01State", "Pack", "Letter", "Desire", "Observation", "AtMatrimony", "Score", "pack_from_game", "score_players", "unique_met"]

"""Persuasion D01: the rules, matrimony scoring, and what each seat sees.

Readings chosen where the rules are ambiguous (also in the game's RULES-NOTES.md):

- Setup builds the letter deck from so many letters of each suit (the rules
  table), drawn at random from the core letters; the rest stay in the box.
  The desires deck is built the same way from its own table.
- Morning actions are chosen seat by seat from each seat's own observation and
  revealed together; evening post is resolved recipient by recipient in seat
  order from the host (the stalemate rule).
- A letter drawn (by reflection or a power) takes the drawer's seal.
- Relating needs a heart in your supply; with none you must attend.
- A ring is accepted only if the recipient's own ring is at home; two players
  who sent rings to each other are engaged at once. A ring sent to a player who
  is engaged or whose ring is away comes back.
- Break up: both players take their rings back and are free again.
- The game ends after an evening in which the deck has run out, or when all
  but at most one player are engaged.
- Matrimony: every letter goes home except those held by the owner's fiance;
  committed letters count in front of their owner wherever they are. "In front
  of" a player are the letters they then hold. Prim: the fiance has at least
  ``prim`` letters matching your desires in front of them; proper: you have at
  least ``proper``; unique: the desires card's own condition. Each victory is
  worth ``victory_points``, each suitor's heart you hold ``heart_points``; the
  most points wins (ties share the win).
- Powers (card data ``powers``): at-start powers resolve after setup; an
  owner-morning power may be the owner's morning action while they hold the
  letter; a holder-morning one, any other holder's; on-receipt powers resolve
  when someone other than the owner receives the letter; rule changes and
  commitments apply at once and at matrimony. Effects: draw (drawer's seal),
  peek (information only), trade (a random letter each way), discard (from the
  holder's own letters), reward-heart and return-heart (one heart moves),
  protect (no peek or trade power may target the owner), hand-size (the owner
  draws that many more at start), commit.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pnp.engine.api import Decision, Outcome, QueuedState


@dataclass(frozen=True)
class Letter:
    id: str
    suit: str
    powers: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Desire:
    id: str
    suit: str
    seeks: frozenset[str]
    condition: Mapping[str, Any]


@dataclass(frozen=True)
class Pack:
    """The D01 cards and tables as the engine uses them."""

    letters: tuple[Letter, ...]
    desires: tuple[Desire, ...]
    suits: tuple[str, ...]
    deck_per_suit: Mapping[int, int]
    desires_per_suit: Mapping[int, Mapping[str, int]]
    hand: int = 5
    hearts: int = 3
    prim: int = 3
    proper: int = 4
    victory_points: int = 3
    heart_points: int = 1


class Observation:
    """A seat's live view: its hand, desires, hearts, what it has been shown.

    Everything reachable through its public properties is this seat's own or
    public; the state behind it is private (``_state``) and agents must not
    reach past the properties.
    """

    __slots__ = ("seat", "_state", "notes")

    def __init__(self, seat: int, state: D01State):
        self.seat, self._state = seat, state
        self.notes: dict[Any, Any] = {}

    # Only this seat's own or public information is reachable from here.
    @property
    def hand(self) -> list[int]:
        return self._state.hands[self.seat]

    @property
    def desires(self) -> Desire:
        return self._state.desires[self.seat]

    @property
    def hearts(self) -> int:
        return self._state.supply[self.seat]

    @property
    def suitor_hearts(self) -> list[int]:
        return self._state.received[self.seat]

    @property
    def fiance(self) -> int:
        return self._state.fiance[self.seat]

    @property
    def seen_suits(self) -> list[list[str]]:
        """Suits of letters each other player has sent this seat (their own letters)."""
        return self._state.shown[self.seat]

    def owner(self, letter: int) -> int:
        return self._state.owner[letter]

    @property
    def peeked_desires(self) -> dict[int, str]:
        """Desires cards this seat has been shown by a power, by seat."""
        return self._state.peeked[self.seat]

    def letter(self, letter: int) -> Letter:
        return self._state.pack.letters[letter]

    @property
    def players(self) -> int:
        return self._state.n

    def engaged(self, seat: int) -> bool:
        """Public: rings lie beside engaged players' letterboxes."""
        return self._state.fiance[seat] >= 0

    @property
    def day(self) -> int:
        return self._state.day

    @property
    def deck_left(self) -> int:
        return len(self._state.deck)

    @property
    def ring_home(self) -> bool:
        return self._state.ring[self.seat] == self.seat


class D01State(QueuedState):
    def __init__(self, pack: Pack, players: int, rng: random.Random, day_cap: int = 80, check_moves: bool = True):
        if players not in pack.deck_per_suit:
            raise ValueError(f"the deck table has no entry for {players} players")
        self.pack, self.n, self.rng, self.day_cap = pack, players, rng, day_cap
        self.check_moves = check_moves
        per = pack.deck_per_suit[players]
        deck: list[int] = []
        for suit in pack.suits:
            of_suit = [i for i, card in enumerate(pack.letters) if card.suit == suit]
            deck += rng.sample(of_suit, min(per, len(of_suit)))  # chance: which letters play
        rng.shuffle(deck)
        wanted = pack.desires_per_suit[players]
        desires_deck = [d for suit in pack.suits for d in rng.sample([x for x in pack.desires if x.suit == suit], wanted.get(suit, 0))]
        rng.shuffle(desires_deck)
        self.deck = deck
        self.box = [i for i in range(len(pack.letters)) if i not in set(deck)]
        self.discards: list[int] = []
        self.owner = [-1] * len(pack.letters)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.desires = desires_deck[:players]
        self.supply = [pack.hearts] * players
        self.received: list[list[int]] = [[] for _ in range(players)]
        self.ring = list(range(players))
        """Where each seat's ring is: its own seat (home), or the seat holding it."""
        self.fiance = [-1] * players
        self.shown: list[list[list[str]]] = [[[] for _ in range(players)] for _ in range(players)]
        self.committed: set[int] = set()
        self.peeked: list[dict[int, str]] = [{} for _ in range(players)]
        """peeked[s][p]: the desires card s has seen of player p."""
        self.protected: set[int] = set()
        self.day = 0
        self.over = False
        self.capped = False
        self.actions: dict[str, int] = {}
        self._queue: list[Decision] = []
        self._letters: list[tuple[int, int, int]] = []
        self._rings: list[tuple[int, int]] = []
        self._scorned: list[int] = []
        self._post_order: list[int] = []
        self._views = [Observation(s, self) for s in range(players)]
        self._handlers = {
            "morning": self._on_morning, "ring": self._on_ring, "letter": self._on_letter,
            "keep": self._on_keep, "scorned": self._on_scorned,
        }
        for seat in range(players):
            for _ in range(pack.hand):
                self._draw(seat)
        self._at_start()
        self._start_day()

    # -- interface (decision, apply, observation: QueuedState) -------------------

    def all_letters(self) -> list[int]:
        return [c for hand in self.hands for c in hand] + self.deck + self.box + self.discards + self._in_transit()

    def outcome(self) -> Outcome:
        points, status, fronts = self.matrimony()
        best = max(points)
        ids = self.pack.letters
        return Outcome(
            tuple(p == best and p > 0 for p in points), tuple(status), self.day, self.capped,
            tuple(tuple(ids[c].id for c in front) for front in fronts), tuple(points), dict(self.actions),
        )

    # -- helpers ----------------------------------------------------------------

    def _draw(self, seat: int) -> int | None:
        if not self.deck:
            return None
        card = self.deck.pop()
        self.owner[card] = seat
        self.hands[seat].append(card)
        return card

    def _in_transit(self) -> list[int]:
        return [c for (_, _, c) in self._letters]

    def _count(self, kind: str) -> None:
        self.actions[kind] = self.actions.get(kind, 0) + 1

    def _powers(self, card: int, kind: str) -> list[Mapping[str, Any]]:
        return [p for p in self.pack.letters[card].powers if p["kind"] == kind]

    def _at_start(self) -> None:
        for seat in range(self.n):
            for card in list(self.hands[seat]):
                for power in self._powers(card, "at-start") + self._powers(card, "rule-change"):
                    self._effect(power["effect"], owner=seat, holder=seat, card=card, timing=power["kind"])

    def _effect(self, effect: Mapping[str, Any], owner: int, holder: int, card: int, timing: str) -> None:
        """Apply one power's effect. ``owner`` wrote the letter; ``holder`` holds it."""
        kind = effect["type"]
        rng = self.rng
        if kind == "draw":
            for _ in range(int(effect["count"])):
                self._draw(holder)
        elif kind == "hand-size" and timing == "rule-change":
            for _ in range(max(0, int(effect["delta"]))):
                self._draw(owner)
        elif kind == "protect":
            self.protected.add(owner)
        elif kind == "commit" and effect.get("what") == "this":
            self.committed.add(card)
        elif kind == "discard":
            own = [c for c in self.hands[holder] if self.owner[c] == holder]
            for _ in range(min(int(effect["count"]), len(own))):
                victim = own.pop(rng.randrange(len(own)))
                self.hands[holder].remove(victim)
                self.discards.append(victim)
        elif kind == "reward-heart":
            giver, to = holder, owner if effect["to"] == "owner" else holder
            if giver != to and self.supply[giver] > 0:
                self.supply[giver] -= 1
                self.received[to].append(giver)
        elif kind == "return-heart":
            source = holder if effect["from"] == "holder" else owner
            keeper = owner if source == holder else holder
            if source in self.received[keeper]:
                self.received[keeper].remove(source)
                self.supply[source] += 1
        elif kind == "trade":
            other = [p for p in range(self.n) if p != holder and p not in self.protected and self.hands[p]]
            if other and self.hands[holder]:
                them = rng.choice(other)
                mine = rng.choice(self.hands[holder])
                theirs = rng.choice(self.hands[them])
                self.hands[holder].remove(mine)
                self.hands[them].remove(theirs)
                self.hands[holder].append(theirs)
                self.hands[them].append(mine)
        elif kind == "peek":
            # Information only: the looker learns suits (hand) or a desires card.
            looker, target = (owner, holder) if timing in ("owner-morning", "at-start") else (holder, owner)
            if timing == "at-start":
                others = [p for p in range(self.n) if p != owner and p not in self.protected]
                target = rng.choice(others) if others else owner
            if target in self.protected and target != looker:
                return
            if effect["at"] == "hand":
                cards = list(self.hands[target])
                for c in rng.sample(cards, min(int(effect["count"]), len(cards))):
                    self.shown[looker][self.owner[c]].append(self.pack.letters[c].suit)
            elif effect["at"] == "desires":
                self.peeked[looker][target] = self.desires[target].id

    # -- the day -------------------------------------------------------------------

    def _start_day(self) -> None:
        self.day += 1
        if self.day > self.day_cap:
            self.over, self.capped = True, True
            return
        self._morning: dict[int, tuple[Any, ...]] = {}
        for seat in range(self.n):
            self._queue.append(Decision(seat, "morning", tuple(self._morning_options(seat))))
        self._stage = self._evening

    def _morning_options(self, seat: int) -> list[tuple[Any, ...]]:
        options: list[tuple[Any, ...]] = []
        suitors = [p for p in range(self.n) if p != seat]
        options += [("write", t, c) for c in self.hands[seat] for t in suitors]
        if self.received[seat] and self.deck:
            options += [("reflect", g) for g in sorted(set(self.received[seat]))]
        if self.fiance[seat] < 0 and self.ring[seat] == seat:
            options += [("propose", t) for t in suitors]
        if self.fiance[seat] >= 0:
            options.append(("break",))
        for c in self.hands[seat]:
            own = self.owner[c] == seat
            if self._powers(c, "owner-morning" if own else "holder-morning"):
                options.append(("power", c))
        if not options:
            options.append(("rest",))
        return options

    def _on_morning(self, decision: Decision, choice: tuple[Any, ...]) -> None:
        self._morning[decision.seat] = choice
        self._count(choice[0])

    def _evening(self) -> None:
        """Reveal the mornings, deliver the post, then queue each recipient's answers."""
        self._letters = []  # (recipient, sender, letter)
        rings: list[tuple[int, int]] = []  # (recipient, proposer)
        reflections: list[tuple[int, int | None]] = []
        for seat in range(self.n):
            choice = self._morning[seat]
            kind = choice[0]
            if kind == "write":
                _, target, card = choice
                if card in self.hands[seat]:  # a power earlier this morning may have moved it
                    self.hands[seat].remove(card)
                    self._letters.append((target, seat, card))
            elif kind == "propose":
                rings.append((choice[1], seat))
                self.ring[seat] = -1 - choice[1]  # in the post to choice[1]
            elif kind == "break":
                partner = self.fiance[seat]
                if partner >= 0:  # both may break off the same morning: once is enough
                    self.ring[seat], self.ring[partner] = seat, partner
                    self.fiance[seat] = self.fiance[partner] = -1
            elif kind == "reflect":
                reflections.append((seat, choice[1]))
            elif kind == "power":
                card = choice[1]
                own = self.owner[card] == seat
                for power in self._powers(card, "owner-morning" if own else "holder-morning"):
                    self._effect(power["effect"], owner=self.owner[card], holder=seat, card=card, timing=power["kind"])
        for seat, giver in reflections:
            self._reflect(seat, giver)
        # Mutual proposals accept themselves.
        sent = {(r, s) for r, s in rings}
        for r, s in sorted(rings):
            if (s, r) in sent and self.fiance[r] < 0 and self.fiance[s] < 0:
                self._engage(r, s)
        self._rings = [(r, s) for r, s in sorted(rings) if self.fiance[s] != r]
        addressed = {r for r, _, _ in self._letters} | {r for r, _ in rings}
        self._scorned = [seat for seat in range(self.n) if seat not in addressed]
        self._post_order = list(range(self.n))
        self._stage = self._next_post

    def _reflect(self, seat: int, giver: int | None) -> None:
        if giver is not None and giver in self.received[seat]:
            self.received[seat].remove(giver)
            self.supply[giver] += 1
        drawn = self._draw(seat)
        if drawn is not None:
            self._queue.append(Decision(seat, "keep", tuple(["drawn"] + [c for c in self.hands[seat] if c != drawn and self.owner[c] == seat]), {"drawn": drawn}))

    def _on_keep(self, decision: Decision, choice: Any) -> None:
        drawn = decision.context["drawn"]
        # Keep the hand's size: discard the drawn letter or the one it replaces.
        victim = drawn if choice == "drawn" else choice
        self.hands[decision.seat].remove(victim)
        self.discards.append(victim)

    def _engage(self, a: int, b: int) -> None:
        self.fiance[a], self.fiance[b] = b, a
        self.ring[a], self.ring[b] = b, a

    def _next_post(self) -> None:
        while self._post_order:
            r = self._post_order[0]
            rings = [s for (t, s) in self._rings if t == r]
            if rings:
                s = rings[0]
                self._rings.remove((r, s))
                if self.fiance[r] < 0 and self.fiance[s] < 0 and self.ring[r] == r:
                    self._queue.append(Decision(r, "ring", ("accept", "reject"), {"from": s}))
                    self._ring_from = s
                    return
                self.ring[s] = s  # the ring comes back
                continue
            letters = [(s, c) for (t, s, c) in self._letters if t == r]
            if letters:
                s, c = letters[0]
                owner = self.owner[c]
                self.shown[r][owner].append(self.pack.letters[c].suit)
                if r == owner:
                    self._letters.remove((r, s, c))
                    self.hands[r].append(c)
                    continue
                for power in self._powers(c, "on-receipt"):
                    self._effect(power["effect"], owner=owner, holder=r, card=c, timing="on-receipt")
                options = ("relate", "attend") if self.supply[r] > 0 else ("attend",)
                self._queue.append(Decision(r, "letter", options, {"from": s, "letter": c}))
                self._letter = (r, s, c)
                return
            self._post_order.pop(0)
        while self._scorned:
            seat = self._scorned.pop(0)
            if self.deck:
                self._queue.append(Decision(seat, "scorned", ("reflect", "skip")))
                return
        self._end_day()

    def _on_scorned(self, decision: Decision, choice: str) -> None:
        if choice == "reflect":
            self._reflect(decision.seat, None)

    def _on_ring(self, decision: Decision, choice: str) -> None:
        r, s = decision.seat, self._ring_from
        if choice == "accept":
            self._engage(r, s)
        else:
            self.ring[s] = s

    def _on_letter(self, decision: Decision, choice: str) -> None:
        r, s, c = self._letter
        self._letters.remove((r, s, c))  # in the post until now
        owner = self.owner[c]
        if choice == "relate":
            self.supply[r] -= 1
            self.received[owner].append(r)
            self.hands[r].append(c)
        else:
            self.hands[owner].append(c)  # attended: back to its owner

    def _end_day(self) -> None:
        engaged = sum(1 for f in self.fiance if f >= 0)
        if not self.deck or engaged >= self.n - 1:
            self.over = True
        else:
            self._start_day()

    # -- matrimony --------------------------------------------------------------------

    def matrimony(self) -> tuple[list[int], list[str], list[list[int]]]:
        """Points, status and the letters in front of each player."""
        pack = self.pack
        fronts: list[list[int]] = [[] for _ in range(self.n)]
        for holder, hand in enumerate(self.hands):
            for c in hand:
                owner = self.owner[c]
                if c in self.committed:
                    fronts[owner].append(c)  # a commitment counts in front of its owner
                elif owner == holder or self.fiance[holder] == owner:
                    fronts[holder].append(c)  # one's own, or one's fiance's: kept
                else:
                    fronts[owner].append(c)  # every other letter goes home
        points, status = [], []
        for seat in range(self.n):
            wish = self.desires[seat]
            mine = [pack.letters[c].suit for c in fronts[seat]]
            score = 0
            partner = self.fiance[seat]
            if partner >= 0:
                theirs = [pack.letters[c].suit for c in fronts[partner]]
                if sum(1 for s in theirs if s in wish.seeks) >= pack.prim:
                    score += pack.victory_points
            if sum(1 for s in mine if s in wish.seeks) >= pack.proper:
                score += pack.victory_points
            if unique_met(wish.condition, mine, len(self.received[seat]), pack.suits):
                score += pack.victory_points
            score += pack.heart_points * len(self.received[seat])
            points.append(score)
            status.append("engaged" if partner >= 0 else "available")
        return points, status, fronts


def unique_met(condition: Mapping[str, Any], suits_in_front: Sequence[str], hearts: int, all_suits: Sequence[str]) -> bool:
    kind = condition["type"]
    if kind == "suit-count":
        return sum(1 for s in suits_in_front if s == condition["suit"]) >= int(condition["count"])
    if kind == "all-suits":
        return all(s in suits_in_front for s in all_suits)
    if kind == "hearts":
        return hearts >= int(condition["count"])
    if kind == "no-suit":
        return condition["suit"] not in suits_in_front
    raise ValueError(f"unknown unique victory {kind!r}")


def pack_from_game(game: Any, options: Mapping[str, Any]) -> Pack:
    traits = game.component(options["deck"])
    modules = list(getattr(game, "modules", ()))
    letters = tuple(
        Letter(card.id, card.fields[options["suit"]], tuple(card.fields.get(options.get("powers", "powers")) or ()))
        for card in traits.cards
        if options.get("with_modules") or not any(m.holds(card) for m in modules)
        for _ in range(card.copies)
    )
    desires = tuple(
        Desire(card.id, card.fields[options["suit"]], frozenset(card.fields[options["seeks"]]), card.fields[options["unique"]]["condition"])
        for card in game.component(options["desires"]).cards
    )
    rules = game.rules
    suits = tuple(e.id for e in game.sets[options["suits"]])
    return Pack(
        letters, desires, suits,
        {int(k): int(v) for k, v in rules[options["deck_per_suit"]].items()},
        {int(k): dict(v) for k, v in rules[options["desires_per_suit"]].items()},
        int(options.get("hand", 5)), int(options.get("hearts", 3)),
        int(rules.get("prim_matches", 3)), int(rules.get("proper_matches", 4)),
        int(rules.get("victory_points", 3)), int(rules.get("heart_points", 1)),
    )


__all__ = ["D01State", "Pack", "Letter", "Desire", "Observation", "pack_from_game", "unique_met"]

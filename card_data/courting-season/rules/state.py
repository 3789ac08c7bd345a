"""Courting Season as printed, one decision at a time (RULES-NOTES.md gives the readings).

A game is a list of public *steps* worked through in order (:meth:`CourtingState._run`):
a turn is ``fill`` (draw to a full society, then flip the seat's face-down
cards), ``act`` (propose a match, play host, or pass when neither is
possible) and ``next``. A proposal queues ``answer``; an accepted match
queues, for the proposer and then the other player, ``roll`` (+1: take the
other character's value in the trait rolled), ``approve`` (an approval card
or none) and ``part`` (the character leaves, an influence card is drawn); a
declined one queues a ``roll`` (-1: lose it) for each and the decliner's
influence draw. The game ends at once when the supply's last prestige is
taken or a pile's last card drawn: the player whose turn it is then sends a
character away (``farewell``) and each score is prestige less the penalty
trait of the characters left.

What a seat sees (:class:`View`) is everything but the other hands and the
order of the piles: every character in a society is public, face down or not
(both players saw it cross the table). Dice are the state's own chance.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pnp.engine.api import NO_CONTEXT, Decision, EngineError, IllegalMove, NoEnd, Outcome, decision_of, shuffle

from .pack import APPROVAL, HOST, KINDS, PREFERENCE, Pack, approval

Step = tuple[Any, ...]
ACCEPT, DECLINE, KEEP, REROLL, PASS = "accept", "decline", "keep", "re-roll", ("pass",)
MOVES = ("propose", "host", "pass", "accept", "decline")
TOP, BEHIND = "top score", "behind"
ENDINGS = ("tokens", "ladies", "gentlemen", "influence", "stuck")
"""Why a game ended: the last prestige taken, a pile's last card drawn, or no move left to anyone."""
_TURN: tuple[Step, ...] = (("fill",), ("act",), ("next",))


@dataclass(frozen=True)
class View:
    """What one seat knows (read-only): the public table and its own hand."""

    seat: int
    pack: Pack
    active: int
    turn: int
    prestige: tuple[int, ...]
    supply: int
    societies: tuple[tuple[int, ...], ...]
    """Per seat, its characters (indices into ``pack.characters``) in the order they came."""
    down: frozenset[int]
    """The characters lying face down."""
    hand: tuple[int, ...]
    """This seat's influence cards (indices into ``pack.influence``)."""
    hand_sizes: tuple[int, ...]
    piles: tuple[int, int, int]
    """Cards left: ladies, gentlemen, influence."""
    discarded: tuple[int, ...]
    played: tuple[int, ...]
    """Influence cards played, in order."""
    steps: tuple[Step, ...]
    """What is still to happen this turn, the step being decided first."""
    extra: bool
    passes: int


class CourtingState:
    """One game in progress."""

    piles: list[list[int]]
    """The ladies' and the gentlemen's piles, the top last."""
    influence: list[int]
    """The influence pile, the top last."""
    steps: list[Step]

    def __init__(self, pack: Pack, players: int, rng: random.Random, check_moves: bool = True):
        low, high = pack.players
        if not low <= players <= high:
            raise EngineError(f"Courting Season is played by {low} to {high} players, not {players}")
        self._begin(pack, players, rng, check_moves)
        piles = [[c.index for c in pack.characters if c.kind == kind] for kind in range(len(KINDS))]
        influence = [card.index for card in pack.influence]
        for pile in (*piles, influence):
            shuffle(pile, rng)
        self.piles, self.influence = piles, influence
        for seat in range(players):
            for kind, count in enumerate(pack.start_kinds):
                self.societies[seat].extend(piles[kind].pop() for _ in range(count))
            self.hands[seat].extend(influence.pop() for _ in range(pack.start_influence))
        self.steps = list(_TURN)
        self._run()

    def _begin(self, pack: Pack, players: int, rng: random.Random, check_moves: bool) -> None:
        """Every field, at the start of a game (the deal is the caller's)."""
        self.pack, self.n, self.rng, self.check_moves = pack, players, rng, check_moves
        self.active = self.turn = self.passes = 0
        self.prestige = [pack.start_prestige] * players
        self.supply = pack.supply - pack.start_prestige * players
        self.societies: list[list[int]] = [[] for _ in range(players)]
        self.down: set[int] = set()
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.piles, self.influence = [[], []], []
        self.discarded: list[int] = []
        self.played: list[int] = []
        self.steps = []
        self.extra = False
        self.ended = ""
        self.over = False
        self.face = -1
        """The face just rolled, while its roller decides to re-roll."""
        self._current: Decision | None = None
        self.actions = dict.fromkeys(MOVES, 0)
        self.powers = dict.fromkeys(pack.advanced, 0)
        self.lost = 0
        """Prestige claimed when the supply could not pay it."""
        self.scores: tuple[int, ...] = ()

    # -- the decision interface ------------------------------------------------

    def decision(self) -> Decision | None:
        return self._current

    def observation(self, seat: int) -> View:
        return View(
            seat, self.pack, self.active, self.turn, tuple(self.prestige), self.supply, tuple(map(tuple, self.societies)),
            frozenset(self.down), tuple(self.hands[seat]), tuple(map(len, self.hands)),
            (len(self.piles[0]), len(self.piles[1]), len(self.influence)), tuple(self.discarded), tuple(self.played),
            tuple(self.steps), self.extra, self.passes,
        )

    def is_terminal(self) -> bool:
        return self.over

    def apply(self, choice: Any) -> None:
        d = self._current
        if d is None:
            raise IllegalMove("the game is over")
        if self.check_moves and choice not in d.options:
            raise IllegalMove(f"seat {d.seat}: {choice!r} is not a legal {d.kind}")
        self._current = None
        step = self.steps[0] if d.kind == "draw" else self.steps.pop(0)  # a fill goes on until the society is full
        _HANDLERS[d.kind](self, step, choice)
        self._run()

    def _ask(self, seat: int, kind: str, options: tuple[Any, ...], context: Any = NO_CONTEXT) -> bool:
        self._current = decision_of((seat, kind, options, context))
        return True

    # -- the steps -------------------------------------------------------------

    def _run(self) -> None:
        """Work through the steps until one needs a decision or the game is over."""
        while self._current is None and not self.over:
            if self.ended and self.steps[:1] != [("farewell",)]:
                self.steps = [("farewell",)]
            step = self.steps[0]
            if not _STEPS[step[0]](self, step):
                self.steps.pop(0)

    def _fill(self, step: Step) -> bool:
        """Draw to a full society (a choice of pile while both kinds may come), then flip face up."""
        seat, society = self.active, self.societies[self.active]
        while len(society) < self.pack.society and not self.ended:
            kinds = self._drawable(seat)
            if len(kinds) > 1:
                return self._ask(seat, "draw", tuple(KINDS[k] for k in kinds))
            if not kinds:
                break
            self._draw_character(seat, kinds[0])
        self.down.difference_update(society)
        return False

    def _drawable(self, seat: int) -> list[int]:
        chars, cap = self.pack.characters, self.pack.society - 1
        counts = [0, 0]
        for c in self.societies[seat]:
            counts[chars[c].kind] += 1
        return [k for k in range(2) if self.piles[k] and counts[k] < cap]

    def _draw_character(self, seat: int, kind: int) -> None:
        pile = self.piles[kind]
        self.societies[seat].append(pile.pop())
        if not pile:
            self._end(ENDINGS[1 + kind])

    def _on_draw(self, step: Step, kind: str) -> None:
        self._draw_character(self.active, KINDS.index(kind))

    def _act(self, step: Step) -> bool:
        options = self.moves(self.active)
        if options:
            self.passes = 0
            return self._ask(self.active, "act", options)
        self.actions["pass"] += 1
        self.passes += 1
        if self.passes >= self.n:
            self._end("stuck")
        return False

    def moves(self, seat: int) -> tuple[Any, ...]:
        """Every proposal (``("propose", mine, other seat, theirs)``) and host
        play (``("host", card, mine, other seat, theirs)``) open to ``seat``."""
        chars, down = self.pack.characters, self.down
        mine = [c for c in self.societies[seat] if c not in down]
        out: list[Any] = []
        for other in range(self.n):
            if other == seat:
                continue
            theirs = [c for c in self.societies[other] if c not in down]
            for m in mine:
                a = chars[m]
                out.extend(("propose", m, other, t) for t in theirs if chars[t].kind != a.kind and chars[t].family != a.family)
        hosts = sorted({i for i in self.hands[seat] if self.pack.influence[i].kind == HOST})
        if hosts:
            swaps = [(m, other, t) for other in range(self.n) if other != seat for m in mine for t in self.societies[other] if t not in down]
            swaps = [swap for swap in swaps if self._swappable(seat, *swap)]
            out.extend(("host", card, m, other, t) for card in hosts for m, other, t in swaps)
        return tuple(out)

    def _swappable(self, seat: int, mine: int, other: int, theirs: int) -> bool:
        """No society may end the exchange full and of one kind: one that
        gives a character of the kind it gets never changes, and one that
        gets the other kind must not end holding only that kind."""
        chars, full = self.pack.characters, self.pack.society
        come_mine, come_theirs = chars[theirs].kind, chars[mine].kind
        if come_mine == come_theirs:
            return True
        for s, kind in ((seat, come_mine), (other, come_theirs)):
            society = self.societies[s]
            if len(society) >= full and sum(chars[c].kind == kind for c in society) == len(society) - 1:
                return False
        return True

    def _on_act(self, step: Step, move: tuple[Any, ...]) -> None:
        seat = self.active
        self.actions[move[0]] += 1
        if move[0] == "propose":
            _, mine, other, theirs = move
            self.steps.insert(0, ("answer", seat, mine, other, theirs))
            return
        _, card, mine, other, theirs = move
        self.hands[seat].remove(card)
        self.played.append(card)
        self.societies[seat][self.societies[seat].index(mine)] = theirs
        self.societies[other][self.societies[other].index(theirs)] = mine
        self.down.update((mine, theirs))
        trait = self.pack.influence[card].trait
        chars = self.pack.characters
        self._gain(seat, chars[theirs].traits[trait])
        if not self.ended:
            self._gain(other, chars[mine].traits[trait])
        if self.pack.welcome and chars[theirs].home == self.pack.influence[card].house:
            self.extra = True
            self.powers["welcome home"] += 1

    def _answer(self, step: Step) -> bool:
        _, proposer, mine, other, theirs = step
        if self.prestige[other] == 0:  # nothing to lose: must accept
            self._resolve(step, ACCEPT, 1)
            return False
        return self._ask(other, "answer", (ACCEPT, DECLINE), MappingProxyType({"proposal": ("propose", mine, other, theirs), "by": proposer}))

    def _on_answer(self, step: Step, answer: str) -> None:
        self._resolve(step, answer, 0)

    def _resolve(self, step: Step, answer: str, at: int) -> None:
        """Queue what follows the answer, at ``at`` in the steps (1: behind the answer step still first)."""
        _, proposer, mine, other, theirs = step
        self.actions[answer] += 1
        if answer == ACCEPT:
            queue: list[Step] = []
            for seat, a, b in ((proposer, mine, theirs), (other, theirs, mine)):
                queue += [("roll", seat, a, b, 1), ("approve", seat, a, b), ("part", seat, a)]
        else:
            queue = [("roll", proposer, mine, theirs, -1), ("roll", other, theirs, mine, -1), ("influence", other)]
        self.steps[at:at] = queue

    def _roll(self, step: Step) -> bool:
        _, seat, mine, other, sign = step
        if self.face < 0:
            self.face = self.rng.randrange(len(self.pack.faces))
            if self._may_reroll(seat, mine):
                return self._ask(seat, "reroll", (KEEP, REROLL), self._roll_context(step))
        self._settle_roll(step)
        return False

    def _roll_context(self, step: Step) -> Any:
        _, seat, mine, other, sign = step
        trait = self._trait(mine, self.face)
        return MappingProxyType({"face": self.face, "trait": trait, "value": self.pack.characters[other].traits[trait], "sign": sign})

    def _may_reroll(self, seat: int, mine: int) -> bool:
        chars = self.pack.characters
        return self.pack.meddlers and any(chars[c].meddler and c != mine and c not in self.down for c in self.societies[seat])

    def _on_reroll(self, step: Step, choice: str) -> None:
        if choice == REROLL:
            self.powers["meddler re-roll"] += 1
            self.face = self.rng.randrange(len(self.pack.faces))
        self._settle_roll(step)

    def _trait(self, mine: int, face: int) -> int:
        trait = self.pack.faces[face]
        return self.pack.characters[mine].preference if trait == PREFERENCE else trait

    def _settle_roll(self, step: Step) -> None:
        _, seat, mine, other, sign = step
        value = self.pack.characters[other].traits[self._trait(mine, self.face)]
        self.face = -1
        if sign > 0:
            self._gain(seat, value)
        else:
            paid = min(value, self.prestige[seat])
            self.prestige[seat] -= paid
            self.supply += paid

    def _gain(self, seat: int, amount: int) -> None:
        """Take ``amount`` from the supply, or what is left of it; its last token ends the game."""
        got = min(amount, self.supply)
        self.prestige[seat] += got
        self.supply -= got
        self.lost += amount - got
        if not self.supply:
            self._end("tokens")

    def _approve(self, step: Step) -> bool:
        _, seat, mine, other = step
        cards = tuple(sorted({i for i in self.hands[seat] if self.pack.influence[i].kind == APPROVAL}))
        if not cards:
            return False
        return self._ask(seat, "approve", (None, *cards), MappingProxyType({"mine": mine, "other": other}))

    def _on_approve(self, step: Step, card: int | None) -> None:
        _, seat, mine, other = step
        if card is None:
            return
        self.hands[seat].remove(card)
        self.played.append(card)
        if self.pack.intended and self.pack.characters[mine].intended == other:
            self.powers["intended approval"] += 1
        self._gain(seat, approval(self.pack, card, mine, other))

    def _part(self, step: Step) -> bool:
        _, seat, mine = step
        self.societies[seat].remove(mine)
        self.discarded.append(mine)
        self._draw_influence(seat)
        return False

    def _influence(self, step: Step) -> bool:
        self._draw_influence(step[1])
        return False

    def _draw_influence(self, seat: int) -> None:
        self.hands[seat].append(self.influence.pop())
        if not self.influence:
            self._end("influence")

    def _next(self, step: Step) -> bool:
        self.turn += 1
        if self.turn >= self.pack.turn_cap:
            raise NoEnd(f"no end after {self.turn} turns")
        if self.extra:
            self.extra = False
        else:
            self.active = (self.active + 1) % self.n
        self.steps[1:1] = _TURN
        return False

    # -- the end ---------------------------------------------------------------

    def _end(self, why: str) -> None:
        if not self.ended:
            self.ended = why

    def _farewell(self, step: Step) -> bool:
        society = self.societies[self.active]
        if len(society) > 1:
            return self._ask(self.active, "farewell", tuple(society))
        if society:
            self.discarded.append(society.pop())
        self._finish()
        return True

    def _on_farewell(self, step: Step, char: int) -> None:
        self.societies[self.active].remove(char)
        self.discarded.append(char)
        self._finish()

    def _finish(self) -> None:
        self.down.clear()
        self.steps = []
        self.scores = tuple(self.score(seat) for seat in range(self.n))
        self.over = True

    def score(self, seat: int) -> int:
        chars, penalty = self.pack.characters, self.pack.penalty
        return self.prestige[seat] - sum(chars[c].traits[penalty] for c in self.societies[seat])

    def outcome(self) -> Outcome:
        if not self.over:
            raise EngineError("the game is not over")
        best = max(self.scores)
        winners = tuple(s == best for s in self.scores)
        ids = [c.id for c in self.pack.characters]
        rounds = -(-(self.turn + 1) // self.n)
        return Outcome(
            winners, tuple(TOP if w else BEHIND for w in winners), rounds, False, tuple(tuple(ids[c] for c in s) for s in self.societies),
            tuple(map(float, self.scores)), dict(self.actions), {"ended": self.ended}, self._measures(), dict(self.powers),
        )

    def _measures(self) -> dict[str, float]:
        scores = sorted(self.scores, reverse=True)
        chars, penalty = self.pack.characters, self.pack.penalty
        out = {
            "turns": float(self.turn + 1),
            "matches": float(self.actions[ACCEPT]),
            "tied for the win": float(scores.count(scores[0]) > 1),
            "winning margin": float(scores[0] - scores[1]),
            "penalty": sum(chars[c].traits[penalty] for s in self.societies for c in s) / self.n,
            "prestige lost to an empty supply": float(self.lost),
        }
        for why in ENDINGS:
            out[f"ended by {why}"] = float(self.ended == why)
        return out


_STEPS: dict[str, Callable[[CourtingState, Step], bool]] = {
    "fill": CourtingState._fill, "act": CourtingState._act, "next": CourtingState._next, "answer": CourtingState._answer,
    "roll": CourtingState._roll, "approve": CourtingState._approve, "part": CourtingState._part, "influence": CourtingState._influence,
    "farewell": CourtingState._farewell,
}
"""Each step's handler: True when it waits for a decision (the step stays first)."""

_HANDLERS: dict[str, Callable[[CourtingState, Step, Any], None]] = {
    "draw": CourtingState._on_draw, "act": CourtingState._on_act, "answer": CourtingState._on_answer,
    "reroll": CourtingState._on_reroll, "approve": CourtingState._on_approve, "farewell": CourtingState._on_farewell,
}
"""Each decision's handler, given the step that asked (taken off the steps, but for a fill's draw)."""

""""I am thou, thou art I" as played, one decision at a time.

A game: (with the ``vote`` endgame) each seat votes for a way of the endgame,
in secret; then nine rounds of

1. secret visits, asked seat by seat and shown to nobody: a Coins seat may
   ``buy`` a visit, each seat makes its ``visit`` choices one at a time (or
   stops), and a Swords seat may take its ``sword point``;
2. the reveal (:func:`.rounds.reveal`): every visit is shown, points counted;
3. the effects, seat by seat (:mod:`.effects`), each a decision named after
   its NPC or suit;
4. the end of the round (:func:`.rounds.end_round`).

After the ninth round the moderator announces the endgame (:mod:`.endgame`);
a single Main Match winner names the Elimination Candidate among a tie
(``eliminate``); with no single winner the moderator draws one.

The moderator's part of the state (every seat's true points, the other seats'
secret choices) is never reachable from an observation: a seat sees the
public table and its own :class:`~.table.Mine` (:meth:`ThouState.observation`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from pnp.engine.api import NO_CONTEXT, Decision, EngineError, IllegalMove, Outcome, decision_of

from . import effects, endgame
from .board import Board
from .rounds import end_round, reveal
from .table import COINS, MOST, NPC_IDS, NPCS, PLAYER, SKIP, STOP, SUIT_IDS, SWORDS, TOP_TWO, WANDS, Mine, Observation, Prepared, own

WINNER, JOINT, BETWEEN, CANDIDATE = "main match", "joint main match", "between", "elimination candidate"
ALL_NPCS = tuple(range(NPCS))
YES_NO = (False, True)
VOTES = (MOST, TOP_TWO)


def deal_suits(players: int, rng: random.Random) -> list[int]:
    """Each player's suit: all four differ up to four players; with five, a
    fifth suit is drawn from the four, and the five are dealt in a random
    order (so the shared suit falls on any seat)."""
    suits = [0, 1, 2, 3]
    if players > 4:
        suits.append(rng.randrange(4))
    rng.shuffle(suits)
    return suits[:players]


class ThouState(Board):
    """One game in progress."""

    def __init__(self, prep: Prepared, players: int, rng: random.Random, check_moves: bool = True):
        low, high = prep.players
        if not low <= players <= high:
            raise EngineError(f"I am thou is played by {low} to {high} players, not {players}")
        self.setup(prep, players, rng, check_moves, [Mine(s, prep.garnets * prep.thirds) for s in deal_suits(players, rng)])
        self.phase = "vote" if prep.endgame == "vote" else "secret"
        self._advance()

    # -- the decision interface ----------------------------------------------------

    def decision(self) -> Decision | None:
        return self.current

    def observation(self, seat: int) -> Observation:
        return Observation(
            seat, self.n, self.round, self.prep.rounds, self.phase, tuple(m.suit for m in self.mines), self.prep.fool,
            self.prep.reveal, self.mode, self.shown_votes, tuple(self.history), self.immune, self.moon, self.worlds,
            self.ledger, self.results, own(self.mines[seat]),
        )

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def apply(self, choice: Any) -> None:
        decision = self.current
        if decision is None:
            raise IllegalMove("the game is over")
        if self.check_moves and choice not in decision.options:
            raise IllegalMove(f"seat {decision.seat}: {choice!r} is not a legal {decision.kind}")
        self.actions[decision.kind] += 1
        seat, m = decision.seat, self.mines[decision.seat]
        kind = decision.kind
        if kind == "vote":
            self.votes.append(choice)
            self.cursor += 1
        elif kind == "buy":
            m.asked_buy = True
            if choice:
                m.bought, m.coins_used = True, m.coins_used + 1
                m.thirds -= self.prep.coins_cost * self.prep.thirds
                self.power("coins passive")
        elif kind == "visit":
            if choice == STOP:
                m.stopped = True
            else:
                if len(m.picks) >= m.actions + m.bought:
                    self.power("wands passive")
                m.picks.append(choice)
        elif kind == "sword point":
            m.asked_sword, m.sword_point = True, None if choice == SKIP else choice
        elif kind == "eliminate":
            self.candidate = choice
            self.phase = "over"
        else:
            effects.choose(self, seat, choice)
        self._advance()

    # -- the flow -------------------------------------------------------------------

    def _advance(self) -> None:
        while True:
            asked = self._next()
            if asked is not None or self.phase == "over":
                self.current = asked
                return

    def _next(self) -> Decision | None:
        """The next decision of the current phase, or None after moving the game on."""
        phase, seat = self.phase, self.cursor
        if phase == "vote":
            if seat < self.n:
                return decision_of((seat, "vote", VOTES, NO_CONTEXT))
            self._count_votes()
        elif phase == "secret":
            if seat < self.n:
                asked = self._secret(seat)
                if asked is None:
                    self.cursor += 1
                return asked
            reveal(self)
            self.phase, self.cursor = "effects", 0
        elif phase == "effects":
            if seat < self.n:
                effect = effects.next_decision(self, seat)
                if effect is None:
                    self.cursor += 1
                    return None
                return decision_of((seat, effect[0], effect[1], NO_CONTEXT))
            end_round(self)
            self.round, self.cursor = self.round + 1, 0
            if self.round > self.prep.rounds:
                self._end()
            else:
                self.phase = "secret"
        elif phase == "eliminate":
            assert self.results is not None
            return decision_of((self.results.main[0], "eliminate", self.results.fewest, NO_CONTEXT))
        return None

    def _count_votes(self) -> None:
        """Secret votes shown together; a majority decides, an even split keeps the first way."""
        self.shown_votes = tuple(self.votes)
        self.mode = TOP_TWO if self.votes.count(TOP_TWO) * 2 > len(self.votes) else MOST
        self.phase, self.cursor = "secret", 0

    def _secret(self, seat: int) -> Decision | None:
        m = self.mines[seat]
        cost = self.prep.coins_cost * self.prep.thirds
        if m.suit == COINS and not m.asked_buy and "coins passive" not in self.prep.without:
            if m.thirds >= cost and m.coins_used < self.prep.coins_max:
                return decision_of((seat, "buy", YES_NO, NO_CONTEXT))
            m.asked_buy = True
        if not m.stopped:
            options = self.visit_options(seat)
            if options:
                return decision_of((seat, "visit", options, NO_CONTEXT))
            m.stopped = True
        if m.suit == SWORDS and not m.asked_sword and "swords passive" not in self.prep.without:
            return decision_of((seat, "sword point", (SKIP, *ALL_NPCS), NO_CONTEXT))
        return None

    def targets(self, seat: int) -> tuple[int, ...]:
        """Whom the seat may visit this round."""
        m = self.mines[seat]
        r = self.round
        barred = {*m.justice, *(x for x, last in m.banned if last >= r)}
        npcs = tuple(x for x in ALL_NPCS if x not in barred) if barred else ALL_NPCS
        if m.blocked_by:
            return npcs
        return npcs + tuple(PLAYER + p for p in range(self.n) if p != seat and p not in self.moon)

    def visit_options(self, seat: int) -> tuple[int, ...]:
        """The next visit: any target while visits are left; a Wands seat's
        bonus visit only where it makes three visits to one target."""
        m = self.mines[seat]
        made, allowed = len(m.picks), m.actions + m.bought
        if made < allowed:
            return (*self.targets(seat), STOP)
        if m.suit != WANDS or made > allowed or "wands passive" in self.prep.without:
            return ()
        counts = Counter(m.picks)
        if max(counts.values(), default=0) >= 3:
            return (*self.targets(seat), STOP)
        bonus = tuple(t for t in self.targets(seat) if counts[t] >= 2)
        return (*bonus, STOP) if bonus else ()

    def _end(self) -> None:
        prep = self.prep
        self.results = endgame.results(self.points, [m.thirds for m in self.mines], self.mode, NPCS, prep.tol, prep.thirds)
        fewest = self.results.fewest
        if len(fewest) == 1:
            self.candidate, self.phase = fewest[0], "over"
        elif len(self.results.main) == 1:
            self.phase = "eliminate"
        else:
            self.candidate, self.phase = fewest[self.rng.randrange(len(fewest))], "over"

    def outcome(self) -> Outcome:
        res = self.results
        assert res is not None
        main = set(res.main)
        categories = tuple(
            CANDIDATE if s == self.candidate else WINNER if main == {s} else JOINT if s in main else BETWEEN for s in range(self.n)
        )
        hands = tuple(tuple(NPC_IDS[x] for x in range(NPCS) if s in res.npc_winners[x]) for s in range(self.n))
        return Outcome(
            tuple(s in main for s in range(self.n)), categories, len(self.history), False, hands,
            tuple(float(w) for w in res.won), dict(self.actions), self._details(), self._measures(), dict(self.powers),
        )

    def _details(self) -> dict[str, Any]:
        res = self.results
        assert res is not None
        return {
            "suits": [SUIT_IDS[m.suit] for m in self.mines], "endgame": "top-two" if self.mode == TOP_TWO else "most",
            "tokens": list(res.tokens), "garnets": list(res.garnets), "candidate": self.candidate,
        }

    def _measures(self) -> dict[str, float]:
        res = self.results
        assert res is not None
        visited = [x for x in range(NPCS) if any(p[x] for p in self.points)]
        out = {
            "NPCs invalidated": float(sum(not res.npc_winners[x] for x in visited)),
            "three or more tie for first": float(len(res.tied_first) >= 3),
            "joint main match": float(len(res.main) == 2),
            "top-two endgame": float(self.mode == TOP_TWO),
            "winning margin": float(sorted(res.won)[-1] - sorted(res.won)[-2]),
        }
        for suit, name in enumerate(SUIT_IDS):
            out[f"a {name} player wins"] = float(any(self.mines[s].suit == suit for s in res.main))
        return out

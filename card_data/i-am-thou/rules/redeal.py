"""``determinize``: a whole game consistent with what one seat has seen, at
its decision, for pnp's search agent.

What a seat knows is the public table (every visit so far, the suits, the
announcements) and its own record; it is copied as it is. What it does not
know is drawn afresh: the other seats' points (a point or two for each visit
they were seen to make), their Garnets (their start and the thirds their
Coins interactions earned), the secret visits and votes of the seats asked
before it this round, and the state's generator. Hidden effects aimed at the
seat by others (a High Priestess, a Star, a Hierophant) are not invented: the
deal is one where nobody played one, which is always possible.
"""

from __future__ import annotations

import random

from pnp.engine.api import Decision

from .rounds import queue
from .state import VOTES, ThouState
from .table import COINS, NPCS, PLAYER, STOP, Mine, Observation, Prepared, thaw


def _coins_thirds(obs: Observation, seat: int) -> int:
    """The thirds of a Garnet the seat's interactions with a Coins player earned, by the public visits."""
    earned = 0
    for visits in obs.history:
        for p in range(obs.players):
            if p == seat:
                continue
            out, back = visits[seat].count(PLAYER + p), visits[p].count(PLAYER + seat)
            earned += (out + back + min(out, back)) * ((obs.suits[seat] == COINS) + (obs.suits[p] == COINS))
    return earned


def _other(prep: Prepared, obs: Observation, seat: int, rng: random.Random) -> tuple[Mine, list[int]]:
    """Another seat's record and points, as the observing seat can guess them."""
    m = Mine(obs.suits[seat], prep.garnets * prep.thirds + _coins_thirds(obs, seat))
    points = [0] * NPCS
    since = 0
    if obs.ledger is not None:
        points = list(obs.ledger[seat])
        since = obs.round - 1
    for visits in obs.history[since:]:
        for x in visits[seat]:
            if x < NPCS:
                points[x] += 1 + (rng.random() < 0.25)
    m.known = list(points)
    return m, points


def determinize(prep: Prepared, obs: Observation, decision: Decision, rng: random.Random) -> ThouState:
    st = ThouState.__new__(ThouState)
    n, me = obs.players, obs.seat
    drawn = [_other(prep, obs, s, rng) for s in range(n)]
    mines = [thaw(obs.mine) if s == me else drawn[s][0] for s in range(n)]
    st.setup(prep, n, random.Random(rng.getrandbits(64)), True, mines)
    st.points = [list(obs.mine.known) if s == me else drawn[s][1] for s in range(n)]
    st.round, st.phase, st.mode, st.shown_votes = obs.round, obs.phase, obs.endgame, obs.votes
    st.history = list(obs.history)
    st.immune, st.moon, st.worlds, st.ledger, st.results = obs.immune, obs.moon, obs.worlds, obs.ledger, obs.results
    st.cursor = me
    if obs.phase == "vote":
        st.votes = [VOTES[rng.randrange(2)] for _ in range(me)]
    elif obs.phase == "secret":
        for s in range(me):
            _secret_visits(st, s, rng)
    elif obs.phase == "effects":
        for s in range(me + 1, n):
            queue(st, s, obs.history[-1])
    elif obs.phase == "eliminate":
        st.cursor = n
    st.current = decision
    return st


def _secret_visits(st: ThouState, seat: int, rng: random.Random) -> None:
    """A seat asked before this one: visits drawn as a random player would make them."""
    m = st.mines[seat]
    m.asked_buy = m.asked_sword = m.stopped = True
    while options := st.visit_options(seat):
        pick = options[rng.randrange(len(options))]
        if pick == STOP:
            break
        m.picks.append(pick)


"""A whole B04 game consistent with what one seat has seen, for a searching
agent (docs/engine.md, "determinize"): the cards the seat knows the place of
stay where they are; every other card is dealt afresh, and the secret
intentions of the others this round are asked again."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from pnp.engine.api import Decision, shuffle

from .deck import AVAILABLE, Deck
from .state import B04State
from .views import Intentions, Observation

CORRESPONDENCE = frozenset({"sort", "invitation", "proposal", "give", "mutual"})


def determinize(deck: Deck, obs: Observation, decision: Decision, rng: random.Random) -> B04State:
    """A new state, dealt from ``rng``, in which ``obs.seat`` sees ``obs`` and
    is about to make ``decision``; it reads nothing but its arguments."""
    me, n = obs.seat, len(obs.status)
    state = B04State(deck, n, random.Random(rng.getrandbits(64)), deck.round_cap, deal=False)
    drawn = decision.context["drawn"] if decision.kind == "reflect" else None
    _deal(state, obs, drawn, rng)
    state.round, state.last_round = obs.round, obs.last_round
    state.status, state.fiance = list(obs.status), list(obs.fiance)
    state._status_view, state._fiance_view = obs.status, obs.fiance
    state.seen[me], state.known[me] = list(obs.seen), list(obs.known)
    state._seen_view[me], state._known_view[me] = obs.seen, obs.known
    state.discarded[me] = obs.discarded
    state.intentions[me], state.lying[me], state.offers[me] = obs.intention, obs.lying, obs.offers
    state._notes[me] = dict(obs.notes)
    if decision.kind == "intention":
        ready = tuple(s for s in range(n) if obs.status[s] == AVAILABLE)
        others = [Decision(s, "intention", Intentions(s, ready, state._hand_view[s])) for s in ready if s != me]
        state._queue = [decision, *others]  # simultaneous: the others choose again, after this seat
        state._stage = state._mail
        return state
    mail = obs.mail
    state._pending = {
        "touched": set(mail.touched), "refused": set(mail.refused), "received": set(mail.received),
        "turns": deque(mail.turns), "reflecting": list(mail.reflecting),
    }
    state._invites, state._proposers = list(mail.invites), list(mail.proposals)
    if decision.kind in CORRESPONDENCE:
        _lay_out_mail(state, obs, decision, rng)
        state._stage = state._correspond
    else:  # draw, reflect
        state.drawing = drawn
        state._stage = state._next_reflection
    state._queue = [decision]
    return state


def _deal(state: B04State, obs: Observation, drawn: int | None, rng: random.Random) -> None:
    """Every hand, desires card and pile: the cards the seat knows the place of
    where they are, the rest shuffled into the places it cannot see."""
    me, n = obs.seat, len(obs.status)
    placed = set(obs.hand) | {obs.desires} | obs.discarded | ({drawn} if drawn is not None else set())
    for p in range(n):
        if p != me:
            placed |= obs.known[p]
    pool = [c for c in range(len(state.deck_info.ids)) if c not in placed]
    shuffle(pool, rng)
    for p in range(n):
        if p == me:
            state.hands[p] = list(obs.hand)
            state.desires[p] = obs.desires
        else:
            hand = sorted(obs.known[p])
            take = obs.hand_sizes[p] - len(hand)
            state.hands[p] = hand + pool[:take]
            del pool[:take]
            state.desires[p] = pool.pop()
    discards = len(pool) - obs.pile
    state.discards = sorted(obs.discarded) + pool[:discards]
    state.draw_pile = pool[discards:]
    for p in range(n):
        state._own_hand_changed(p)


def _lay_out_mail(state: B04State, obs: Observation, decision: Decision, rng: random.Random) -> None:
    """The letterboxes mid-correspondence: the waiting items as the table sees
    them, with cards the seat has not seen drawn from their senders' hands,
    and as many of each player's cards away as the table sees away."""
    me, mail, hands = obs.seat, obs.mail, state.hands
    away = state.away = set(obs.lent) | obs.lying
    offered = dict(obs.offers)

    def sent_by(s: int, proposal_to_me: bool) -> int:
        if s == me:
            return int(obs.intention[2])
        if proposal_to_me:
            return offered[s]
        card = _any_free(hands[s], away, rng)
        away.add(card)
        return card

    inbox: list[dict[str, list[tuple[int, int]]]] = []
    for r in range(len(obs.status)):
        inbox.append({
            "invite": [(s, sent_by(s, False)) for s in mail.invites[r]],
            "propose": [(s, sent_by(s, r == me)) for s in mail.proposals[r]],
        })
    state._pending["inbox"] = inbox
    context: Any = decision.context
    if decision.kind == "invitation":
        s = context["from"]
        state._pending["current"] = (me, s, sent_by(s, False))
    elif decision.kind == "give":
        state._pending["trade"] = (me, context["to"], context["card"])
    for p, out in enumerate(mail.out):
        for _ in range(out - len(away.intersection(hands[p]))):
            away.add(_any_free(hands[p], away, rng))
    state._lent = [frozenset(away.intersection(hand)) for hand in hands]


def _any_free(hand: list[int], away: set[int], rng: random.Random) -> int:
    free = [c for c in hand if c not in away]
    return free[int(rng.random() * len(free))]

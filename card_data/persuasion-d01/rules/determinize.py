"""A whole D01 game consistent with what one seat has seen (the search API,
docs/engine.md): everything the seat knows the place of stays where it is
(its hand, the discards, the letters it sent or was shown in a suitor's hand,
the letters it saw on top of the deck, the desires cards it saw), every other
letter in play is dealt afresh into the places whose backs it saw (each hand's
seals, the sealed letters in the post, the deck), and the rest of the day goes
on from the public record of it (the revealed actions, the rings and letters
in the post, the scorned). Other seats' secret choices already made this round
(morning actions, commitments, gifts) are drawn afresh at random.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import partial
from typing import Any

from pnp.engine.api import Decision, EngineError, shuffle

from .cards import Pack
from .state import D01State
from .table import Step
from .views import Observation


def determinize(pack: Pack, obs: Observation, decision: Decision, rng: random.Random) -> D01State:
    """A new state in which ``obs.seat`` sees ``obs`` and is about to make ``decision``."""
    me, n = obs.seat, obs.players
    st = D01State(pack, n, random.Random(rng.getrandbits(64)), deal=False)
    st.day, st.stage = obs.day, obs.stage
    st.supply, st.received, st.fiance = list(obs.supply), [list(r) for r in obs.received], list(obs.fiances)
    st.ring = [_ring_of(obs, s) for s in range(n)]
    st.discards = list(obs.discards)
    st._rings, st._later, st._scorned = list(obs.rings_sent), list(obs.pending), list(obs.scorned)
    st._opened = obs.stage == "evening"
    _deal_letters(st, pack, obs, rng)
    _deal_desires(st, pack, obs, rng)
    st._known[me], st._owners[me], st._places[me] = dict(obs.known), dict(obs.owners), dict(obs.places)
    st._placed.update(obs.places)
    st._known_view[me] = st._places_view[me] = None
    st._seen_suits[me], st._deck_seen[me] = obs.seen_suits, obs.deck_seen
    st._peeked[me], st._notes[me] = dict(obs.peeked_desires), dict(obs.notes)
    st.committed = {c: me for c in obs.commits}
    st._backs_again()  # the hands were dealt from outside the table's own moves
    _resume(st, obs, decision, rng)
    return st


def _ring_of(obs: Observation, seat: int) -> int:
    if obs.rings_home[seat]:
        return seat
    if obs.fiances[seat] >= 0:
        return obs.fiances[seat]
    return next(-1 - r for r, s in obs.rings_sent if s == seat)


def _deal_letters(st: D01State, pack: Pack, obs: Observation, rng: random.Random) -> None:
    """Every letter: fixed where the seat knows its place, dealt by seal elsewhere."""
    me, owners = obs.seat, obs.owners
    placed = dict(obs.places)
    fixed = set(obs.hand) | set(placed) | set(obs.discards) | set(obs.deck_seen) | {c for *_, c in obs.post if c >= 0}
    # Slots whose back the seat saw but not the face: by seal.
    slots: list[Counter[int]] = [Counter(b) for b in obs.backs]
    for c, h in placed.items():
        slots[h][owners[c]] -= 1
    slots[me] = Counter()
    post_slots = Counter(seal for _, _, seal, c in obs.post if c < 0)
    # Letters in play: every letter the seat has seen, and unseen ones up to each suit's count.
    per = pack.deck_per_suit[obs.players]
    seen = set(obs.known)
    unseen: list[int] = []
    for suit in pack.suits:
        of_suit = st._letters_of[suit]
        fresh = [i for i in of_suit if i not in seen]
        want = min(per, len(of_suit)) - (len(of_suit) - len(fresh))
        unseen += rng.sample(fresh, max(0, want))
    shuffle(unseen, rng)
    by_seal: dict[int, list[int]] = {}
    for c in seen - fixed:  # seen once, its place since lost: somewhere its seal is
        by_seal.setdefault(owners[c], []).append(c)
    need: Counter[int] = Counter(post_slots)
    for h in range(st.n):
        need.update(slots[h])
    for seal, count in need.items():
        bucket = by_seal.setdefault(seal, [])
        while len(bucket) < count and unseen:
            bucket.append(unseen.pop())
        if len(bucket) != count:
            raise EngineError(f"seat {me} sees {count} letters sealed {seal} out of sight but has {len(bucket)} to put there")
        shuffle(bucket, rng)
    unseen += by_seal.get(-1, [])  # seen unsealed (on the deck) and no longer on top: still in the deck
    shuffle(unseen, rng)
    if len(unseen) != obs.deck_left - len(obs.deck_seen):
        raise EngineError(f"seat {me} sees {obs.deck_left} letters in the deck but has {len(unseen) + len(obs.deck_seen)} for it")
    for c in fixed & seen:
        st.owner[c] = owners[c]
    st.hands[me] = list(obs.hand)
    for h in range(st.n):
        if h == me:
            continue
        hand = [c for c, at in placed.items() if at == h]
        for seal, count in slots[h].items():
            hand += [_sealed(st, by_seal[seal].pop(), seal) for _ in range(count)]
        shuffle(hand, rng)
        st.hands[h] = hand
    st._letters = [(r, s, c if c >= 0 else _sealed(st, by_seal[seal].pop(), seal)) for r, s, seal, c in obs.post]
    st._posted = obs.posted
    st.deck = unseen + list(reversed(obs.deck_seen))
    in_play = set(st.deck) | set(st.discards) | {c for h in st.hands for c in h} | {c for *_, c in st._letters}
    st.box = [c for c in range(len(pack.letters)) if c not in in_play]
    for c, owner in enumerate(st.owner):  # the others: every letter they sealed, every letter they hold, the discards
        if owner >= 0 and owner != me:
            st._learn(owner, c)
    for h in range(st.n):
        if h != me:
            for c in st.hands[h] + st.discards:
                st._learn(h, c)
    post_seen: list[tuple[tuple[int, int, int], ...]] = [()] * st.n
    for item in st._letters:  # the sender saw its letter; an opened letterbox, its recipient
        r, s, c = item
        for seat in (s, r) if obs.stage == "evening" else (s,):
            if seat != me:
                st._learn(seat, c)
                post_seen[seat] += (item,)
    post_seen[me] = obs.post_seen  # what it saw of today's post, some perhaps answered since
    st._post_seen = post_seen


def _sealed(st: D01State, letter: int, seal: int) -> int:
    st.owner[letter] = seal
    return letter


def _deal_desires(st: D01State, pack: Pack, obs: Observation, rng: random.Random) -> None:
    known = {obs.seat: obs.desires, **obs.peeked_desires}
    wanted = pack.desires_per_suit[obs.players]
    pool = []
    for suit in pack.suits:
        of_suit = [d for d in pack.desires if d.suit == suit and not any(d is k for k in known.values())]
        left = wanted.get(suit, 0) - sum(1 for k in known.values() if k.suit == suit)
        pool += rng.sample(of_suit, max(0, min(left, len(of_suit))))
    shuffle(pool, rng)
    st.desires = [known[s] if s in known else pool.pop() for s in range(obs.players)]


def _resume(st: D01State, obs: Observation, decision: Decision, rng: random.Random) -> None:
    """What is left of the current stage, from its public record and the decision."""
    me, kind, context = obs.seat, decision.kind, decision.context
    evening: list[Step] = [st._next_ring, st._next_letter, st._next_scorned, st._end_day]
    if obs.stage == "start":
        st._steps = _at_start_after(st, me, context["letter"]) + [st._start_day]
        st._queue = [decision]
    elif obs.stage == "morning":
        st._steps = [st._reveal]
        st._morning = {}
        for seat in range(st.n):
            st._ask(seat, "morning", st._morning_options(seat))
        for seat in range(me):  # their choices are secret: drawn afresh
            options = st._queue[0].options
            st.apply(options[rng.randrange(len(options))])
    elif obs.stage == "reveal":
        st._steps = [st._next_morning, st._evening, st._end_day]
        if kind == "trade-give":
            if "letter" in context:
                st._trade = {"user": me, "partner": context["to"], "letter": context["letter"]}
            else:  # the partner of a trade: what the user gives is hidden
                user = context["to"]
                st._trade = {"user": user, "partner": me, "letter": -1, "given": rng.choice(st.hands[user])}
        st._queue = [decision]
    elif obs.stage == "evening":
        if kind in ("letter", "discard"):
            letter = context["letter"]
            st._pending_letter = next((r, s, c) for r, s, c in st._letters if c == letter)
            if kind == "discard":
                evening = [st._ask_letter] + evening
        st._steps = evening
        st._queue = [decision]
    else:
        _resume_matrimony(st, obs, decision, rng)


def _at_start_after(st: D01State, me: int, letter: int) -> list[Step]:
    """The at-start powers still to come after ``me`` uses ``letter``'s."""
    steps: list[Step] = []
    for seat in range(me, st.n):
        hand = st.hands[seat][:st.hand_limit(seat)]
        for card in hand[hand.index(letter) + 1:] if seat == me else hand:
            steps += [partial(st._use_power, seat, card, p) for p in st._powers(card, "at-start")]
    return steps


def _resume_matrimony(st: D01State, obs: Observation, decision: Decision, rng: random.Random) -> None:
    me = obs.seat
    if decision.kind == "commit":
        st._steps = [st._go_home]
        for seat in range(st.n):
            st._ask_commits(seat)
        while st._queue[0].seat < me:  # earlier holders' commitments: drawn afresh
            options = st._queue[0].options
            st.apply(options[rng.randrange(len(options))])
        mine = [d.context["letter"] for d in st._queue if d.seat == me]
        del st._queue[:mine.index(decision.context["letter"])]
        return
    for h, hand in enumerate(st.hands):  # after step 1 only committed letters lie with a stranger
        for c in hand:
            if st.owner[c] not in (h, st.fiance[h]):
                st.committed.setdefault(c, h)
    st._steps = [st._score]
    st._gifts = {seat: [] for seat in range(st.n) if st.fiance[seat] >= 0}
    for seat in st._gifts:
        st._ask_gift(seat)
    while st._queue[0].seat < me:  # earlier gifts: drawn afresh
        gifts: Any = st._queue[0].options
        st.apply(gifts[rng.randrange(len(gifts))])

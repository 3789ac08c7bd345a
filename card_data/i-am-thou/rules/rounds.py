"""A round's two moments the moderator runs alone: the reveal (every visit
shown, points counted, the effects queued) and the end of the round (what
was chosen for next round takes hold)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .board import Board
from .table import CUPS, FOOL, LOVERS, NPCS, PLAYER, SUIT_IDS, Mine


def reveal(st: Board) -> None:
    """Every seat's visits made public; points for each NPC visited; the
    Wands' watches and the Swords' points; each seat's effects queued."""
    visits = tuple(tuple(m.picks) for m in st.mines)
    st.history.append(visits)
    who: list[set[int]] = [set() for _ in range(NPCS)]
    for s, picks in enumerate(visits):
        for x in picks:
            if x < NPCS:
                who[x].add(s)
    for s, picks in enumerate(visits):
        for x, count in Counter(x for x in picks if x < NPCS).items():
            _visit_points(st, s, x, count, who[x])
    for owner, m in enumerate(st.mines):
        for p, x in m.wands:
            if p in who[x]:
                st.gain(owner, x, 1)
                st.tell(owner, "wands", p, x)
        if m.sword_point is not None:
            st.gain(owner, m.sword_point, 1)
            m.banned.append((m.sword_point, st.round + 2))
            st.power("swords passive")
    for s in range(st.n):
        queue(st, s, visits)


def _visit_points(st: Board, s: int, x: int, count: int, who: set[int]) -> None:
    """The points seat ``s`` earns for ``count`` visits to NPC ``x``, and
    where they go: the seat is told what it can see of them."""
    m = st.mines[s]
    base = 2 if m.death else 1
    if any(w == (s, x) for w in st.worlds) and who == {s}:
        base = 5
    hierophant = any(x in o.hierophant for o in st.mines)
    told = true = 0
    for _ in range(count):
        points = base
        if m.wheel and st.rng.random() < 0.5:
            points = max(points, 2)
            st.tell(s, "wheel", x)
        points += m.strength
        told += points
        true += points + hierophant
    if m.suit == CUPS and count >= 2 and "cups passive" not in st.prep.without:
        told, true = told + 1, true + 1
        st.power("cups passive")
    if any((s, x) in o.priestess for o in st.mines):
        true = 0
    stars = [o for o, om in enumerate(st.mines) if (s, x) in om.star]
    if stars and true:
        if len(stars) == 1:
            st.gain(stars[0], x, true)
            st.tell(stars[0], "star", s, x, true)
        true = 0
    if x == FOOL and st.prep.fool == 2 and not m.death and "fool" not in st.prep.without:
        _fool_points(st, s, true)
        return
    st.points[s][x] += true
    m.known[x] += told


def _fool_points(st: Board, s: int, true: int) -> None:
    """The Fool's second option: each Fool point becomes two random points."""
    got = [st.rng.randrange(NPCS) for _ in range(2 * true)]
    for x in got:
        st.gain(s, x, 1)
    st.tell(s, "fool", *got)
    if got:
        st.power("fool")


def queue(st: Board, s: int, visits: tuple[tuple[int, ...], ...]) -> None:
    """The seat's effects this round: each NPC visited (none under Death),
    then each interaction ability (once a visit either way, once more for
    each visit returned), then the Swords blocks it owes from last round."""
    m = st.mines[s]
    todo: list[tuple[Any, ...]] = [] if m.death else [("npc", x) for x in visits[s] if x < NPCS]
    for p in range(st.n):
        if p == s:
            continue
        out, back = visits[s].count(PLAYER + p), visits[p].count(PLAYER + s)
        times = out + back + min(out, back)
        for _ in range(times):
            todo += [(SUIT_IDS[m.suit],), (SUIT_IDS[st.mines[p].suit],)]
    todo += [("swords!",)] * m.swords_due
    m.todo = todo


def end_round(st: Board) -> None:
    """Lovers paired; what was chosen this round for the next takes hold."""
    visits = st.history[-1]
    for s, m in enumerate(st.mines):
        for p in m.lovers_pick:
            if s in st.mines[p].lovers_pick and LOVERS in visits[p] and "lovers" not in m.extra_next:
                m.extra_next.append("lovers")
                st.power("lovers")
    st.immune, st.moon, st.worlds = frozenset(st.immune_next), frozenset(st.moon_next), tuple(st.worlds_next)
    st.immune_next, st.moon_next, st.worlds_next = [], [], []
    for m in st.mines:
        _next_round(st, m)
    if st.prep.reveal:
        st.ledger = tuple(map(tuple, st.points))
        for s, m in enumerate(st.mines):
            m.known = list(st.points[s])


def _next_round(st: Board, m: Mine) -> None:
    m.actions = st.prep.visits + len(m.extra_next) - m.tower_next
    m.extra_next, m.tower_next = [], False
    m.justice, m.justice_next = m.justice_next, []
    m.blocked_by, m.blocked_next = m.blocked_next, []
    m.death, m.death_next = m.death_next, False
    m.wheel, m.wheel_next = m.wheel_next, False
    m.strength, m.strength_next = m.strength_next, False
    m.swords_due, m.swords_due_next = m.swords_due_next, 0
    m.priestess, m.priestess_next = m.priestess_next, []
    m.star, m.star_next = m.star_next, []
    m.hierophant, m.hierophant_next = m.hierophant_next, []
    m.wands, m.wands_next = m.wands_next, []
    m.banned = [(x, last) for x, last in m.banned if last > st.round]
    m.lovers_pick, m.todo = [], []
    m.picks, m.stopped, m.bought, m.asked_buy = [], False, False, False
    m.sword_point, m.asked_sword = None, False


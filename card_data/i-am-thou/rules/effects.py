"""The effects of the 22 NPCs and the interaction abilities of the four suits,
as a table: each kind of effect a seat resolves after the visits are revealed
has an offer (its options, or None when it resolves at once) and a choice.

An item of a seat's ``todo`` is a tuple ``(kind, ...)``: ``("npc", x)`` the
effect of NPC ``x`` (a visit, the Fool or the Hanged Man); a suit's id its
interaction ability; any other kind one decision of an effect under way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pnp.engine.api import Product

from .board import Board
from .table import (
    CHARIOT, DEATH, EMPRESS, FOOL, HANGED_MAN, HERMIT, MAGICIAN, NPC_IDS, NPCS, PLAYER, SKIP, STRENGTH, SUIT_IDS, SUN, TOWER, WHEEL,
)

ALL_NPCS = tuple(range(NPCS))
Offer = Callable[[Board, int, tuple[Any, ...]], Sequence[Any] | None]
Choose = Callable[[Board, int, tuple[Any, ...], Any], None]


def others(st: Board, seat: int, negative: bool) -> tuple[int, ...]:
    """The players ``seat`` may target (an immune one not by a negative effect)."""
    return tuple(p for p in range(st.n) if p != seat and not (negative and p in st.immune))


def owned(st: Board, seat: int, but: int = -1) -> tuple[int, ...]:
    """NPCs the seat may willingly lose a point of: it knows it has one."""
    known = st.mines[seat].known
    return tuple(x for x in ALL_NPCS if known[x] > 0 and x != but)


def player_and_npc(st: Board, seat: int, negative: bool, npcs: tuple[int, ...] = ALL_NPCS) -> Sequence[Any]:
    players = others(st, seat, negative)
    return Product((players, npcs)) if players and npcs else ()


def in_a_row(st: Board, seat: int, npc: int) -> bool:
    """Empress and Tower: a round that is a multiple of three, and this seat
    visited ``npc`` in each of the last three rounds (this one included)."""
    r = st.round
    if r % 3 or r < 3:
        return False
    rounds = [*st.history[r - 3 : r - 1], st.history[r - 1]]
    return all(npc in visits[seat] for visits in rounds)


# -- effects that resolve at once --------------------------------------------------


def _npc(st: Board, seat: int, item: tuple[Any, ...]) -> None:
    """An NPC's effect begins: a decision goes first in the todo, or it resolves now."""
    x = item[1]
    if NPC_IDS[x] in st.prep.without:
        return
    m = st.mines[seat]
    r = st.round
    if x == FOOL:
        if st.prep.fool == 1 and m.fool_last < r - 1:
            m.todo.insert(0, ("fool",))
        return
    if x == SUN:
        if m.sun_last < r - 1:
            m.todo.insert(0, ("sun",))
        return
    if x in AT_ONCE:
        AT_ONCE[x](st, seat)
        return
    if x == TOWER:
        if in_a_row(st, seat, TOWER):
            m.todo.insert(0, ("tower",))
        return
    m.todo.insert(0, ("magician-in",) if x == MAGICIAN else (NPC_IDS[x],))


def _empress(st: Board, seat: int) -> None:
    m = st.mines[seat]
    if in_a_row(st, seat, EMPRESS) and "empress" not in m.extra_next:
        m.extra_next.append("empress")
        st.power("empress")


def _chariot(st: Board, seat: int) -> None:
    """An extra point on each NPC this seat and another player both visited
    this round; once a round."""
    m = st.mines[seat]
    if m.chariot_last == st.round:
        return
    m.chariot_last = st.round
    visits = st.history[st.round - 1]
    shared = {x for x in visits[seat] if x < NPCS and any(x in v for s, v in enumerate(visits) if s != seat)}
    for x in sorted(shared):
        st.gain(seat, x, 1)
    if shared:
        st.power("chariot")


def _hermit(st: Board, seat: int) -> None:
    m = st.mines[seat]
    visited = any(PLAYER + seat in v for v in st.history[st.round - 1])
    if not visited and "hermit" not in m.extra_next:
        m.extra_next.append("hermit")
        st.power("hermit")


def _wheel(st: Board, seat: int) -> None:
    st.mines[seat].wheel_next = True
    st.power("wheel-of-fortune")


def _strength(st: Board, seat: int) -> None:
    m = st.mines[seat]
    if m.strength_last < st.round - 1:
        m.strength_last = st.round
        m.strength_next = True
        st.power("strength")


def _death(st: Board, seat: int) -> None:
    st.mines[seat].death_next = True
    st.power("death")


AT_ONCE: dict[int, Callable[[Board, int], None]] = {
    EMPRESS: _empress, CHARIOT: _chariot, HERMIT: _hermit, WHEEL: _wheel, STRENGTH: _strength, DEATH: _death,
}


# -- offers: the options of each decision ---------------------------------------------


def _any_npc(but: int = -1) -> Offer:
    npcs = tuple(x for x in ALL_NPCS if x != but)
    return lambda st, seat, item: npcs


def _magician_in(st: Board, seat: int, item: tuple[Any, ...]) -> Sequence[Any]:
    return (SKIP, *owned(st, seat, MAGICIAN))


def _magician_out(st: Board, seat: int, item: tuple[Any, ...]) -> Sequence[Any]:
    if st.mines[seat].known[MAGICIAN] < 1:
        return ()
    return (SKIP, *(x for x in ALL_NPCS if x != MAGICIAN))


def _pick_player(negative: bool) -> Offer:
    return lambda st, seat, item: others(st, seat, negative)


def _hanged(st: Board, seat: int, item: tuple[Any, ...]) -> Sequence[Any]:
    if st.round < 2:
        return ()
    last = st.history[st.round - 2][seat]
    return tuple(x for x in owned(st, seat, HANGED_MAN) if x in last)


def _temperance(st: Board, seat: int, item: tuple[Any, ...]) -> Sequence[Any]:
    m = st.mines[seat]
    return (SKIP, *ALL_NPCS) if m.thirds >= st.prep.thirds * (m.temperance_used + 1) else ()


def _cups(st: Board, seat: int, item: tuple[Any, ...]) -> Sequence[Any]:
    gifts = tuple((p, x) for p in others(st, seat, False) for x in owned(st, seat))
    return (SKIP, *gifts) if gifts else ()


OFFERS: dict[str, Offer] = {
    "fool": _any_npc(FOOL),
    "magician-in": _magician_in,
    "magician-out": _magician_out,
    "high-priestess": lambda st, seat, item: player_and_npc(st, seat, True),
    "emperor": _pick_player(False),
    "hierophant": _any_npc(),
    "lovers": _pick_player(False),
    "justice": lambda st, seat, item: player_and_npc(st, seat, True),
    "hanged-man": _hanged,
    "temperance": _temperance,
    "devil": lambda st, seat, item: player_and_npc(st, seat, True, owned(st, seat)),
    "tower": _pick_player(True),
    "star": lambda st, seat, item: player_and_npc(st, seat, True),
    "moon": _pick_player(True),
    "sun": _any_npc(),
    "judgement": _any_npc(),
    "judgement-point": _any_npc(),
    "world": _any_npc(),
    "wands": lambda st, seat, item: player_and_npc(st, seat, False),
    "cups": _cups,
    "swords": _pick_player(True),
}
"""The options of each kind of effect decision (none: the effect is lost)."""


# -- choices ----------------------------------------------------------------------


def _fool(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    st.mines[seat].fool_last = st.round
    st.mines[seat].todo.insert(0, ("npc", x))
    st.power("fool")


def _magician_in_choose(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    if x != SKIP:
        st.move(seat, x, MAGICIAN)
        st.power("magician")
    st.mines[seat].todo.insert(0, ("magician-out",))


def _magician_out_choose(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    if x != SKIP:
        st.move(seat, MAGICIAN, x)
        st.power("magician")


def _keep(name: str, into: str, public: bool = False) -> Choose:
    """A choice kept for next round: in the seat's own record (``into``, its
    secret), or announced (``public``: a list of the state)."""

    def choose(st: Board, seat: int, item: tuple[Any, ...], choice: Any) -> None:
        if public:
            getattr(st, into).append((seat, choice) if into == "worlds_next" else choice)
        else:
            getattr(st.mines[seat], into).append(choice)
        st.power(name)

    return choose


def _justice(st: Board, seat: int, item: tuple[Any, ...], choice: tuple[int, int]) -> None:
    p, x = choice
    st.mines[p].justice_next.append(x)
    st.tell(p, "justice", x)
    st.power("justice")


def _lovers(st: Board, seat: int, item: tuple[Any, ...], p: int) -> None:
    st.mines[seat].lovers_pick.append(p)


def _hanged_choose(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    st.lose(seat, x)
    st.mines[seat].todo.insert(0, ("npc", x))
    st.power("hanged-man")


def _temperance_choose(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    if x == SKIP:
        return
    m = st.mines[seat]
    m.temperance_used += 1
    m.thirds -= st.prep.thirds * m.temperance_used
    st.gain(seat, x, 1)
    st.power("temperance")


def _devil(st: Board, seat: int, item: tuple[Any, ...], choice: tuple[int, int]) -> None:
    p, x = choice
    st.lose(seat, x)
    st.lose(p, x)
    st.tell(p, "devil", x, seat)
    st.power("devil")


def _tower(st: Board, seat: int, item: tuple[Any, ...], p: int) -> None:
    st.mines[p].tower_next = True
    st.tell(p, "tower", seat)
    st.power("tower")


def _sun(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    st.mines[seat].sun_last = st.round
    st.gain(seat, x, 1)
    st.power("sun")


def _judgement(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    had = st.points[seat][x]
    st.points[seat][x] = st.mines[seat].known[x] = 0
    share = had * 4 // 5
    st.tell(seat, "judgement", x, share)
    st.mines[seat].todo[0:0] = [("judgement-point",)] * share
    st.power("judgement")


def _judgement_point(st: Board, seat: int, item: tuple[Any, ...], x: int) -> None:
    st.gain(seat, x, 1)


def _cups_choose(st: Board, seat: int, item: tuple[Any, ...], gift: tuple[int, int] | int) -> None:
    if not isinstance(gift, tuple):
        return
    p, x = gift
    st.lose(seat, x)
    st.gain(p, x, 1)
    st.tell(p, "cups", x, seat)
    st.power("cups interaction")


def _swords(st: Board, seat: int, item: tuple[Any, ...], p: int) -> None:
    st.mines[p].blocked_next.append(seat)
    st.tell(p, "swords", seat)
    st.power("swords interaction")


CHOICES: dict[str, Choose] = {
    "fool": _fool,
    "magician-in": _magician_in_choose,
    "magician-out": _magician_out_choose,
    "high-priestess": _keep("high-priestess", "priestess_next"),
    "emperor": _keep("emperor", "immune_next", public=True),
    "hierophant": _keep("hierophant", "hierophant_next"),
    "lovers": _lovers,
    "justice": _justice,
    "hanged-man": _hanged_choose,
    "temperance": _temperance_choose,
    "devil": _devil,
    "tower": _tower,
    "star": _keep("star", "star_next"),
    "moon": _keep("moon", "moon_next", public=True),
    "sun": _sun,
    "judgement": _judgement,
    "judgement-point": _judgement_point,
    "world": _keep("world", "worlds_next", public=True),
    "wands": _keep("wands interaction", "wands_next"),
    "cups": _cups_choose,
    "swords": _swords,
}


def _suit(st: Board, seat: int, item: tuple[Any, ...]) -> None:
    """A suit's interaction ability begins: Coins pays now, Swords chooses next round."""
    m = st.mines[seat]
    if f"{item[0]} interaction" in st.prep.without:
        return
    if item[0] == "coins":
        m.thirds += 1
        st.power("coins interaction")
    elif item[0] == "swords":
        m.swords_due_next += 1
    else:
        m.todo.insert(0, (item[0] + "!",))


def next_decision(st: Board, seat: int) -> tuple[str, Sequence[Any]] | None:
    """Resolve the seat's effects up to its next decision: (kind, options), or None when done."""
    m = st.mines[seat]
    while m.todo:
        item = m.todo[0]
        kind = item[0]
        if kind == "npc":
            m.todo.pop(0)
            _npc(st, seat, item)
            continue
        if kind in SUIT_IDS:
            m.todo.pop(0)
            _suit(st, seat, item)
            continue
        name = kind.rstrip("!")
        options = OFFERS[name](st, seat, item)
        if options:
            return name, options
        m.todo.pop(0)
    return None


def choose(st: Board, seat: int, choice: Any) -> None:
    item = st.mines[seat].todo.pop(0)
    CHOICES[item[0].rstrip("!")](st, seat, item, choice)

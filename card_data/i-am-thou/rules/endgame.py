"""The endgame, shared by the engine and `pnp score`: who wins each NPC (in
either way of the Group Decision), the Main Match and its Tokens of Life, the
Elimination Candidate and the Garnets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .table import MOST, TOP_TWO


@dataclass(frozen=True)
class Results:
    """The endgame of one table, by seat."""

    npc_winners: tuple[tuple[int, ...], ...]
    """Per NPC, the seats that win it (empty: invalidated or unvisited)."""
    won: tuple[int, ...]
    """NPCs each seat wins."""
    main: tuple[int, ...]
    """The Main Match winners (one, two jointly, or none when three or more tie)."""
    tied_first: tuple[int, ...]
    """Every seat with the most NPCs (the Main Match winners, or the tie that voids them)."""
    tokens: tuple[int, ...]
    """Tokens of Life per seat."""
    fewest: tuple[int, ...]
    """The seats with the fewest NPCs: the Elimination Candidate, or those it is chosen from."""
    garnets: tuple[int, ...]
    """Whole Garnets per seat at the end (thirds rounded down)."""


def npc_winners(points: Sequence[int], mode: int) -> tuple[int, ...]:
    """The seats winning one NPC from each seat's points. A seat with no point
    never wins. MOST: the single highest; a tie voids it. TOP_TWO: the two
    highest; two tied at the top both win, three or more void it; a tie for
    second voids second place only."""
    ranked = sorted({p for p in points if p > 0}, reverse=True)
    if not ranked:
        return ()
    first = tuple(s for s, p in enumerate(points) if p == ranked[0])
    if mode == MOST:
        return first if len(first) == 1 else ()
    assert mode == TOP_TWO
    if len(first) >= 2:
        return first if len(first) == 2 else ()
    if len(ranked) < 2:
        return first
    second = tuple(s for s, p in enumerate(points) if p == ranked[1])
    return first + second if len(second) == 1 else first


def results(points: Sequence[Sequence[int]], thirds: Sequence[int], mode: int, npcs: int, tokens: int, per: int) -> Results:
    """``points[seat][npc]``; ``thirds``: each seat's Garnets in thirds
    (``per`` thirds a Garnet) before the NPCs' Garnets; ``tokens``: the Tokens
    of Life a single Main Match winner earns."""
    seats = range(len(points))
    winners = tuple(npc_winners([points[s][x] for s in seats], mode) for x in range(npcs))
    won = tuple(sum(s in w for w in winners) for s in seats)
    top, low = max(won), min(won)
    first = tuple(s for s in seats if won[s] == top)
    main = first if len(first) <= 2 else ()
    share = {1: tokens, 2: tokens // 2}.get(len(main), 0)
    return Results(
        winners, won, main, first, tuple(share if s in main else 0 for s in seats),
        tuple(s for s in seats if won[s] == low), tuple((thirds[s] + per * won[s]) // per for s in seats),
    )

"""``pnp check``: can every player tell a game's colours apart?

A game declares the colours players tell things apart by (``checks.colours``:
suits, crests, families), or, declaring none, its whole palette is checked.
Each pair of colours of a group is compared with full colour vision and as a
protan, deutan and tritan player sees it (:mod:`pnp.colour.vision`); a pair
closer than :data:`THRESHOLD` is a warning, or a note when the group says what
else tells its members apart (``also``: a symbol, a name).

With the palette as fallback, a pair already closer than the threshold with
full colour vision is left out: such colours (two creams, two inks) are not
meant to be told apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from pnp.colour.vision import DEFICIENCIES, Deficiency, distance
from pnp.model import Game
from pnp.rules.findings import Finding, Severity

THRESHOLD = 10.0
"""The least CIEDE2000 difference at which two colours still tell pieces
apart at a glance; docs/card-data.md (Checks) gives the reasoning."""

CHECK = "colours"


@dataclass(frozen=True)
class Group:
    name: str
    colours: tuple[str, ...]
    """Palette names or ``#rrggbb``."""
    also: str | None
    where: str
    declared: bool


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    full: float
    """CIEDE2000 with full colour vision."""
    seen: tuple[tuple[Deficiency, float], ...]
    """CIEDE2000 as each deficiency sees the pair."""

    def close(self, threshold: float) -> tuple[tuple[Deficiency | None, float], ...]:
        """Who sees the pair closer than ``threshold`` (None: everyone)."""
        if self.full < threshold:
            return ((None, self.full),)
        return tuple((who, d) for who, d in self.seen if d < threshold)


def groups(game: Game) -> tuple[Group, ...]:
    """The declared groups, or the palette as one group."""
    declared = game.checks.colours
    if declared:
        return tuple(
            Group(g.name, tuple(g.colours), g.also, str(game.where.get(f"checks.colours[{i}]", game.source)), True)
            for i, g in enumerate(declared)
        )
    if len(game.palette) < 2:
        return ()
    return (Group("palette", tuple(game.palette), None, str(game.where.get("palette", game.source)), False),)


def pairs(game: Game, colours: Sequence[str]) -> list[Pair]:
    out = []
    for first, second in combinations(dict.fromkeys(colours), 2):
        a, b = game.colour(first) or first, game.colour(second) or second
        seen = tuple((who, distance(a, b, who)) for who in DEFICIENCIES)
        out.append(Pair(first, second, distance(a, b), seen))
    return out


def findings(game: Game, threshold: float = THRESHOLD) -> list[Finding]:
    """A finding for each pair of a group that someone sees as too close, closest first."""
    out = []
    for group in groups(game):
        close = [(pair, pair.close(threshold)) for pair in pairs(game, group.colours)]
        close = [(pair, who) for pair, who in close if who and (group.declared or pair.full >= threshold)]
        for pair, who in sorted(close, key=lambda item: min(d for _, d in item[1])):
            level = Severity.WARNING if group.also is None else Severity.INFO
            message = f"{group.name}: {pair.first} and {pair.second} look alike {_who(who)} (CIEDE2000 below {threshold:g}"
            if who[0][0] is not None:
                message += f"; {pair.full:.1f} with full colour vision"
            message += ")" + (f"; also told apart by: {group.also}" if group.also else "")
            out.append(Finding(level, CHECK, message, group.where))
    return out


def _who(close: Sequence[tuple[Deficiency | None, float]]) -> str:
    if close[0][0] is None:
        return f"to everyone ({close[0][1]:.1f})"
    return "to " + ", ".join(f"a {who} player ({d:.1f})" for who, d in close)

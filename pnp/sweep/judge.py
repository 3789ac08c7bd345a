"""Each version's measures with their intervals, judged against the targets.

A measure is a list of intervals ``{value, low, high}`` (one per seat for
``win_rate``, else one), from the Wilson and mean intervals of
:mod:`pnp.engine.simulate` and the skill gap of :mod:`pnp.engine.skill`. A
target is *met* when every interval lies inside its band, *missed* when an
interval lies wholly outside it, else *open*. The distance of a version from
the targets is how far its point values lie outside the bands (rates and
seat balance in shares, the skill gap in points over 100, rounds relative to
the band's edge); the ranking is by targets missed, then distance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pnp.engine.simulate import Z95, Tally, mean_interval, wilson
from pnp.engine.skill import gap
from pnp.rules.figures import Mean, Rate
from pnp.sweep.spec import Band

Z_DROP = 3.2905267314919255
"""The sequential test's interval (99.9 %): a version is dropped after a
round when an interval this wide lies wholly outside a band, so looking again
after each round rarely drops a version that meets its targets."""

Interval = dict[str, float]


def measures(table: Tally, players: int, pairs: Sequence[Tally] | None, z: float = Z95) -> dict[str, list[Interval]]:
    """Every measure of one version at one player count."""
    games = table.games
    rates = [wilson(table.seat_wins[s], games, z) for s in range(players)]
    rounds = [float(sum(r * c for r, c in table.rounds.items())), float(sum(r * r * c for r, c in table.rounds.items()))]
    out = {
        "win_rate": [_interval(r["rate"], r["low"], r["high"]) for r in rates],
        "seat_balance": [_interval(
            1 - (max(r["rate"] for r in rates) - min(r["rate"] for r in rates)),
            1 - (max(r["high"] for r in rates) - min(r["low"] for r in rates)),
            1 - max(0.0, max(r["low"] for r in rates) - min(r["high"] for r in rates)),
        )],
        "winners_share": [_rate(wilson(sum(table.seat_wins.values()), games * players, z))],
        "no_winner_rate": [_rate(wilson(table.no_winner, games, z))],
        "rounds": [_mean(mean_interval(rounds, games, z))],
    }
    if pairs and sum(t.games for t in pairs) and players > 1:
        found = gap(list(pairs), z)
        out["skill_gap"] = [_interval(found["points"], found["low"], found["high"])]
    return out


def _interval(value: float, low: float, high: float) -> Interval:
    return {"value": round(value, 6), "low": round(low, 6), "high": round(high, 6)}


def _rate(r: Rate) -> Interval:
    return _interval(r["rate"], r["low"], r["high"])


def _mean(m: Mean) -> Interval:
    return _interval(m["mean"], m["low"], m["high"])


def status(band: Band, intervals: Sequence[Interval]) -> str:
    """met, missed or open (see the module's text)."""
    outside = any(
        (band.low is not None and i["high"] < band.low) or (band.high is not None and i["low"] > band.high) for i in intervals
    )
    inside = all(
        (band.low is None or i["low"] >= band.low) and (band.high is None or i["high"] <= band.high) for i in intervals
    )
    return "missed" if outside else "met" if inside else "open"


def distance(band: Band, intervals: Sequence[Interval]) -> float:
    """How far the point values lie outside the band, in the measure's scale."""
    scale = 100.0 if band.measure == "skill_gap" else 1.0
    total = 0.0
    for i in intervals:
        v = i["value"]
        edge = band.low if band.low is not None and v < band.low else band.high if band.high is not None and v > band.high else None
        if edge is not None:
            total += abs(v - edge) / (max(abs(edge), 1.0) if band.measure == "rounds" else scale)
    return total


@dataclass(frozen=True)
class Verdict:
    missed: int
    open: int
    distance: float
    by_target: Mapping[str, Mapping[int, str]]
    """measure -> player count -> met, missed or open."""

    @property
    def said(self) -> str:
        return "missed" if self.missed else "open" if self.open else "met"


def verdict(targets: Sequence[Band], by_players: Mapping[int, Mapping[str, list[Interval]]]) -> Verdict:
    """A version's standing over every player count it played."""
    missed = opened = 0
    far = 0.0
    by_target: dict[str, dict[int, str]] = {}
    for band in targets:
        for n, found in sorted(by_players.items()):
            if band.measure not in found:
                continue
            said = status(band, found[band.measure])
            by_target.setdefault(band.measure, {})[n] = said
            missed += said == "missed"
            opened += said == "open"
            far += distance(band, found[band.measure])
    return Verdict(missed, opened, round(far, 6), by_target)


def rank_key(v: Verdict, dropped: bool, games: int) -> tuple[bool, int, float, int, int]:
    return (dropped, v.missed, v.distance, v.open, -games)

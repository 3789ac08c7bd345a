"""What the ladder's games say (:mod:`pnp.engine.ladder`): the skill trace,
the usage of actions and powers at each level, and the findings on both."""

from __future__ import annotations

import math
from fractions import Fraction

from pnp.engine.ladder import Ladder
from pnp.engine.simulate import Z95, Tally, wilson
from pnp.rules.figures import SkillGap, Step, TracePair, Usage, Verdict
from pnp.rules.findings import Finding, Severity
from pnp.words import listed

MIN_GAMES = 30
"""Games a level needs for the balance figures to be reported at it, and
for its trace and usage to be judged (fewer are reported, not judged)."""


def balance_level(ladder: Ladder, cap: int) -> str | None:
    """The strongest level whose tables played enough games to report the
    balance at (:data:`MIN_GAMES`, or every game asked for when fewer)."""
    enough = [level.agent for level in ladder.levels if level.games >= min(cap, MIN_GAMES)]
    return enough[-1] if enough else None


def _pair(ladder: Ladder, level: str, n: int) -> list[Tally]:
    return [ladder.tallies[(level, ("pair", n, seat))] for seat in range(n)]


def step(tallies: list[Tally]) -> Step:
    """One pair at one player count: the stronger seat's share of the games
    someone won (a win shared by k seats is 1/k), against the fair share 1/n,
    with 95 % intervals; ``tallies[s]``: the games with the stronger seat at ``s``."""
    n = len(tallies)
    share = sum((Fraction(count, winners) for at, t in enumerate(tallies) for (seat, winners), count in t.shared_wins.items()
                 if seat == at), Fraction(0))
    won = sum(t.games - t.no_winner for t in tallies)
    rate = wilson(float(share), won)
    fair = 1 / n
    verdict: Verdict = "none won" if not won else "stronger" if rate["low"] > fair else "weaker" if rate["high"] < fair else "even"
    return {
        "games": sum(t.games for t in tallies), "games_won": won, "share": rate, "fair": round(fair, 6),
        "times_fair": {"rate": round(rate["rate"] * n, 4), "low": round(rate["low"] * n, 4), "high": round(rate["high"] * n, 4)},
        "verdict": verdict,
    }


def trace(ladder: Ladder, counts: tuple[int, ...]) -> list[TracePair]:
    """Each adjacent pair of levels played, at every player count (:func:`step`)."""
    played = ladder.played()
    return [
        {"weaker": weaker, "stronger": stronger, "by_players": {str(n): step(_pair(ladder, stronger, n)) for n in counts}}
        for weaker, stronger in zip(played, played[1:])
    ]


def skill_gap(ladder: Ladder, n: int) -> SkillGap | None:
    """How far a heuristic seat among random ones beats them, in points of
    win rate (whole wins), from the (random, heuristic) pair; None without it."""
    played = ladder.played()
    if "heuristic" not in played or played.index("heuristic") == 0 or played[played.index("heuristic") - 1] != "random":
        return None
    found = gap(_pair(ladder, "heuristic", n))
    return {
        "heuristic_seat": found["strong_seat"], "random_seat": found["weak_seat"],
        "points": found["points"], "low": found["low"], "high": found["high"],
    }


def gap(tallies: list[Tally], z: float = Z95) -> dict[str, float]:
    """How far a strong seat among weak ones beats them, in points of win
    rate (whole wins), with its interval at ``z`` (95 %: :data:`Z95`);
    ``tallies[s]``: the games with the strong seat at ``s``."""
    n = len(tallies)
    games = sum(t.games for t in tallies)
    skilled = sum(t.seat_wins[seat] for seat, t in enumerate(tallies)) / games
    plain = sum(sum(t.seat_wins.values()) - t.seat_wins[seat] for seat, t in enumerate(tallies)) / (games * (n - 1))
    spread = z * math.sqrt(skilled * (1 - skilled) / games + plain * (1 - plain) / (games * (n - 1)))
    return {
        "strong_seat": round(skilled, 6), "weak_seat": round(plain, 6), "points": round(100 * (skilled - plain), 2),
        "low": round(100 * (skilled - plain - spread), 2), "high": round(100 * (skilled - plain + spread), 2),
    }


def usage(ladder: Ladder, usable: dict[str, tuple[str, ...]] | None, counts: tuple[int, ...]) -> dict[str, dict[str, Usage]]:
    """At each level and player count (the rules as printed, every seat at
    the level): uses per game of each kind of action and each card power, and,
    when the engine says what can be used (``usable``), what never was."""
    out: dict[str, dict[str, Usage]] = {}
    for level in ladder.played():
        for n in counts:
            tally = ladder.tallies[(level, ("table", None, n))]
            counts_of = {"actions": tally.actions, "powers": tally.powers}
            per_game = {
                kind: {name: round(counted[name] / tally.games, 6) for name in sorted({*counted, *(usable or {}).get(kind, ())})}
                for kind, counted in counts_of.items()
            }
            row: Usage = {"games": tally.games, "actions": per_game["actions"], "powers": per_game["powers"]}
            if usable is not None:
                row["never_used"] = {kind: [name for name in usable.get(kind, ()) if not counted[name]] for kind, counted in counts_of.items()}
            out.setdefault(level, {})[str(n)] = row
    return out


def skill_findings(steps: list[TracePair], where: str) -> list[Finding]:
    """A warning for each pair where skill barely matters (the interval
    holds the fair share) and each where the weaker level wins more, at the
    player counts where :data:`MIN_GAMES` games or more had a winner."""
    found = []
    for pair in steps:
        for verdict, words in (("even", "skill barely matters: a {s} seat among {w} ones wins about its fair share"),
                               ("weaker", "{w} play beats {s}: a {s} seat among {w} ones wins less than its fair share")):
            hits = [f"{n} players {m['share']['rate']:.1%} ({m['share']['low']:.1%}-{m['share']['high']:.1%}, fair {m['fair']:.1%})"
                    for n, m in pair["by_players"].items() if m["verdict"] == verdict and m["games_won"] >= MIN_GAMES]
            if hits:
                said = words.format(s=pair["stronger"], w=pair["weaker"])
                found.append(Finding(Severity.WARNING, "skill", f"{said} of the games won, 95 % interval: {'; '.join(hits)}", where))
    return found


def usage_findings(used: dict[str, dict[str, Usage]], where: str) -> list[Finding]:
    """A warning for each level at which some action or power the engine
    can use was never used, with the player counts where it was not (those
    with :data:`MIN_GAMES` games or more)."""
    found = []
    for level, by_count in used.items():
        missing: dict[tuple[str, str], list[str]] = {}
        for n, row in by_count.items():
            for kind, names in row.get("never_used", {}).items() if row["games"] >= MIN_GAMES else ():
                for name in names:
                    missing.setdefault((kind, name), []).append(n)
        if missing:
            said = [f"{kind[:-1]} {name} ({listed(ns)} players)" for (kind, name), ns in missing.items()]
            games = min(row["games"] for row in by_count.values())
            found.append(Finding(Severity.WARNING, "usage", f"never used at the {level} level (at least {games} games a player count): {'; '.join(said)}", where))
    return found

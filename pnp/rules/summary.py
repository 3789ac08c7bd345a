"""How ``pnp check`` shows a report: a short text summary, JSON, or HTML."""

from __future__ import annotations

import json
from html import escape
from typing import Literal

from pnp.rules.figures import Exact, LadderFigures, Measure, Metrics, OddsFigures, OutcomeFigures, Usage, WhatIf
from pnp.rules.findings import Report, Severity
from pnp.words import count

NOT_PLAYED = "not played"
"""How a ``simulation`` finding that played no game begins; the summary line repeats its reason."""


def as_json(report: Report, strict: bool) -> str:
    data = {
        "ok": report.ok(strict),
        "game": report.game,
        "findings": [f.as_json() for f in report.findings],
        "exact": report.exact,
    }
    return json.dumps(data, indent=2)


def as_text(report: Report, strict: bool) -> str:
    lines = []
    for level in (Severity.ERROR, Severity.WARNING):
        for f in report.findings:
            if f.level is level:
                lines.append(f"{f.where}: {level.value}: [{f.check}] {f.message}")
    balance = [f for f in report.findings if f.check == "balance"]
    if balance:
        lines.append("Balance:")
        lines.extend(f"  {f.message}" for f in balance)
    notes = [f for f in report.findings if f.check == "colours" and f.level is Severity.INFO]
    if notes:
        lines.append("Colours told apart by more than colour:")
        lines.extend(f"  {f.message}" for f in notes)
    for key, odds in report.exact.get("odds", {}).items():
        values = [v["value"] for d in odds["goals"].values() for v in d.values()]
        if values:
            lines.append(
                f"Odds ({key}, at least {odds['need']} matching): {len(odds['goals'])} goal cards, "
                f"exact; lowest {min(values):.1%}, highest {max(values):.1%} over every player count"
            )
    for label, row in report.exact.get("instances", {}).items():
        counts = ", ".join(f"{v} {n}" for v, n in row["counts"].items())
        lines.append(f"Instances ({label}): {counts}: {'ok' if row['ok'] else 'NOT'} {row['expected']} ({row['why']})")
    lines += figure_lines(report.exact) + played_lines(report.exact)
    errors = sum(f.level is Severity.ERROR for f in report.findings)
    warnings = sum(f.level is Severity.WARNING for f in report.findings)
    verdict = "ok" if report.ok(strict) else "NOT OK"
    unplayed = "".join(
        f"; no game was played{f.message[len(NOT_PLAYED):]}"
        for f in report.findings if f.check == "simulation" and f.message.startswith(NOT_PLAYED)
    )
    lines.append(f"{report.game}: {verdict}: {count(errors, 'error')}, {count(warnings, 'warning')}{unplayed}")
    return "\n".join(lines)


def played_lines(exact: Exact) -> list[str]:
    """Simulated play, as printed and in each variant, then the skill ladder."""
    lines = []
    plays = [("", exact.get("simulation", {}))]
    plays += [(f"variant {name}, ", by_count) for name, by_count in exact.get("variants", {}).items()]
    for label, by_count in plays:
        for players, sim in by_count.items():
            lines += _play_lines(label, players, sim)
    if "ladder" in exact:
        lines += ladder_lines(exact["ladder"])
    return lines


def figure_lines(exact: Exact) -> list[str]:
    """One line per card profile group, die, token supply, link and agreement checked."""
    lines = []
    for component, found in exact.get("profile", {}).items():
        for group, row in found["groups"].items():
            totals = ", ".join(f"{f} {t}" for f, t in row["totals"].items())
            lines.append(f"Profile ({component}, {group}): {row['cards']} cards, sums {_counts(row['sums'])}, spreads {_counts(row['spreads'])}; totals {totals}")
    for label, die in exact.get("dice", {}).items():
        lines.append(f"Dice ({label}): " + ", ".join(f"{v} {p}" for v, p in die["odds"].items()))
    for label, supply in exact.get("tokens", {}).items():
        shortest = ", ".join(f"{n} players {t['shortest_turns']} turns" for n, t in supply["tables"].items())
        lines.append(f"Tokens ({label}): worth {supply['value']} in {supply['tokens']} tokens; the supply lasts at least: {shortest}")
    for key, link in exact.get("links", {}).items():
        lines.append(f"Links ({key}): {len(link['named'])} of {link['targets']} named")
    for key, agreed in exact.get("agree", {}).items():
        lines.append(f"Agree ({key}): {agreed['groups']} groups, by size {_counts(agreed['sizes'])}")
    return lines


def _counts(tally: dict[int, int]) -> str:
    return ", ".join(f"{k}: {n}" for k, n in tally.items())


def measure_lines(measures: dict[str, Measure]) -> list[str]:
    """The measures as report lines: mean per game and share of games with any,
    each with its 95 % interval; those no game had share one line, so the
    table shows what happened."""
    seen = {name: m for name, m in measures.items() if m["games_with"]["rate"] > 0}
    never = [name for name in measures if name not in seen]
    lines = ["  per game (mean, 95 % interval; games with any):"] if seen else []
    for name, m in seen.items():
        w = m["games_with"]
        lines.append(f"    {name}: {m['mean']:.3f} ({m['low']:.3f}-{m['high']:.3f}); {w['rate']:.1%} ({w['low']:.1%}-{w['high']:.1%})")
    if never:
        high = max(measures[name]["games_with"]["high"] for name in never)
        lines.append(f"  in no game (so at most {high:.1%} of games, 95 % interval): {', '.join(never)}")
    return lines


def agents_said(agents: list[str]) -> str:
    """Which agents produced the figures: one kind at every seat, or each seat's."""
    if len(set(agents)) == 1:
        return f"{agents[0]} agents at every seat"
    return "agents by seat " + ", ".join(agents)


def no_winner_said(sim: Metrics) -> str | None:
    """How often nobody won, in the game's own words for it; None when it
    never happened (the line would say nothing)."""
    rate = sim["no_winner_rate"]["rate"]
    return f"no winner {rate:.1%} ({sim['words']['no_winner']})" if rate > 0 else None


def outcomes_said(outcomes: dict[str, OutcomeFigures]) -> str | None:
    """The engine's categories with how often each won; None when every
    category only restates winning or losing (all its seats won, or none did)."""
    if not any(v["wins"] and v["losses"] for v in outcomes.values()):
        return None
    return "outcomes: " + ", ".join(f"{k} {v['share']['rate']:.0%} (wins {v['win_rate']['rate']:.0%})" for k, v in outcomes.items())


def _play_lines(label: str, players: str, sim: Metrics) -> list[str]:
    """One table size of simulated play: the summary, seats, and the engine's measures."""
    agents = agents_said(sim["agents"])
    no_winner = no_winner_said(sim)
    return [
        f"Play ({label}{players} players, {sim['games']} games, {agents}): winners {sim['winners_share']['rate']:.0%} of players, "
        + (f"{no_winner}, " if no_winner else "")
        + f"{seat_balance(sim)}, median {sim['rounds']['p50']} {sim['words']['rounds']}"
        + (f", skill gap {sim['skill_gap']['points']:+.0f} points (a heuristic seat among random ones)" if "skill_gap" in sim else ""),
        f"  win rate by seat, {sim['words']['first_seat']} first (95 % interval): " + ", ".join(
            f"{r['rate']:.1%} ({r['low']:.1%}-{r['high']:.1%})" for r in sim["win_rate_by_seat"]
        ),
        *measure_lines(sim.get("measures", {})),
    ]


def ladder_lines(ladder: LadderFigures) -> list[str]:
    """The skill ladder: the levels played, the trace of each step up, and
    each level's usage of actions and powers (pnp.engine.skill)."""
    levels = ", ".join(
        f"{lv['agent']} {lv['games']} games" if lv["games"] else f"{lv['agent']} not played ({lv['why']})" for lv in ladder["levels"]
    )
    lines = [f"Skill levels (games per table): {levels}; balance figures at {ladder['balance_level'] or 'none'}"]
    for pair in ladder["trace"]:
        steps = "; ".join(
            f"{n} players {m['share']['rate']:.1%} ({m['share']['low']:.1%}-{m['share']['high']:.1%}) against {m['fair']:.1%}, "
            f"{m['times_fair']['rate']:.2f}x ({m['times_fair']['low']:.2f}-{m['times_fair']['high']:.2f})"
            for n, m in pair["by_players"].items()
        )
        lines.append(f"Skill trace, {pair['stronger']} over {pair['weaker']} (one {pair['stronger']} seat's share of the games won, 95 % interval): {steps}")
    for level, by_count in ladder["usage"].items():
        lines.append(f"Usage at {level} (uses a game, lowest-highest over player counts): " + _usage_said(by_count))
    return lines + whatif_lines(ladder.get("whatif"))


def whatif_lines(whatif: WhatIf | None) -> list[str]:
    """Which powers change the winner most often (pnp.engine.whatif), one line a player count."""
    if whatif is None:
        return []
    head = f"Powers switched off ({whatif['agent']} agents, {whatif['games']} games each way"
    if not whatif["games"]:
        return [f"{head}): not played ({whatif['why']})"]
    lines = [f"{head}; share of games whose winners change with the power off, 95 % interval, then share of games that used it):"]
    for n, rows in whatif["by_players"].items():
        said = ", ".join(
            f"{r['power']} {r['changed']['rate']:.1%} ({r['changed']['low']:.1%}-{r['changed']['high']:.1%}) used {r['used']['rate']:.0%}"
            for r in rows
        )
        lines.append(f"  {n} players: {said}")
    return lines


def _usage_said(by_count: dict[str, Usage]) -> str:
    parts = []
    kinds: tuple[Literal["actions", "powers"], ...] = ("actions", "powers")
    for kind in kinds:
        names = sorted({name for row in by_count.values() for name in row[kind]})
        spans = [(min(row[kind].get(name, 0.0) for row in by_count.values()), max(row[kind].get(name, 0.0) for row in by_count.values())) for name in names]
        if names:
            parts.append(f"{kind} " + ", ".join(f"{name} {low:.2f}-{high:.2f}" for name, (low, high) in zip(names, spans)))
    return "; ".join(parts) or "nothing counted"


def seat_balance(sim: Metrics) -> str:
    """The seat balance measured, the range the seats' 95 % intervals allow,
    and, against a band, whether it is met: a band warns only when the whole
    range falls below it (:func:`pnp.engine.balance._judge`)."""
    seats = sim["win_rate_by_seat"]
    low = 1 - (max(r["high"] for r in seats) - min(r["low"] for r in seats)) if seats else 1.0
    high, measured = sim["seat_balance_high"], sim["seat_balance"]
    allowed = f"seat balance {measured:.2f} (the seats' 95 % intervals allow {max(0.0, low):.2f}-{high:.2f}"
    band = sim.get("seat_balance_band")
    if band is None:
        return allowed + ")"
    if measured >= band:
        return f"{allowed}; band {band:.2f}: met)"
    if high >= band:
        return f"{allowed}, which reaches the band's {band:.2f}: the gap between seats may be chance, so no warning)"
    return f"{allowed}, all below the band's {band:.2f})"


def _plot(odds: OddsFigures) -> str:
    """Inline SVG: one line per goal card, odds against player count."""
    goal = odds["goals"]
    if not goal:
        return ""
    counts = sorted({int(n) for d in goal.values() for n in d})
    w, h, pad = 640, 300, 40
    xs = {n: pad + (w - 2 * pad) * (i / max(1, len(counts) - 1)) for i, n in enumerate(counts)}

    def y(v: float) -> float:
        return h - pad - (h - 2 * pad) * v

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">']
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{pad}" x2="{w - pad}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{pad - 6}" y="{y(tick) + 4:.1f}" font-size="11" text-anchor="end">{tick:.0%}</text>')
    for n in counts:
        parts.append(f'<text x="{xs[n]:.1f}" y="{h - pad + 16}" font-size="11" text-anchor="middle">{n}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 6}" font-size="12" text-anchor="middle">players</text>')
    for card, per in goal.items():
        points = " ".join(f"{xs[int(n)]:.1f},{y(v['value']):.1f}" for n, v in sorted(per.items(), key=lambda kv: int(kv[0])))
        parts.append(f'<polyline fill="none" stroke="#5b2a6e" stroke-opacity="0.35" points="{points}"><title>{escape(card)}</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)


def as_html(report: Report, strict: bool) -> str:
    rows = "".join(
        f"<tr class='{f.level.value}'><td>{f.level.value}</td><td>{escape(f.check)}</td>"
        f"<td>{escape(f.message)}</td><td>{escape(f.where)}</td></tr>"
        for f in report.findings
    )
    sections = []
    for key, odds in report.exact.get("odds", {}).items():
        counts = sorted({int(n) for d in odds["goals"].values() for n in d})
        head = "".join(f"<th>{n} players<br>({odds['hand_sizes'][str(n)]} cards)</th>" for n in counts)
        body = "".join(
            f"<tr><td>{escape(card)}</td>"
            + "".join(f"<td title='{per[str(n)]['probability']}'>{per[str(n)]['value']:.2%}</td>" for n in counts)
            + "</tr>"
            for card, per in odds["goals"].items()
        )
        sections.append(
            f"<h2>Odds: {escape(key)}</h2><p>Exact probability that a random hand has at least "
            f"{odds['need']} of the goal card's signed symbols dominant (hover for the exact fraction).</p>"
            f"{_plot(odds)}<table><tr><th>goal card</th>{head}</tr>{body}</table>"
        )
    for key, totals in report.exact.get("balance", {}).items():
        body = "".join(
            f"<tr><td>{escape(s)}</td><td>{t['plus']}</td><td>{t['minus']}</td><td>{t['plus'] - t['minus']:+d}</td><td>{t['share']}</td></tr>"
            for s, t in totals.items()
        )
        sections.insert(0, f"<h2>Balance: {escape(key)}</h2><table><tr><th>symbol</th><th>+</th><th>-</th><th>net</th><th>share of deck</th></tr>{body}</table>")
    for title, lines in (("Figures from the data", figure_lines(report.exact)), ("Simulated play and skill", played_lines(report.exact))):
        if lines:  # the same lines as the text summary: each says which agents produced it
            sections.append(f"<h2>{title}</h2><pre>{escape(chr(10).join(lines))}</pre>")
    verdict = "ok" if report.ok(strict) else "NOT OK"
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>pnp check: {escape(report.game)}</title><style>"
        "body{font-family:serif;max-width:60em;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
        "tr.error td{background:#fdd}tr.warning td{background:#ffd}pre{white-space:pre-wrap}"
        "</style></head><body>"
        f"<h1>pnp check: {escape(report.game)} &mdash; {verdict}</h1>"
        f"<h2>Findings</h2><table><tr><th>level</th><th>check</th><th>message</th><th>where</th></tr>{rows}</table>"
        + "".join(sections)
        + "</body></html>"
    )

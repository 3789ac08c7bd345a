"""What a sweep found, for people: a text table and an HTML report.

The report holds a heat map per measure and player count over two changes
(the sweep file's ``report.heatmap``, else its first two; a cell holding
several versions shows the best-ranked), a ranking chart, the ranked table
with 95 % intervals and the games behind each figure, and the exact sweep
file and command that reproduce it. Plots are plain SVG written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from pnp.sweep.judge import Interval, distance
from pnp.sweep.run import Row
from pnp.sweep.spec import MEASURES, Band, Sweep

COLOURS = {"met": "#2e7d32", "open": "#f9a825", "missed": "#c62828"}
SHOWN = ("seat_balance", "no_winner_rate", "rounds")
"""The measures a sweep without targets shows."""


def measures_shown(sweep: Sweep) -> list[str]:
    return [b.measure for b in sweep.targets] or list(SHOWN)


def interval_said(found: Sequence[Interval]) -> str:
    if len(found) > 1:  # one per seat
        return f"{min(i['value'] for i in found):.3g}-{max(i['value'] for i in found):.3g}"
    i = found[0]
    return f"{i['value']:.3g} ({i['low']:.3g}-{i['high']:.3g})"


def as_text(rows: Sequence[Row], sweep: Sweep) -> list[str]:
    """The ranking, one line per version and player count."""
    shown = measures_shown(sweep)
    lines = []
    for row in rows:
        if row["verdict"] == "unplayable":
            lines.append(f"  -  {row['version']}: unplayable: {row['why']}")
            continue
        dropped = f", dropped after round {row['dropped_after_round']}" if row["dropped_after_round"] else ""
        lines.append(f"{row['rank']:>3}  {row['version']}: targets {row['verdict']} (distance {row['distance']:.3g}){dropped}")
        for n, found in row["measures"].items():
            figures = "; ".join(f"{m} {interval_said(found[m])}" for m in shown if m in found)
            lines.append(f"       {n} players, {row['games'][n]} games: {figures}")
    return lines


def _colour(band: Band | None, found: Sequence[Interval]) -> str:
    """Green within the band, through yellow to red as the value leaves it."""
    if band is None:
        return "#cfd8dc"
    far = min(1.0, 4 * distance(band, found))  # red from a quarter outside (of a share, or of the band's edge)
    low, high = (165, 214, 167), (239, 154, 154)  # light green to light red: the figures stay legible
    return "#" + "".join(f"{round(a + (b - a) * far):02x}" for a, b in zip(low, high))


def heatmaps(rows: Sequence[Row], sweep: Sweep) -> list[str]:
    """One SVG per measure and player count over the two heat-map changes."""
    if len(sweep.changes) < 1:
        return []
    axes = sweep.heatmap or tuple(c.name for c in sweep.changes[:2])
    xs = next(c for c in sweep.changes if c.name == axes[0]).values
    ys = next(c for c in sweep.changes if c.name == axes[1]).values if len(axes) > 1 else (None,)
    bands = {b.measure: b for b in sweep.targets}
    counts = sorted({int(n) for row in rows for n in row.get("measures", {})})
    out = []
    for measure in measures_shown(sweep):
        for n in counts:
            cells: dict[tuple[int, int], tuple[str, str]] = {}
            for row in rows:  # best-ranked first: the first found in a cell stays
                found = row.get("measures", {}).get(str(n), {}).get(measure)
                if found is None:
                    continue
                x, y = xs.index(row["values"][axes[0]]), ys.index(row["values"][axes[1]]) if len(axes) > 1 else 0
                cells.setdefault((x, y), (_colour(bands.get(measure), found), interval_said(found).split(" ")[0]))
            out.append(_grid(f"{measure}, {n} players", axes, xs, ys, cells))
    return out


def _grid(title: str, axes: Sequence[str], xs: Sequence[object], ys: Sequence[object], cells: dict[tuple[int, int], tuple[str, str]]) -> str:
    cw, ch, left, top = 64, 28, 90, 48
    w, h = left + cw * len(xs) + 10, top + ch * len(ys) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">',
             f'<text x="4" y="14" font-size="12" font-weight="bold">{escape(title)}</text>',
             f'<text x="{left}" y="30" font-size="10">{escape(axes[0])} &#8594;</text>']
    if len(axes) > 1:
        parts.append(f'<text x="4" y="30" font-size="10">{escape(axes[1])} &#8595;</text>')
    for x, value in enumerate(xs):
        parts.append(f'<text x="{left + x * cw + cw / 2}" y="{top - 2}" font-size="10" text-anchor="middle">{escape(str(value))}</text>')
    for y, value in enumerate(ys):
        if value is not None:
            parts.append(f'<text x="{left - 4}" y="{top + y * ch + 18}" font-size="10" text-anchor="end">{escape(str(value))}</text>')
        for x in range(len(xs)):
            fill, text = cells.get((x, y), ("#ffffff", "-"))
            parts.append(f'<rect x="{left + x * cw}" y="{top + y * ch}" width="{cw - 2}" height="{ch - 2}" fill="{fill}"/>'
                         f'<text x="{left + x * cw + cw / 2 - 1}" y="{top + y * ch + 17}" font-size="10" text-anchor="middle">{escape(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def ranking_chart(rows: Sequence[Row], limit: int = 40) -> str:
    """A bar per version, best first: its distance from the targets, coloured by verdict."""
    ranked = [r for r in rows if r["rank"] is not None][:limit]
    far = max([r["distance"] for r in ranked] + [1e-9])
    left, bar, row_h = 260, 300, 16
    h = 20 + row_h * len(ranked)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + bar + 60}" height="{h}" viewBox="0 0 {left + bar + 60} {h}" role="img">']
    for i, r in enumerate(ranked):
        y = 14 + i * row_h
        width = max(1.0, bar * r["distance"] / far)
        parts.append(f'<text x="{left - 6}" y="{y}" font-size="10" text-anchor="end">{r["rank"]}. {escape(r["version"][:48])}</text>'
                     f'<rect x="{left}" y="{y - 10}" width="{width:.1f}" height="11" fill="{COLOURS[r["verdict"]]}"/>'
                     f'<text x="{left + width + 4:.1f}" y="{y}" font-size="10">{r["distance"]:.3g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def as_html(rows: Sequence[Row], sweep: Sweep, title: str, command: str, summary: str) -> str:
    shown = measures_shown(sweep)
    head = "".join(f"<th>{escape(m)}</th>" for m in shown)
    body = []
    for r in rows:
        if r["rank"] is None:
            body.append(f"<tr><td>-</td><td>{escape(r['version'])}</td><td colspan='{3 + len(shown)}'>unplayable: {escape(r['why'])}</td></tr>")
            continue
        for n, found in r["measures"].items():
            cells = "".join(f"<td class='{escape(r['targets'].get(m, {}).get(n, ''))}'>{escape(interval_said(found[m]))}</td>" if m in found else "<td></td>" for m in shown)
            dropped = f" (dropped after round {r['dropped_after_round']})" if r["dropped_after_round"] else ""
            body.append(f"<tr><td>{r['rank']}</td><td>{escape(r['version'])}</td><td>{escape(r['verdict'])}{dropped}</td>"
                        f"<td>{n}</td><td>{r['games'][n]}</td>{cells}</tr>")
    bands = "".join(f"<li>{escape(b.measure)} ({escape(MEASURES[b.measure])}): {_band(b)}</li>" for b in sweep.targets)
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>pnp sweep: {escape(title)}</title><style>"
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}"
        ".met{background:#e8f5e9}.open{background:#fff8e1}.missed{background:#ffebee}svg{margin:4px}pre{background:#f5f5f5;padding:1em}"
        f"</style></head><body><h1>pnp sweep: {escape(title)}</h1><p>{escape(summary)}</p>"
        f"<h2>Targets</h2><ul>{bands or '<li>none: versions are ranked by nothing but their figures</li>'}</ul>"
        f"<h2>Ranking</h2><p>Bar: distance from the targets (0: every point value within them).</p>{ranking_chart(rows)}"
        f"<h2>Heat maps</h2><p>Green: within the band; red: far outside. A cell with several versions shows the best-ranked.</p>"
        f"{''.join(heatmaps(rows, sweep))}"
        f"<h2>Table (95 % intervals)</h2><table><tr><th>rank</th><th>version</th><th>targets</th><th>players</th><th>games</th>{head}</tr>"
        f"{''.join(body)}</table>"
        f"<h2>Reproduce</h2><pre>{escape(command)}</pre><pre>{escape(sweep.text)}</pre></body></html>"
    )


def _band(b: Band) -> str:
    if b.low is not None and b.high is not None:
        return f"{b.low:g} to {b.high:g}"
    return f"at least {b.low:g}" if b.low is not None else f"at most {b.high:g}"

"""The sweep's report: ranked text, and HTML with SVG heat maps, a ranking
chart, the table with intervals, and what reproduces it."""

from __future__ import annotations

import re
from pathlib import Path

from pnp.sweep.report import as_html, as_text, heatmaps
from pnp.sweep.spec import read_sweep
from tests.sweep.sweeps import SMALL, run


def test_the_report_holds_the_heat_maps_the_ranking_and_the_sweep_file(tmp_path: Path) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text(SMALL, encoding="utf-8")
    sweep = read_sweep(path)[0]
    _, rows = run(path)
    page = as_html(rows, sweep, "High Card", "pnp sweep high-card sweep.yaml", "6 versions")
    assert SMALL.replace("'", "&#x27;") in page and "pnp sweep high-card sweep.yaml" in page
    maps = heatmaps(rows, sweep)
    assert len(maps) == 3 * 3  # seat_balance, rounds, skill_gap at 2, 3 and 4 players
    rounds_at_2 = maps[3]
    assert "rounds, 2 players" in rounds_at_2
    # hand (3, 5) across, r10 copies (1, 2, 4) down: 3 rounds is a whole round short of 4-5 (red), 5 rounds within
    # (green); hand 5 with one r10 is unplayable (blank)
    cells = re.findall(r'<rect x="(\d+)" y="(\d+)" width="62" height="26" fill="(#[0-9a-f]{6})"/><text[^>]*>([^<]*)</text>', rounds_at_2)
    assert [(fill, text) for _, _, fill, text in cells] == [("#ef9a9a", "3"), ("#ffffff", "-")] + [("#ef9a9a", "3"), ("#a5d6a7", "5")] * 2
    assert page.count("<svg") == 1 + len(maps)
    text = as_text(rows, sweep)
    assert text[-1] == "  -  hand=5, r10=1: unplayable: 4 players need 20 cards; the deck has 19"
    assert re.match(r"  1  hand=5, r10=\d: targets (met|open) \(distance [0-9.e-]+\)$", text[0])

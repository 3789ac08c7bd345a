"""Text that runs past its face's page is measured to its end, not to the page's edge."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import run_pnp

ROWS = """<div class="bleed" style="background: #fff"></div>
<div class="safe" style="font-family: 'EB Garamond'; font-size: 10pt; line-height: 10mm">
{% for i in range(card.copies * 12) %}<div style="height: 10mm">{{ card.title }} {{ i + 1 }}</div>{% endfor %}
</div>
"""
"""Rows 10 mm apart, 12 per copy: card two's 24 rows run 159 mm past its 80.9 mm safe box (poker, 4 mm inset)."""


def _overflow(stderr: str, card: str) -> float:
    found = re.findall(rf"cards/{card} front: div\.safe: text overflows its box by ([\d.]+) mm \(bottom edge\)", stderr)
    assert len(found) == 1, stderr
    return float(found[0])


def test_an_overflow_past_the_page_counts_every_row_that_did_not_fit(mini_copy: Path, tmp_path: Path) -> None:
    """WeasyPrint drops what runs past the page, so the rows laid out end at the
    page's edge, 7 mm below the safe box: the overflow is the rows' whole depth."""
    (mini_copy / "templates" / "mini" / "card.html").write_text(ROWS)
    built = run_pnp("build", str(mini_copy), "--only", "cards", "--paper", "a4", "--out", str(tmp_path))
    assert built.returncode == 0, built.stderr
    safe = 88.9 - 2 * 4
    for card, rows in (("one", 12), ("two", 24)):
        # The last row's text ends inside its 10 mm line, below where the row before ended.
        assert (rows - 1) * 10 - safe < _overflow(built.stderr, card) <= rows * 10 - safe, built.stderr
    assert "cards/three" in built.stderr  # the same rows as card one

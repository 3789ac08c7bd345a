"""A face whose content runs past its page is an overflow at its card (a
warning, an error under --strict), and each face still prints as one page."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_pnp, tool

LINES = "{% if card.id == 'two' %}{% for i in range(120) %}<p>line {{ i }}</p>{% endfor %}{% endif %}"
"""Card two's front is far taller than a poker card."""


@pytest.mark.parametrize(
    "template",
    [
        # In the safe zone (placed absolutely): its rest would be drawn on the next face's page.
        "<div class=\"safe\" style=\"font-family: 'EB Garamond'\"><h1>{{ card.title }}</h1>\n" + LINES + "</div>\n",
        # In the face's flow: its rest fills pages of its own.
        "<h1 style=\"font-family: 'EB Garamond'\">{{ card.title }}</h1>\n<div style=\"font-family: 'EB Garamond'\">" + LINES + "</div>\n",
    ],
    ids=["placed", "flowing"],
)
def test_a_face_that_runs_onto_more_pages_is_an_overflow_at_its_card(mini_copy: Path, tmp_path: Path, template: str) -> None:
    (mini_copy / "templates/mini/card.html").write_text(template)
    out = tmp_path / "out"
    result = run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4")
    assert result.returncode == 0, result.stderr
    spilled = [line for line in result.stderr.splitlines() if "runs onto" in line]
    assert len(spilled) == 1 and "cards.yaml:6:5: warning: cards/two front: section.pnp-face: the face's content runs onto" in spilled[0], result.stderr
    # Every face is still one page: 8 cards and their backs on 9-up sheets, as without the long text.
    pages = subprocess.run([tool("qpdf"), "--show-npages", str(out / "mini" / "mini-home-a4.pdf")], capture_output=True, text=True, check=True)
    assert pages.stdout.strip() == "4"
    # What ran past card two's page is printed nowhere (not over card three's face), and card three is as it was.
    text = subprocess.run([tool("pdftotext"), str(out / "mini" / "mini-home-a4.pdf"), "-"], capture_output=True, text=True, check=True).stdout
    assert "line 0" in text and "line 119" not in text
    assert "overlaps" not in result.stderr and "cards/three front: div.safe p" not in result.stderr

    strict = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "strict"), "--paper", "a4", "--strict")
    assert strict.returncode == 2 and "Traceback" not in strict.stderr, strict.stderr
    assert "cards.yaml:6:5: cards/two front: section.pnp-face: the face's content runs onto" in strict.stderr

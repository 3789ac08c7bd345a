"""An optional field a card leaves out prints nothing, never the word "None"."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import run_pnp, tool


def test_a_card_without_an_optional_field_prints_nothing_for_it(mini_copy: Path, tmp_path: Path) -> None:
    template = mini_copy / "templates" / "mini" / "card.html"
    # "two" and "three" have no crest (optional); "one" has crest: red.
    template.write_text(template.read_text().replace("<h1>{{ card.title }}</h1>", "<h1>{{ card.title }} [{{ card.crest }}]</h1>"))
    done = run_pnp("build", str(mini_copy), "--paper", "a4", "--only", "cards", "--no-stamp", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    text = subprocess.run(
        [tool("pdftotext"), "-layout", str(tmp_path / "out" / "mini" / "mini-home-a4.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "One [red]" in text
    assert "Two []" in text and "Three []" in text
    assert "None" not in text

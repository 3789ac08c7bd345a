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


def test_under_strict_a_printed_field_the_card_leaves_out_is_an_error_at_the_card(mini_copy: Path, tmp_path: Path) -> None:
    template = mini_copy / "templates" / "mini" / "card.html"
    template.write_text(template.read_text().replace("<h1>{{ card.title }}</h1>", "<h1>{{ card.title }} [{{ card.crest }}]</h1>"))
    done = run_pnp("build", str(mini_copy), "--paper", "a4", "--only", "cards", "--strict", "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    # Card "two" (cards.yaml line 6) is the first without a crest; the template prints it on line 3.
    first = done.stderr.splitlines()[1]  # after the game folder read
    assert first.startswith(f"{mini_copy / 'cards.yaml'}:6:5: card cards/two front (mini/card.html): ")
    assert f"{template}:3 prints card.crest, which this card leaves out" in first
    assert not (tmp_path / "out" / "mini" / "mini-home-a4.pdf").exists()


def test_under_strict_a_field_printed_only_when_given_is_fine(mini_copy: Path, tmp_path: Path) -> None:
    template = mini_copy / "templates" / "mini" / "card.html"
    template.write_text(template.read_text().replace("<h1>{{ card.title }}</h1>", "<h1>{{ card.title }}{% if card.crest %} [{{ card.crest }}]{% endif %}</h1>"))
    # Bridge-size cards leave the sheet's crop marks well inside the printable area on A4.
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("size: poker", "size: bridge", 1))
    done = run_pnp("build", str(mini_copy), "--paper", "a4", "--only", "cards", "--strict", "--no-stamp", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    text = subprocess.run(
        [tool("pdftotext"), "-layout", str(tmp_path / "out" / "mini" / "mini-home-a4.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "One [red]" in text and "Two" in text and "Two [" not in text
    assert "None" not in text

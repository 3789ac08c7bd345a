"""Text that fits itself (``data-fit-max``/``data-fit-min``): the chosen size is
the largest that fits within 0.25 pt, measured on the laid-out boxes; an
element at its minimum is reported; one that overflows even there is an
overflow (an error under --strict); fitted faces are cached like any other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnp.paths import OWN
from pnp.render.fit import STEP_PT, fit_text
from pnp.render.weasy import lay_out
from tests.conftest import run_pnp

FONT = (OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf").as_uri()
WORDS = "The suitor who holds the most hearts at the end of the season may propose to any guest at the ball. "


def _page(text: str, sizes: str = 'data-fit-max="14pt" data-fit-min="5pt"', size: str = "") -> str:
    style = f"font-size: {size};" if size else ""
    return (
        f'<html><head><style>@font-face {{ font-family: "EB Garamond"; src: url("{FONT}"); }}'
        '@page { size: 60mm 80mm; margin: 0 } body { margin: 0; font-family: "EB Garamond"; }</style></head>'
        f'<body><p id="rules" style="width: 50mm; height: 20mm; margin: 5mm; line-height: 1.15; {style}" {sizes}>{text}</p></body></html>'
    )


def _boxes(document: Any) -> tuple[float, float, float]:
    """The paragraph's font size (pt), its content bottom, and its text's lowest bottom (px), read from the box tree."""
    found: dict[str, float] = {}

    def walk(box: Any, inside: bool) -> None:
        element = getattr(box, "element", None)
        if not inside and element is not None and element.get("id") == "rules" and hasattr(box, "content_box_y"):
            found["bottom"] = box.content_box_y() + box.height
            found["size"] = box.style["font_size"] * 0.75
            inside = True
        if inside and hasattr(box, "text") and box.text.strip():
            found["text"] = max(found.get("text", 0.0), box.position_y + box.margin_height())
        for child in getattr(box, "children", ()):
            walk(child, inside)

    walk(document.pages[0]._page_box, False)
    return found["size"], found["bottom"], found["text"]


@pytest.mark.parametrize("words", [2, 3, 5])
def test_the_size_chosen_is_the_largest_that_fits_within_a_quarter_point(words: int) -> None:
    document, notes = fit_text(_page(WORDS * words), lay_out)
    size, bottom, text = _boxes(document)
    assert 5 < size < 14 and notes == []
    assert text <= bottom + 0.25  # it fits ...
    bigger = _boxes(lay_out(_page(WORDS * words, sizes="", size=f"{size + STEP_PT}pt")))
    assert bigger[2] > bigger[1] + 0.25, (size, bigger)  # ... and a quarter point more would not


def test_short_text_keeps_the_largest_size_and_long_text_the_smallest() -> None:
    short, notes = fit_text(_page("Propose."), lay_out)
    assert _boxes(short)[0] == pytest.approx(14) and notes == []
    crowded, notes = fit_text(_page(WORDS * 30), lay_out)
    size, bottom, text = _boxes(crowded)
    assert size == pytest.approx(5) and text > bottom  # left at the minimum, overflowing
    assert notes == []  # reported by the overflow inspection instead


def _game(mini: Path, rules: dict[str, str]) -> Path:
    game = mini / "game.yaml"
    game.write_text(game.read_text().replace(
        "      crest: {type: ref, set: crests, doc: The owner.}\n",
        "      crest: {type: ref, set: crests, doc: The owner.}\n      rules: {type: text, doc: Rules text., default: ''}\n", 1,
    ))
    cards = mini / "cards.yaml"
    text = cards.read_text()
    for card, words in rules.items():
        text = text.replace(f"    title: {card}\n", f"    title: {card}\n    rules: {words}\n", 1)
    cards.write_text(text)
    template = mini / "templates" / "mini" / "card.html"
    head, _, tail = template.read_text().rpartition("</div>")
    template.write_text(head + '  <p class="rules" style="height: 20mm; margin: 0; line-height: 1.1" data-fit-max="14pt" data-fit-min="7pt">'
                        "{{ card.rules }}</p>\n</div>" + tail)
    return mini


def test_a_build_reports_the_cards_at_their_minimum_and_strict_refuses_only_overflow(mini_copy: Path, tmp_path: Path) -> None:
    game = _game(mini_copy, {"One": "Short.", "Two": WORDS.strip() * 1, "Three": (WORDS * 4).strip()})
    first = run_pnp("build", str(game), "--only", "cards", "--paper", "a4", "--out", str(tmp_path))
    assert first.returncode == 0, first.stderr
    lines = [line for line in first.stderr.splitlines() if "p.rules" in line]
    assert any("/cards.yaml:12:5: warning: cards/three front: p.rules: text set at its minimum 7 pt" in line for line in lines), lines
    assert not any("cards/one" in line or "cards/two" in line for line in lines), lines
    again = run_pnp("build", str(game), "--only", "cards", "--paper", "a4", "--out", str(tmp_path))
    assert "laid out 0 documents" in again.stdout and "text set at its minimum 7 pt" in again.stderr  # from the cache, findings too
    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace((WORDS * 4).strip(), (WORDS * 12).strip()))
    strict = run_pnp("build", str(game), "--only", "cards", "--paper", "a4", "--strict", "--out", str(tmp_path / "strict"))
    assert strict.returncode == 2, strict.stderr
    assert "cards/three front: p.rules: text overflows its box" in strict.stderr and "Traceback" not in strict.stderr


def test_a_fit_mark_without_two_lengths_is_an_error_at_the_card(mini_copy: Path, tmp_path: Path) -> None:
    game = _game(mini_copy, {"One": "Short."})
    template = game / "templates" / "mini" / "card.html"
    template.write_text(template.read_text().replace('data-fit-min="7pt"', 'data-fit-min="7"'))
    result = run_pnp("build", str(game), "--only", "cards", "--out", str(tmp_path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "/cards.yaml:2:5: card cards/one front (mini/card.html): <p> data-fit: expected a length with a unit" in result.stderr
    assert "card.html:5)" in result.stderr

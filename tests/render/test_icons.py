"""The ``icons`` filter: ``:id:`` tokens in card text drawn as the set entry's
art, inline and as tall as the text; an unknown name is an error at the card."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pnp.render.templating import UnknownIcon, environment
from tests.conftest import run_pnp, tool
from tests.pdftools import pdftotext, rasterise

SETS = {
    "symbols": {"gem": {"art": "file:///g/gem.svg", "name": "Gem"}, "sun": {"art": "file:///g/sun.svg", "name": "Sun & Co"}},
    "crests": {"red": {"art": None, "name": "Red"}, "gem": {"art": "file:///g/gem-crest.svg", "name": "Gem crest"}},
}


def _render(text: str, tmp_path: Path) -> str:
    env = environment(tmp_path)
    return env.from_string("{{ text | icons }}").render(text=text, sets=SETS)


def test_a_token_becomes_the_entrys_art_and_the_rest_is_escaped(tmp_path: Path) -> None:
    out = _render("Pay 2 :sun: & <b>keep</b> :symbols.gem:, not :crests.gem:", tmp_path)
    assert out == (
        'Pay 2 <img class="pnp-icon" src="file:///g/sun.svg" alt="Sun &amp; Co"> &amp; &lt;b&gt;keep&lt;/b&gt; '
        '<img class="pnp-icon" src="file:///g/gem.svg" alt="Gem">, not <img class="pnp-icon" src="file:///g/gem-crest.svg" alt="Gem crest">'
    )
    assert _render("10:30 and a:b: stay text", tmp_path) == "10:30 and a:b: stay text"  # only whole :id: tokens of set entries


@pytest.mark.parametrize("text, why", [
    (":star:", "icon :star: names no entry of the game's sets"),
    (":red:", "icon :red: has no art"),
    (":gem:", "icon :gem: is in several sets (symbols, crests); write :set.gem:"),
])
def test_a_token_that_names_no_single_entry_with_art_is_refused(tmp_path: Path, text: str, why: str) -> None:
    with pytest.raises(UnknownIcon) as caught:
        _render(text, tmp_path)
    assert str(caught.value).startswith(why) and "expected one of :crests.gem:" not in str(caught.value)


def _with_rules(mini: Path, rules: str) -> Path:
    game = mini / "game.yaml"
    game.write_text(game.read_text().replace(
        "      crest: {type: ref, set: crests, doc: The owner.}\n",
        "      crest: {type: ref, set: crests, doc: The owner.}\n      rules: {type: text, doc: Rules text., default: ''}\n", 1,
    ))
    cards = mini / "cards.yaml"
    cards.write_text(cards.read_text().replace("    crest: red\n", f"    crest: red\n    rules: \"{rules}\"\n", 1))
    template = mini / "templates" / "mini" / "card.html"
    head, _, tail = template.read_text().rpartition("</div>")
    template.write_text(head + '  <p style="font-size: 20pt">{{ card.rules | icons }}</p>\n</div>' + tail)
    return mini


def test_icons_print_inline_as_tall_as_the_text(mini_copy: Path, tmp_path: Path) -> None:
    """Measured: the dot (a circle 0.8 of its box) lies between the two words, 0.8 em = 16 pt tall at 20 pt."""
    result = run_pnp("build", str(_with_rules(mini_copy, "Win :sun: now")), "--only", "cards", "--paper", "a4", "--no-stamp", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "mini" / "mini-home-a4.pdf"
    text = " ".join(pdftotext(pdf, 2, 2).split())
    assert "Win now" in text and ":sun:" not in text
    boxes = subprocess.run([tool("pdftotext"), "-f", "2", "-l", "2", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    words = {m[4]: [float(v) for v in m[:4]] for m in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(\w+)<', boxes)}
    win, now = words["Win"], words["now"]
    dpi = 300
    scale = dpi / 72
    page = np.asarray(rasterise(pdf, 2, dpi).convert("L"))
    gap = page[int((win[1] - 10) * scale): int((win[3] + 10) * scale), int(win[2] * scale) + 2: int(now[0] * scale) - 2]
    rows = np.nonzero((gap < 128).any(axis=1))[0]
    assert rows.size, "no icon between the words"
    tall = (rows[-1] - rows[0] + 1) / scale
    assert tall == pytest.approx(16, abs=1.0), tall
    middle = ((rows[0] + rows[-1]) / 2) / scale + (win[1] - 10)
    assert win[1] < middle < win[3]  # on the words' line


def test_an_unknown_icon_is_an_error_at_the_card(mini_copy: Path, tmp_path: Path) -> None:
    result = run_pnp("build", str(_with_rules(mini_copy, "Win :star: now")), "--only", "cards", "--out", str(tmp_path))
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    line = next(line for line in result.stderr.splitlines() if "icon :star:" in line)
    assert "/cards.yaml:2:5:" in line and "names no entry of the game's sets; expected one of :moon:, :sun:" in line, line
    assert "card.html:5)" in line, line  # the template line that prints it
    assert not (tmp_path / "mini").exists() or not list((tmp_path / "mini").glob("*.pdf"))

"""A card whose template raises (any exception, not only Jinja's) is reported
by `pnp watch` and `pnp serve`, which go on watching."""

from __future__ import annotations

from pathlib import Path

from pnp.iterate.preview import Preview, refresh
from pnp.iterate.watch import watch

DIVIDES_BY_NO_SYMBOLS = "<h1>{{ card.title }}</h1>\n<p>{{ 10 // (card.symbols|length - 1) }}</p>\n"
"""Cards two and three have one symbol each: 10 // 0 (a Decktet card with ``suits: []``)."""


def _told(text: str) -> None:
    for card in ("cards/two front", "cards/three front"):
        assert f"templates/mini/card.html:2:1: while rendering card {card} (mini/card.html): ZeroDivisionError" in text, text
    assert "cards/one front" not in text and "Traceback" not in text


def test_watch_reports_a_card_that_raises_and_goes_on(mini_copy: Path, tmp_path: Path) -> None:
    (mini_copy / "templates/mini/card.html").write_text(DIVIDES_BY_NO_SYMBOLS)
    said: list[str] = []
    warned: list[str] = []
    watch(mini_copy, ["a4"], tmp_path / "out", False, said.append, warned.append, builds=0)
    _told("\n".join(warned))
    assert said[0] == "not rebuilt: fix the problem above and save again"
    assert said[-1].startswith("watching ")  # still running: it went on to watch for the next save


def test_serve_shows_a_card_that_raises_on_the_page(mini_copy: Path, tmp_path: Path) -> None:
    preview = Preview()
    refresh(preview, mini_copy, tmp_path / "out")
    assert preview.state["errors"] == [] and preview.images
    (mini_copy / "templates/mini/card.html").write_text(DIVIDES_BY_NO_SYMBOLS)
    shown = dict(preview.images)
    refresh(preview, mini_copy, tmp_path / "out")
    _told("\n".join(preview.state["errors"]))
    assert preview.images == shown and preview.version == 2  # the last good faces stay on the page

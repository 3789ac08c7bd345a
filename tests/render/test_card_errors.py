"""Whatever a template raises while it renders a card is that card's error,
at the template's line, and one build reports every card that fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.errors import Level, TemplateError
from pnp.loading.loader import load_game
from pnp.render import faces
from pnp.render.faces import plan_faces


def _failures(game_dir: Path) -> list[str]:
    game = load_game(game_dir)
    with pytest.raises(TemplateError) as caught:
        plan_faces(game, game.components)
    return [str(d) for d in caught.value.diagnostics]


def test_every_card_that_fails_is_told_front_and_back(mini_copy: Path) -> None:
    (mini_copy / "templates/mini/card.html").write_text("<h1>{{ card.title }}</h1>\n<p>{{ 10 // (card.symbols|length - 1) }}</p>\n")
    (mini_copy / "templates/mini/back.html").write_text("<p>{{ game.name }}</p>\n{{ 1 / 0 if card.id == 'three' else '' }}\n")
    told = _failures(mini_copy)
    card = mini_copy / "templates/mini/card.html"
    back = mini_copy / "templates/mini/back.html"
    assert told == [
        f"{card}:2:1: while rendering card cards/two front (mini/card.html): ZeroDivisionError: integer division or modulo by zero",
        f"{card}:2:1: while rendering card cards/three front (mini/card.html): ZeroDivisionError: integer division or modulo by zero",
        f"{back}:2:1: while rendering card cards/three back (mini/back.html): ZeroDivisionError: division by zero",
    ]


def test_a_template_that_fails_for_every_card_is_told_once(mini_copy: Path) -> None:
    (mini_copy / "templates/mini/back.html").write_text("<p>{{ game.name }}</p>\n{% for x in %}\n")
    assert _failures(mini_copy) == [f"{mini_copy / 'templates/mini/back.html'}:2:1: template syntax error: Expected an expression, got 'end of statement block'"]


def test_rendering_stops_after_many_failures(mini_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(faces, "MAX_FAILED", 2)
    (mini_copy / "templates/mini/card.html").write_text("{{ 1 // 0 }}\n")
    game = load_game(mini_copy)
    with pytest.raises(TemplateError) as caught:
        plan_faces(game, game.components)
    told = caught.value.diagnostics
    assert [d.level for d in told] == [Level.ERROR, Level.ERROR, Level.WARNING]
    assert "cards/two front" in told[1].message and "stopped after 2 card sides" in told[2].message
    assert caught.value.message.endswith("2 errors; nothing was built.")

"""Card templates see every card of the game (``decks``), so a card can name
another: a character's home printed by its house's title."""

from __future__ import annotations

from pathlib import Path

from pnp.loading.loader import load_game
from pnp.render.faces import plan_faces


def test_a_card_template_prints_another_cards_title(mini_copy: Path) -> None:
    template = mini_copy / "templates" / "mini" / "card.html"
    template.write_text(template.read_text().replace("<h1>{{ card.title }}</h1>", "<h1>{{ card.title }} after {{ decks.cards.three.title }} of {{ decks.sleeves.red.title }}</h1>"))
    game = load_game(mini_copy)
    plan = plan_faces(game, [game.component("cards")])
    fronts = [face.html for face in plan.faces if face.label.endswith("front")]
    assert any("One after Three of Red" in html for html in fronts), fronts

"""What ``pnp list`` shows: a game's components and cards."""

from __future__ import annotations

from typing import TypedDict

from pnp.model import Game
from pnp.words import count


class CardListed(TypedDict):
    id: str
    title: str
    copies: int


class ComponentListed(TypedDict):
    id: str
    name: str
    copies: int
    size: str
    cards: list[CardListed]


class Listing(TypedDict):
    """What ``pnp list --json`` prints."""

    game: str
    name: str
    version: str
    players: dict[str, int]
    components: list[ComponentListed]


def listing(game: Game) -> Listing:
    return {
        "game": game.id,
        "name": game.title,
        "version": game.version,
        "players": {"min": game.players[0], "max": game.players[1]},
        "components": [
            {
                "id": c.id,
                "name": c.name,
                "copies": c.copies,
                "size": c.size.name,
                "cards": [{"id": card.id, "title": card.title, "copies": card.copies} for card in c.cards],
            }
            for c in game.components
        ],
    }


def listing_text(data: Listing) -> str:
    lines = [f"{data['name']} (version {data['version']}, {data['players']['min']}-{data['players']['max']} players)"]
    for c in data["components"]:
        lines.append(f"  {c['id']}: {c['name']}, {count(c['copies'], 'copy')} of {count(len(c['cards']), 'card')} ({c['size']})")
        for card in c["cards"]:
            lines.append(f"    {card['copies']:>3} x {card['id']}  {card['title']}")
    return "\n".join(lines)

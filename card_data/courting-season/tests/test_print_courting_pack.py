"""Courting Season's printed pack, from the loaded game (no build): what is
printed matches the rules' numbers, and the dice are the ones the rules roll."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pnp.loading.loader import load_game
from pnp.render.faces import document_context

GAME = load_game(Path(__file__).resolve().parents[1])
RULES = GAME.rules


def _copies(component: str) -> int:
    return GAME.component(component).copies


def test_every_character_once_and_the_influence_deck_as_the_data_counts_it() -> None:
    characters = GAME.component("characters").cards
    kinds = Counter(card.fields["kind"] for card in characters for _ in range(card.copies))
    assert _copies("characters") == len(characters) == kinds["lady"] + kinds["gentleman"]
    influence = Counter(card.fields["kind"] for card in GAME.component("influence").cards for _ in range(card.copies))
    assert set(influence) == {"host", "approval"} and sum(influence.values()) == _copies("influence")
    assert _copies("houses") == 0, "the houses are data, never printed"


def test_the_prestige_tokens_are_the_rules_supply() -> None:
    tokens = {card.fields["value"]: card.copies for card in GAME.component("prestige").cards}
    assert tokens == RULES["prestige"] == {1: 30, 5: 16, 10: 8}


def test_two_dice_are_printed_as_nets_and_as_labels_with_the_rules_faces() -> None:
    dice = GAME.component("dice")
    assert dice.net is not None and dice.copies == 2
    for die in dice.cards:
        assert list(die.fields["faces"]) == list(RULES["dice_faces"])
    labels = GAME.component("die-labels")
    assert labels.copies == 12 and Counter(c.fields["face"] for c in labels.cards for _ in range(c.copies)) == Counter(
        {"wit": 2, "kindness": 2, "standing": 2, "wealth": 2, "preference": 4}
    )


def test_the_two_preference_faces_are_opposite_on_the_folded_die() -> None:
    """Net order puts faces 5 and 6 opposite (pnp/nets.py): each trait then
    has a different trait opposite it, and the hearts face each other."""
    faces = list(RULES["dice_faces"])
    assert faces[4] == faces[5] == "preference"
    assert len({faces[0], faces[1], faces[2], faces[3]}) == 4


def test_one_turn_summary_for_each_player() -> None:
    assert _copies("summary") == GAME.players[1]


def test_the_rulebook_gets_every_house_and_intended_pair_from_the_data() -> None:
    """What the advanced rules' lists are made of (rulebook.html): every home
    names a house, every intended partner is a character who names them back."""
    decks = document_context(GAME)["decks"]
    characters = decks["characters"]
    for card in characters.values():
        assert card["home"] in decks["houses"], card["id"]
        assert card["circle"] in RULES["circles"], card["id"]
        if card["intended"]:
            assert characters[card["intended"]]["intended"] == card["id"]
    assert sum(1 for c in characters.values() if c["meddler"]) == 2

"""Components whose pieces the data implies (pnp/loading/dice.py): dice as
cube nets, the faces of those dice as labels, tokens by denomination."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.loading.loader import load_game

MM = 72 / 25.4

_DICE = """rules:
  coins: {1: 30, 5: 16, 10: 8}
rules_schema:
  coins: {type: map, doc: Coins by value., keys: {type: integer, doc: A value.}, values: {type: integer, doc: How many.}}
components:
  - id: dice
    name: Dice
    net: {faces: faces, face: 19mm, tab: 6mm}
    cards: dice.yaml
    front: mini/back.html
    fields: {faces: {type: list, length: 6, doc: Faces., items: {type: text, doc: A face.}}}
  - id: labels
    name: Labels
    faces_of: dice
    size: {width: 14mm, height: 14mm}
    front: mini/back.html
  - id: coins
    name: Coins
    denominations: coins
    size: {width: 25.4mm, height: 25.4mm}
    front: mini/back.html
"""


@pytest.fixture
def game(mini_copy: Path):  # type: ignore[no-untyped-def]
    text = (mini_copy / "game.yaml").read_text()
    (mini_copy / "game.yaml").write_text(text[: text.index("components:\n")] + _DICE)
    (mini_copy / "dice.yaml").write_text("cards:\n  - {id: d, title: Die, copies: 2, faces: [a, b, c, d, e, f]}\n")
    return load_game(mini_copy)


def test_a_net_component_is_as_large_as_its_net_and_has_no_bleed(game) -> None:  # type: ignore[no-untyped-def]
    dice = game.component("dice")
    assert dice.net is not None and (dice.net.face, dice.net.tab) == (pytest.approx(19 * MM), pytest.approx(6 * MM))
    assert (round(dice.size.width / MM, 3), round(dice.size.height / MM, 3)) == (82.0, 57.0)
    assert (dice.bleed, dice.safe, dice.back) == (0.0, 0.0, None)


def test_faces_of_makes_one_piece_per_face_printed_as_often_as_its_die(game) -> None:  # type: ignore[no-untyped-def]
    labels = game.component("labels").cards
    assert [(c.id, c.fields["face"], c.fields["face_number"], c.copies) for c in labels] == [
        (f"d-{n}", face, n, 2) for n, face in enumerate("abcdef", start=1)
    ]


def test_denominations_print_the_rules_table(game) -> None:  # type: ignore[no-untyped-def]
    coins = game.component("coins").cards
    assert [(c.id, c.fields["value"], c.copies) for c in coins] == [("1", 1, 30), ("5", 5, 16), ("10", 10, 8)]

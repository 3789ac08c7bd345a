"""A face's identity covers everything its pixels are made of: an edit to a
stylesheet, a file a stylesheet or a picture names, a font, the palette, a
template or a picture changes the key of every face it touches (what the
manifest, `pnp diff`, `--changed-since` and the build stamp go by) and of no
other face."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.loading.loader import load_game
from pnp.render.faces import plan_faces
from pnp.render.scope import DEFAULT_FONTS

Keys = dict[tuple[str, str], tuple[str | None, str | None]]

RAY = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#c90"/></svg>'


def _dress(game: Path) -> None:
    """The mini game with what a real one has: a stylesheet of the cards'
    own (importing another, naming a picture and a font of its own), a
    palette colour it uses, a font file in the game folder, an included
    template showing a picture by a URL relative to the game folder, a
    picture of the moon's own and a sun drawn around another picture."""
    templates = game / "templates" / "mini"
    (templates / "cards.css").write_text(
        '@import "more.css";\n'
        "@font-face { font-family: 'Titling'; src: url(../../fonts/titling.ttf); }\n"
        "h1 { font-size: 12.5pt; color: var(--ink); }\n"
        ".safe { background-image: url(../../art/paper.svg); }\n"
    )
    (templates / "more.css").write_text("h1 { letter-spacing: 0; }\n")
    (templates / "part.html").write_text('<p class="part">{{ card.title }} <img src="art/mark.svg" style="width: 2mm"></p>\n')
    card = templates / "card.html"
    card.write_text(card.read_text().replace("</h1>", "</h1>\n  {% include 'mini/part.html' %}", 1))
    art = game / "art"
    (art / "paper.svg").write_text(RAY.replace("#c90", "#fff"))
    (art / "ray.svg").write_text(RAY)
    (art / "mark.svg").write_text(RAY.replace("#c90", "#09c"))
    (art / "sun.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
        '<image xlink:href="ray.svg" width="10" height="10"/><circle cx="5" cy="5" r="3" fill="url(#none)"/></svg>'
    )
    shutil.copy(art / "dot.svg", art / "moon.svg")
    fonts = game / "fonts"
    (fonts / "ebgaramond").mkdir(parents=True)
    shutil.copy(DEFAULT_FONTS[0].file, fonts / "ebgaramond" / DEFAULT_FONTS[0].file.name)
    shutil.copy(DEFAULT_FONTS[0].file, fonts / "titling.ttf")
    spec = game / "game.yaml"
    text = spec.read_text().replace("    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/cards.css]\n", 1)
    text = text.replace("art: art/dot.svg}\n    - {id: moon", "art: art/sun.svg}\n    - {id: moon", 1).replace("art: art/dot.svg}", "art: art/moon.svg}", 1)
    text = text.replace("sets:\n", "palette:\n  ink: {screen: '#222222', print: [0, 0, 0, 90]}\nsets:\n", 1)
    spec.write_text(text)


def _keys(game: Path) -> Keys:
    """Each card's (front, back) key, as the manifest records them."""
    loaded = load_game(game)
    plan = plan_faces(loaded, loaded.components)
    return {(cid, card): (front, back) for cid, rows in plan.cards.items() for card, front, back in rows}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def _swap_font(path: Path) -> None:
    """Another font file under the same name."""
    path.write_bytes(DEFAULT_FONTS[1].file.read_bytes())


CARD_FRONTS = {("cards", "one"): "front", ("cards", "two"): "front", ("cards", "three"): "front"}
CARDS = {key: "both" for key in CARD_FRONTS}
EVERY = {**CARDS, ("sleeves", "red"): "front", ("sleeves", "blue"): "front"}

EDITS: list[tuple[str, Callable[[Path], None], dict[tuple[str, str], str]]] = [
    ("stylesheet rule", lambda g: _edit(g / "templates/mini/cards.css", "12.5pt", "12pt"), CARDS),
    ("imported stylesheet", lambda g: _edit(g / "templates/mini/more.css", "letter-spacing: 0", "letter-spacing: 0.1em"), CARDS),
    ("picture a stylesheet names", lambda g: _edit(g / "art/paper.svg", "#fff", "#ffe"), CARDS),
    ("font a stylesheet declares", lambda g: _swap_font(g / "fonts/titling.ttf"), CARDS),
    ("font the game declares", lambda g: _swap_font(g / "fonts/ebgaramond" / DEFAULT_FONTS[0].file.name), EVERY),
    ("palette colour", lambda g: _edit(g / "game.yaml", "'#222222'", "'#202020'"), EVERY),
    ("included template", lambda g: _edit(g / "templates/mini/part.html", "<p class", "<p data-x='1' class"), CARD_FRONTS),
    ("picture one symbol shows", lambda g: _edit(g / "art/moon.svg", 'fill="#333"', 'fill="#933"'), {("cards", "one"): "front", ("cards", "three"): "front"}),
    ("picture named from the game folder", lambda g: _edit(g / "art/mark.svg", "#09c", "#90c"), CARD_FRONTS),
    ("picture a picture shows", lambda g: _edit(g / "art/ray.svg", "#c90", "#c09"), {("cards", "one"): "front", ("cards", "two"): "front"}),
]


@pytest.mark.parametrize("what, edit, touched", EDITS, ids=[e[0] for e in EDITS])
def test_an_edit_changes_the_keys_of_the_faces_it_touches_and_no_others(
    mini_copy: Path, what: str, edit: Callable[[Path], None], touched: dict[tuple[str, str], str]
) -> None:
    _dress(mini_copy)
    before = _keys(mini_copy)
    assert _keys(mini_copy) == before  # the same files, the same keys
    edit(mini_copy)
    after = _keys(mini_copy)
    assert before.keys() == after.keys()
    changed = {}
    for card, (front, back) in after.items():
        sides = [side for side, old, new in (("front", before[card][0], front), ("back", before[card][1], back)) if old != new]
        if sides:
            changed[card] = "both" if len(sides) == 2 else sides[0]
    assert changed == touched, f"{what}: {changed}"

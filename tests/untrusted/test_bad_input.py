"""The loader's bad-input corpus: each broken game must fail with exit status 2,
no traceback, and a message naming the file, the line and what was expected."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pnp.paths import OWN
from tests.conftest import run_pnp


def _replace(file: str, old: str, new: str):  # type: ignore[no-untyped-def]
    def apply(game: Path) -> None:
        path = game / file
        text = path.read_text()
        assert old in text, f"corpus case does not apply: {old!r} not in {file}"
        path.write_text(text.replace(old, new, 1))

    return apply


def _write(file: str, content: str | bytes):  # type: ignore[no-untyped-def]
    def apply(game: Path) -> None:
        path = game / file
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)

    return apply


def _delete(file: str):  # type: ignore[no-untyped-def]
    def apply(game: Path) -> None:
        (game / file).unlink()

    return apply


# (case id, mutation, file named in the message, line, words the message must contain)
CASES = [
    ("malformed-yaml", _replace("cards.yaml", "title: One", "title: [One"), "cards.yaml", 4, ["YAML syntax error"]),
    ("tab-indent", _replace("cards.yaml", "    title: One", "\ttitle: One"), "cards.yaml", 3, ["tab"]),
    ("wrong-type-copies", _replace("cards.yaml", "copies: 2", "copies: two"), "cards.yaml", 8, ["cards[1].copies", "whole number"]),
    ("wrong-type-players", _replace("game.yaml", "players: {min: 2, max: 4}", "players: 4"), "game.yaml", 6, ["players", "expected {min, max}"]),
    ("unknown-symbol", _replace("cards.yaml", "{sun: +1, moon: -1}", "{sun: +1, star: -1}"), "cards.yaml", 4, ["cards[0].symbols.star", "unknown symbol 'star'", "sun"]),
    ("unknown-crest", _replace("cards.yaml", "crest: red", "crest: green"), "cards.yaml", 5, ["cards[0].crest", "unknown crest 'green'"]),
    ("unknown-each-set", _replace("game.yaml", "each: crests", "each: banners"), "game.yaml", 33, ["components[1].each", "unknown set 'banners'"]),
    ("duplicate-card-id", _replace("cards.yaml", "id: three", "id: one"), "cards.yaml", 10, ["cards[2].id", "duplicate id 'one'", "line 2"]),
    ("duplicate-set-id", _replace("game.yaml", "{id: moon,", "{id: sun,"), "game.yaml", 12, ["sets.symbols[1].id", "duplicate id 'sun'"]),
    ("duplicate-yaml-key", _replace("cards.yaml", "    title: Two\n", "    title: Two\n    title: Deux\n"), "cards.yaml", 8, ["duplicate key 'title' (first at line 7)"]),
    ("missing-template", _replace("game.yaml", "front: mini/card.html", "front: mini/nope.html"), "game.yaml", 21, ["components[0].front", "template file 'mini/nope.html' not found"]),
    ("missing-art", _replace("game.yaml", "{id: sun, name: Sun, art: art/dot.svg}", "{id: sun, name: Sun, art: art/sun.svg}"), "game.yaml", 11, ["sets.symbols[0].art", "art file 'art/sun.svg' not found"]),
    ("negative-quantity", _replace("cards.yaml", "copies: 2", "copies: -2"), "cards.yaml", 8, ["cards[1].copies", "from 0 to 10000"]),
    ("absurd-quantity", _replace("cards.yaml", "copies: 2", "copies: 1000000"), "cards.yaml", 8, ["cards[1].copies", "from 0 to 10000"]),
    ("missing-required-key", _replace("cards.yaml", "    title: Three\n", ""), "cards.yaml", 10, ["cards[2]", "missing required key 'title'"]),
    ("bad-unit", _replace("game.yaml", "size: poker\n    cards", "size: {width: 63.5, height: 88.9mm}\n    cards"), "game.yaml", 19, ["components[0].size.width", "unit"]),
    ("unknown-size", _replace("game.yaml", "size: poker\n    cards", "size: jumbo\n    cards"), "game.yaml", 19, ["components[0].size", "size name"]),
    ("empty-cards-file", _write("cards.yaml", ""), "cards.yaml", 1, ["expected a cards file"]),
    ("not-utf8", _write("cards.yaml", b"cards:\n  - id: caf\xe9\n"), "cards.yaml", 2, ["not UTF-8"]),
    ("missing-game-file-ref", _delete("cards.yaml"), "game.yaml", 20, ["data file 'cards.yaml' not found"]),
    ("bad-sign", _replace("cards.yaml", "{moon: 1}", "{moon: 2}"), "cards.yaml", 12, ["cards[2].symbols.moon", "one of -1, +1"]),
]

# More of the corpus (issue 7): every case fails with exit 2 and says where.
CASES += [
    ("binary-garbage", _write("cards.yaml", bytes(range(256)) * 4), "cards.yaml", 2, ["not UTF-8"]),
    ("control-character", _write("cards.yaml", "cards:\n  - id: o\x1fne\n"), "cards.yaml", 2, ["U+001F is not allowed"]),
    ("nul-byte", _write("cards.yaml", "cards:\n  - id: one\x00\n"), "cards.yaml", 2, ["NUL byte"]),
    ("half-surrogate-escape", _write("cards.yaml", 'cards:\n  - id: one\n    title: "x \\udc00"\n'), "cards.yaml", 3, ["\\udc00 is half of a UTF-16 surrogate pair"]),
    ("empty-game-file", _write("game.yaml", ""), "game.yaml", 1, ["expected a game file"]),
    ("game-file-is-a-list", _write("game.yaml", "- id: mini\n- name: Mini\n"), "game.yaml", 1, ["expected a game file", "found a list"]),
    ("missing-game-name", _replace("game.yaml", "name: Mini\n", ""), "game.yaml", 2, ["missing required key 'name'"]),
    ("bad-game-id", _replace("game.yaml", "id: mini", "id: Mini Game"), "game.yaml", 3, ["id:", "lowercase letters"]),
    ("players-min-above-max", _replace("game.yaml", "players: {min: 2, max: 4}", "players: {min: 5, max: 4}"), "game.yaml", 6, ["players", "min 5 is more than max 4"]),
    ("players-not-a-number", _replace("game.yaml", "players: {min: 2, max: 4}", "players: {min: two, max: 4}"), "game.yaml", 6, ["players.min", "whole number"]),
    ("unknown-font-file", _replace("game.yaml", "EBGaramond12-Regular.ttf", "NoSuchFont.ttf"), "game.yaml", 8, ["fonts[0].file", "font file", "not found"]),
    ("bad-colour", _replace("game.yaml", 'color: "#aa0000"', 'color: red'), "game.yaml", 14, ["sets.crests[0].color", "a colour like"]),
    ("duplicate-component-id", _replace("game.yaml", "  - id: sleeves", "  - id: cards"), "game.yaml", 30, ["components[1].id", "duplicate id 'cards'"]),
    ("absurd-size", _replace("game.yaml", "size: poker\n    cards", "size: {width: 10000mm, height: 88.9mm}\n    cards"), "game.yaml", 19, ["components[0].size.width", "5mm to 600mm"]),
    ("absurd-bleed", _replace("game.yaml", "size: poker\n    cards", "size: poker\n    bleed: 2in\n    cards"), "game.yaml", 20, ["components[0].bleed", "0mm to 10mm"]),
    ("absurd-corner-radius", _replace("game.yaml", "size: poker\n    cards", "size: poker\n    corner_radius: 1in\n    cards"), "game.yaml", 20, ["components[0].corner_radius", "0mm to 20mm"]),
    ("unknown-layout", _replace("game.yaml", "size: poker\n    cards", "size: poker\n    layout: origami\n    cards"), "game.yaml", 20, ["components[0].layout", "unknown sheet layout 'origami'"]),
    ("cards-and-each", _replace("game.yaml", "    each: crests\n", "    each: crests\n    cards: cards.yaml\n"), "game.yaml", 30, ["components[1]", "not both"]),
    ("neither-cards-nor-each", _replace("game.yaml", "    each: crests\n", ""), "game.yaml", 30, ["components[1]", "missing 'cards'"]),
    ("unknown-field-type", _replace("game.yaml", "crest: {type: ref,", "crest: {type: colour,"), "game.yaml", 29, ["fields.crest.type", "one of 'text'"]),
    ("ref-without-set", _replace("game.yaml", "crest: {type: ref, set: crests,", "crest: {type: ref,"), "game.yaml", 29, ["fields.crest", "needs 'set'"]),
    ("ref-to-unknown-set", _replace("game.yaml", "crest: {type: ref, set: crests,", "crest: {type: ref, set: banners,"), "game.yaml", 29, ["fields.crest.set", "unknown set 'banners'"]),
    ("reserved-field-name", _replace("game.yaml", "      crest: {type: ref", "      title: {type: ref"), "game.yaml", 29, ["fields.title", "every card has"]),
    ("card-not-a-mapping", _replace("cards.yaml", "  - id: three\n", "  - three\n  - id: three\n"), "cards.yaml", 10, ["cards[2]", "expected a card"]),
    ("cards-not-a-list", _write("cards.yaml", "cards: {one: 1}\n"), "cards.yaml", 1, ["cards", "expected a list of cards"]),
    ("symbols-as-list", _replace("cards.yaml", "{sun: +1, moon: -1}", "[sun, moon]"), "cards.yaml", 4, ["cards[0].symbols", "expected a mapping"]),
    ("title-a-mapping", _replace("cards.yaml", "title: One", "title: {en: One}"), "cards.yaml", 3, ["cards[0].title", "expected text"]),
    ("each-not-a-name", _replace("game.yaml", "    each: crests\n", "    each: false\n"), "game.yaml", 33, ["components[1].each", "an id of lowercase"]),
    ("yaml-nests-too-deep", _write("cards.yaml", "cards: " + "[" * 30000 + "]" * 30000 + "\n"), "cards.yaml", 1, ["nest more than 64 deep"]),
    ("yaml-block-nests-too-deep", _write("cards.yaml", "cards:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 80))), "cards.yaml", 65, ["nest more than 64 deep"]),
    ("alias-bomb", _write("cards.yaml", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"), "cards.yaml", 1, ["alias bomb"]),
    ("python-object-tag", _write("cards.yaml", "cards: !!python/object/apply:os.system [echo pwned]\n"), "cards.yaml", 1, ["YAML syntax error", "tag", "not allowed"]),
    ("unit-unknown", _replace("game.yaml", "size: poker\n    cards", "size: {width: 3furlong, height: 88.9mm}\n    cards"), "game.yaml", 19, ["unknown unit 'furlong'"]),
    ("prepare-unknown-component", _replace("game.yaml", "components:\n", "prepare:\n  - {need: sleeves, count: {copies_of: [cards, pockets]}}\ncomponents:\n"), "game.yaml", 17, ["prepare[0].count.copies_of[1]", "no component 'pockets'", "cards, sleeves"]),
    ("prepare-count-zero", _replace("game.yaml", "components:\n", "prepare:\n  - {need: sleeves, count: 0}\ncomponents:\n"), "game.yaml", 17, ["prepare[0].count", "from 1 to 10000"]),
    ("prepare-count-words", _replace("game.yaml", "components:\n", "prepare:\n  - {need: sleeves, count: lots}\ncomponents:\n"), "game.yaml", 17, ["prepare[0].count", "a whole number from 1 to 10000, or {copies_of: [component ids]}"]),
    ("prepare-need-a-list", _replace("game.yaml", "components:\n", "prepare:\n  - need: [sleeves, glue]\ncomponents:\n"), "game.yaml", 17, ["prepare[0].need", "expected text"]),
    ("assembly-a-list", _replace("game.yaml", "    copies: 2\n", "    copies: 2\n    assembly: [cut, fold]\n"), "game.yaml", 35, ["components[1].assembly", "expected text"]),
    ("assembly-too-long", _replace("game.yaml", "    copies: 2\n", "    copies: 2\n    assembly: " + "cut and fold " * 60 + "\n"), "game.yaml", 35, ["components[1].assembly", "at most 600"]),
    ("prepare-without-need", _replace("game.yaml", "components:\n", "prepare:\n  - {count: 3}\ncomponents:\n"), "game.yaml", 17, ["prepare[0]", "missing required key 'need'"]),
    ("profile-of-one-field", _replace("game.yaml", "components:\n", "checks:\n  profile:\n    - {component: cards, fields: [symbols], why: w}\ncomponents:\n"),
     "game.yaml", 18, ["checks.profile[0].fields", "1 items; expected 2 to 20"]),
    ("link-to-no-component", _replace("game.yaml", "components:\n", "checks:\n  links:\n    - {component: cards, field: symbols, to: nowhere, why: w}\ncomponents:\n"),
     "game.yaml", 18, ["[links]", "no component 'nowhere'"]),
    ("profile-of-a-map-field", _replace("game.yaml", "components:\n", "checks:\n  profile:\n    - {component: cards, fields: [symbols, symbols], why: w}\ncomponents:\n"),
     "cards.yaml", 2, ["[profile]", "One: symbols is {'sun': 1, 'moon': -1}, not a whole number"]),
    ("player-table-contradicts-deck", _replace("game.yaml", "components:\n", "rules:\n  hand: {2: 3, 3: 3, 4: 3}\nchecks:\n  deal:\n    - {deck: cards, hand: hand}\ncomponents:\n"), "game.yaml", 20, ["[deal]", "need 6 cards but the deck has 4"]),
]

_SVG_BOMB = (
    b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><defs><circle id="l0" r="1"/>'
    + b"".join(b'<g id="l%d">' % n + b'<use xlink:href="#l%d"/>' % (n - 1) * 10 + b"</g>" for n in range(1, 10))
    + b'</defs><use xlink:href="#l9"/></svg>'
)
"""Nine groups, each using the one before ten times: a billion circles from 2 KB."""

# Broken templates are found when the faces are rendered: the message names the
# template's line and the card being rendered.
CASES += [
    ("template-unknown-name", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n<p>{{ card.nickname }}</p>\n"), "templates/mini/card.html", 2, ["card cards/one front", "nickname"]),
    ("template-huge-range", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% for i in range(10**9) %}{{ i }}{% endfor %}\n"),
     "templates/mini/card.html", 2, ["card cards/one front", "Range too big"]),
    ("template-huge-text", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{{ 'x' * 10**10 }}\n"),
     "templates/mini/card.html", 2, ["card cards/one front", "more than 1,000,000 long"]),
    ("template-huge-power", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{{ 2 ** 1000000000 }}\n"),
     "templates/mini/card.html", 2, ["too large a number"]),
    ("template-macro-recursion", _write("templates/mini/card.html", "{% macro m() %}{{ m() }}{% endmacro %}\n{{ m() }}\n"),
     "templates/mini/card.html", 1, ["call themselves too deeply"]),
    ("template-includes-itself", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% include 'mini/card.html' %}\n"),
     "templates/mini/card.html", 2, ["call themselves too deeply"]),
    ("file-name-too-long", _replace("game.yaml", "{id: sun, name: Sun, art: art/dot.svg}", "{id: sun, name: Sun, art: art/" + "x" * 300 + ".svg}"),
     "game.yaml", 11, ["sets.symbols[0].art", "not found"]),
    ("template-nested-loops", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% for a in range(99999) %}\n{% for b in range(99999) %}{% endfor %}\n{% endfor %}\n"),
     "templates/mini/card.html", 3, ["card cards/one front", "more than 2,000,000 steps of work"]),
    ("template-loop-over-huge-joins", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% for a in range(90000) %}{% set t = range(90000)|join %}{% endfor %}\n"),
     "templates/mini/card.html", 2, ["card cards/one front", "more than 2,000,000 steps of work"]),
    ("template-macro-makes-gigabytes", _write("templates/mini/card.html", "{% macro m() %}{% for a in range(5000) %}{{ 'y' * 900000 }}{% endfor %}{% endmacro %}\n<h1>{{ card.title }}</h1>{% set t = m() %}\n"),
     "templates/mini/card.html", 1, ["card cards/one front", "more than 2,000,000 steps of work"]),
    ("template-writes-megabytes", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% for a in range(60) %}{{ range(90000)|join }}{% endfor %}\n"),
     "templates/mini/card.html", 2, ["card cards/one front", "wrote more than 5,000,000 characters"]),
    ("svg-art-use-bomb", _write("art/dot.svg", _SVG_BOMB), "game.yaml", 11, ["sets.symbols[0].art", "art file 'art/dot.svg' refused", "draws more than 200,000 elements"]),
    ("svg-inline-use-bomb", _replace("templates/mini/card.html", "<h1>", _SVG_BOMB.decode() + "<h1>"), "templates/mini/card.html", 3, ["card cards/one front", "draws more than 200,000 elements"]),
    ("svg-uses-itself", _write("art/dot.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#a"/></g></svg>'), "game.yaml", 11, ["uses itself"]),
    ("template-divides-by-zero", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n<p>{{ 10 // (card.symbols|length - 1) }}</p>\n"),
     "templates/mini/card.html", 2, ["card cards/two front", "card cards/three front", "ZeroDivisionError", "2 errors"]),
    ("template-missing-key", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n<p>{{ {}.popitem() if card.crest else '' }}</p>\n"),
     "templates/mini/card.html", 2, ["card cards/one front", "KeyError"]),
    ("template-syntax-error", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% for x in %}\n"), "templates/mini/card.html", 2, ["syntax error"]),
]



def _both(*mutations):  # type: ignore[no-untyped-def]
    def apply(game: Path) -> None:
        for mutate in mutations:
            mutate(game)

    return apply


# Fonts (issue 15): text may use only the fonts game.yaml declares, and only
# characters they have; each problem is found after layout and named at the card.
CASES += [
    ("font-family-undeclared", _replace("templates/mini/card.html", "font-family: 'EB Garamond'", "font-family: 'Typo Garamnd'"),
     "cards.yaml", 2, ["cards/one front", "div.safe", "font-family 'Typo Garamnd' is not a declared font", "EB Garamond"]),
    ("font-family-system-name", _replace("templates/mini/card.html", "font-family: 'EB Garamond'", "font-family: Arial, 'EB Garamond'"),
     "cards.yaml", 2, ["font-family 'Arial' is not a declared font"]),
    ("font-family-only-generic", _replace("templates/mini/card.html", "font-family: 'EB Garamond'", "font-family: sans-serif"),
     "cards.yaml", 2, ["font-family starts with 'sans-serif', which names no font"]),
    ("character-no-font-has", _replace("cards.yaml", "title: One", 'title: "One \u2600"'),
     "cards.yaml", 2, ["cards/one front", "div.safe h1", "no declared font has the character", "U+2600 BLACK SUN WITH RAYS"]),
    ("emoji-no-font-has", _replace("cards.yaml", "title: Two", 'title: "Two \U0001F3E0"'),
     "cards.yaml", 6, ["cards/two front", "U+1F3E0 HOUSE BUILDING"]),
    ("character-in-template-text", _replace("templates/mini/back.html", "{{ game.name }}", "{{ game.name }} \u2665 \u2605"),
     "cards.yaml", 2, ["cards/one back", "U+2665 BLACK HEART SUIT", "U+2605 BLACK STAR"]),
    ("language-not-a-tag", _replace("game.yaml", "version: \"1\"\n", "version: \"1\"\nlanguage: English\n"),
     "game.yaml", 6, ["language", "a language tag like 'en'"]),
    ("font-file-not-a-font", _both(_write("notafont.ttf", "plain text, no font"), _replace("game.yaml", "fonts/ebgaramond/EBGaramond12-Regular.ttf", "notafont.ttf")),
     "game.yaml", 8, ["fonts[0].file", "font file 'notafont.ttf' refused", "no font file"]),
    ("font-file-truncated", _both(_write("cut.ttf", (OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf").read_bytes()[:4096]), _replace("game.yaml", "fonts/ebgaramond/EBGaramond12-Regular.ttf", "cut.ttf")),
     "game.yaml", 8, ["fonts[0].file", "font file 'cut.ttf' refused", "damaged TrueType font"]),
]


def _link(file: str, target: str):  # type: ignore[no-untyped-def]
    def apply(game: Path) -> None:
        (game / file).symlink_to(target)

    return apply


_STYLED = _replace("game.yaml", "    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/extra.css]\n")

# Issue 35: what a template includes, and every url() of a stylesheet, is refused
# at its own line, whether or not a page ends up drawing it.
CASES += [
    ("template-includes-missing", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% include 'mini/nope.html' %}\n"),
     "templates/mini/card.html", 2, ["card cards/one front", "template 'mini/nope.html' not found"]),
    ("template-img-from-network", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n<p>x</p>\n<img src=\"https://example.com/x.png\">\n"),
     "templates/mini/card.html", 3, ["card cards/one front", "refused to read 'https://example.com/x.png'", "only local files"]),
    ("template-img-outside", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n<img src=\"{{ 'file:///etc/passwd' if card.id == 'two' else sets.symbols.sun.art }}\">\n"),
     "templates/mini/card.html", 2, ["card cards/two front", "refused to read 'file:///etc/passwd' lies outside"]),
    ("included-template-url-to-device", _both(_write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% include 'mini/pic.html' %}\n"),
                                                _write("templates/mini/pic.html", "<p>pic</p>\n<p>two</p>\n<div style=\"background: url(/dev/zero)\"></div>\n")),
     "templates/mini/pic.html", 3, ["card cards/one front", "refused to read 'file:///dev/zero' lies outside"]),
    ("template-nests-too-deep", _write("templates/mini/card.html", "<h1>{{ card.title }}</h1>\n{% for i in range(200) %}<div>{% endfor %}x{% for i in range(200) %}</div>{% endfor %}\n"),
     "templates/mini/card.html", 2, ["card cards/one front", "elements nest more than 100 deep"]),
    ("stylesheet-unused-url-to-device", _both(_STYLED, _write("templates/mini/extra.css", "h1 { color: #000; }\n.unused {\n  background: url(/dev/zero);\n}\n")),
     "templates/mini/extra.css", 3, ["refused to read 'file:///dev/zero' lies outside"]),
    ("stylesheet-url-linked-to-device", _both(_STYLED, _link("art/noise.png", "/dev/urandom"), _write("templates/mini/extra.css", "h1 {\n  background: url('../../art/noise.png');\n}\n")),
     "templates/mini/extra.css", 2, ["refused to read", "art/noise.png' lies outside"]),
    ("stylesheet-imports-device", _both(_STYLED, _write("templates/mini/extra.css", "@import '/dev/zero';\nh1 { color: #000; }\n")),
     "templates/mini/extra.css", 1, ["refused to read 'file:///dev/zero'"]),
    ("stylesheet-unused-url-to-network", _both(_STYLED, _write("templates/mini/extra.css", "h1 { color: #000; }\n.unused { background: url(https://example.com/x.png); }\n")),
     "templates/mini/extra.css", 2, ["only local files may be used"]),
    # The colour-vision check's declaration names palette colours (issue 42).
    ("colour-check-unknown-colour", _replace("game.yaml", "components:\n", "checks:\n  colours:\n    - {name: crests, colours: [crimson, '#0000aa']}\ncomponents:\n"),
     "game.yaml", 18, ["checks.colours[0].colours[0]", "unknown palette colour 'crimson'"]),
    ("colour-check-one-colour", _replace("game.yaml", "components:\n", "checks:\n  colours:\n    - {name: crests, colours: ['#0000aa']}\ncomponents:\n"),
     "game.yaml", 18, ["checks.colours[0].colours", "1 items; expected"]),
    # Tuck boxes name the components they hold, and thicknesses with units (issue 42).
    ("box-holds-unknown-component", _replace("game.yaml", "components:\n", "boxes:\n  - {id: b, name: B, holds: [deck], stock: 0.3mm}\ncomponents:\n"),
     "game.yaml", 17, ["boxes[0].holds[0]", "no component 'deck'", "cards, sleeves"]),
    ("box-stock-without-unit", _replace("game.yaml", "components:\n", "boxes:\n  - {id: b, name: B, holds: [cards], stock: 0.3}\ncomponents:\n"),
     "game.yaml", 17, ["boxes[0].stock", "unit"]),
]


def _rules(values: str, schema: str):  # type: ignore[no-untyped-def]
    """Give the mini game ``rules:`` (from line 17) and ``rules_schema:`` after them."""
    return _replace("game.yaml", "components:\n", f"rules:\n{values}rules_schema:\n{schema}components:\n")


_HAND = "  hand: {type: integer, min: 1, max: 10, doc: Cards in each hand.}\n"

# Rules values (issue 35): each is checked against the type rules_schema declares,
# at the value's own line and column, before anything is built.
CASES += [
    ("rules-value-below-its-minimum", _rules("  hand: -2\n", _HAND), "game.yaml", 17,
     ["game.yaml:17:9: rules.hand: expected a whole number from 1 to 10, found -2"]),
    ("rules-value-words-for-a-number", _rules("  hand: eight\n", _HAND), "game.yaml", 17,
     ["game.yaml:17:9: rules.hand: expected a whole number from 1 to 10, found 'eight'"]),
    ("rules-value-not-a-choice", _rules("  kinds: [numeral, joker]\n", "  kinds: {type: list, doc: Kinds., items: {type: text, choices: [numeral, court], doc: A kind.}}\n"),
     "game.yaml", 17, ["game.yaml:17:20: rules.kinds[1]: expected one of 'numeral', 'court', found 'joker'"]),
    ("rules-value-number-out-of-range", _rules("  share: 1.5\n", "  share: {type: number, min: 0, max: 1, doc: A share.}\n"),
     "game.yaml", 17, ["game.yaml:17:10: rules.share: expected a number from 0 to 1, found 1.5"]),
    ("rules-value-not-a-boolean", _rules("  leaders: yes\n", "  leaders: {type: boolean, doc: Leaders.}\n"),
     "game.yaml", 17, ["game.yaml:17:12: rules.leaders: expected true or false, found 'yes'"]),
    ("rules-table-entry", _rules("  hand_size: {2: 5, 3: 0, 4: 5}\n", "  hand_size: {type: map, doc: Hands., keys: {type: integer, min: 2, max: 4, doc: Players.}, values: {type: integer, min: 1, max: 9, doc: Cards.}}\n"),
     "game.yaml", 17, ["game.yaml:17:24: rules.hand_size[3]: expected a whole number from 1 to 9, found 0"]),
    ("rules-declared-not-given", _rules("  hand: 2\n", _HAND + "  topics: {type: integer, doc: Topics.}\n"), "game.yaml", 20,
     ["game.yaml:20:11: rules_schema.topics: declared, but rules: gives no topics"]),
    ("rules-schema-unknown-type", _rules("  hand: 2\n", "  hand: {type: count, doc: Cards.}\n"), "game.yaml", 19,
     ["rules_schema.hand.type", "one of 'text', 'integer', 'number'"]),
    ("rules-schema-fractional-integer-bound", _rules("  hand: 2\n", "  hand: {type: integer, min: 0.5, doc: Cards.}\n"), "game.yaml", 19,
     ["rules_schema.hand.min", "expected a whole number for a integer field, found 0.5"]),
    ("rules-not-a-mapping", _replace("game.yaml", "components:\n", "rules: [hand, 2]\ncomponents:\n"), "game.yaml", 16,
     ["rules: expected a mapping of rules keys to values, found list"]),
]


_NO_COPIES = "cards:\n  - {id: one, title: One, symbols: {sun: 1, moon: -1}, copies: 0}\n  - {id: two, title: Two, symbols: {sun: -1}, copies: 0}\n"

# Checks the data makes impossible to work out (issue 35): a deck with no copies to count.
CASES += [
    ("balance-of-no-copies", _both(_write("cards.yaml", _NO_COPIES), _replace("game.yaml", "components:\n", "checks:\n  balance:\n    - {component: cards, field: symbols}\ncomponents:\n")),
     "game.yaml", 18, ["game.yaml:18:19: checks.balance[0].component: every card of 'cards' has copies: 0, so there is no deck to count"]),
    ("odds-on-no-copies", _both(_write("cards.yaml", _NO_COPIES), _replace("game.yaml", "components:\n", "rules:\n  hand: {2: 1, 3: 1, 4: 1}\nchecks:\n  odds:\n    - {kind: dominant-signs, deck: cards, field: symbols, need: 1, hand: hand}\ncomponents:\n")),
     "game.yaml", 20, ["game.yaml:20:36: checks.odds[0].deck: every card of 'cards' has copies: 0"]),
]


# Budgets over the whole game (issue 16).
CASES += [
    ("pieces-past-the-budget", _both(_replace("cards.yaml", "title: One", "title: One\n    copies: 10000"), _replace("cards.yaml", "copies: 2", "copies: 10000")),
     "cards.yaml", 11, ["copies: 1 takes the game past 20,000 pieces in all", "card 'three'"]),
]


# Numbers written so that YAML readers disagree on them (issue 35): a number
# is wanted, so the characters written are what counts.
CASES += [
    ("integer-leading-zero", _replace("cards.yaml", "copies: 2", "copies: 010"),
     "cards.yaml", 8, ["cards[1].copies", "010 has a leading zero, which YAML 1.1 reads as 8 (octal) and YAML 1.2 as 10", "like 10"]),
    ("integer-leading-zero-not-octal", _replace("game.yaml", "players: {min: 2, max: 4}", "players: {min: 2, max: 09}"),
     "game.yaml", 6, ["players.max", "09 has a leading zero, which YAML 1.1 reads as text and YAML 1.2 as 9"]),
    ("integer-as-exponent", _replace("cards.yaml", "copies: 2", "copies: 1e3"), "cards.yaml", 8, ["cards[1].copies", "expected a whole number from 0 to 10000, found 1e3"]),
    ("integer-with-underscore", _replace("cards.yaml", "copies: 2", "copies: 1_000"), "cards.yaml", 8, ["cards[1].copies", "found '1_000'"]),
    ("boolean-as-yes", _replace("game.yaml", "crest: {type: ref, set: crests,", "crest: {type: ref, required: yes, set: crests,"),
     "game.yaml", 29, ["fields.crest.required", "expected true or false, found 'yes'"]),
    ("map-key-a-number", _replace("cards.yaml", "{moon: 1}", "{5: 1}"), "cards.yaml", 12, ["cards[2].symbols[5]", "symbols, found 5"]),
    ("merge-key-of-a-number", _replace("cards.yaml", "    title: Two\n", "    title: Two\n    <<: 5\n"), "cards.yaml", 8, ["a merge key << takes a mapping or a list of mappings"]),
]


def _linked_out(folder: str, files: dict[str, str]):  # type: ignore[no-untyped-def]
    """The game's own ``folder`` made a link to a folder beside the game that
    holds ``files``: the files are refused, at the reference that names them,
    never read (every command here is audited)."""

    def apply(game: Path) -> None:
        elsewhere = game.parent / "elsewhere"
        for name, text in files.items():
            (elsewhere / name).parent.mkdir(parents=True, exist_ok=True)
            (elsewhere / name).write_text(text)
        if (game / folder).is_dir():
            shutil.rmtree(game / folder)
        (game / folder).symlink_to(elsewhere, target_is_directory=True)

    return apply


# A game folder's own folders that are links out of it (issue 35): the folder
# a game's files must lie in is the game folder's real location; a subfolder
# linked elsewhere does not widen it (tests/untrusted/test_audit.py too).
CASES += [
    ("templates-folder-linked-out", _both(_linked_out("templates", {"page.html": "SECRET-7d1f"}), _replace("game.yaml", "front: mini/card.html", "front: page.html")),
     "game.yaml", 21, ["components[0].front", "template file 'page.html' refused: templates is a link to", "elsewhere, outside mini/"]),
    ("art-folder-linked-out", _linked_out("art", {"dot.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'}),
     "game.yaml", 11, ["sets.symbols[0].art", "art file 'art/dot.svg' refused: art is a link to"]),
    ("data-folder-linked-out", _both(_linked_out("data", {"cards.yaml": "cards: [{id: x, title: SECRET-7d1f}]\n"}), _replace("game.yaml", "cards: cards.yaml", "cards: data/cards.yaml")),
     "game.yaml", 20, ["components[0].cards", "data file 'data/cards.yaml' refused: data is a link to"]),
    ("fonts-folder-linked-out", _linked_out("fonts", {"ebgaramond/EBGaramond12-Regular.ttf": "SECRET-7d1f"}),
     "game.yaml", 8, ["fonts[0].file", "refused: fonts is a link to"]),
    ("art-climbs-out", _replace("game.yaml", "{id: sun, name: Sun, art: art/dot.svg}", "{id: sun, name: Sun, art: ../elsewhere/dot.svg}"),
     "game.yaml", 11, ["sets.symbols[0].art", "art file '../elsewhere/dot.svg' refused: the path climbs out of mini/ with '..'"]),
]


def _component(lines: str):  # type: ignore[no-untyped-def]
    """A third component after the mini game's two (its id on line 36, ``lines`` from 38)."""
    return _replace("game.yaml", "    front: mini/back.html\n", "    front: mini/back.html\n  - id: dice\n    name: Dice\n" + lines, )


_NET = ("    net: {faces: symbols, face: 19mm}\n    cards: cards.yaml\n    front: mini/back.html\n"
        "    fields: {symbols: {type: map, doc: Faces., keys: {type: ref, set: symbols, doc: A face.}, values: {type: integer, doc: A sign.}}}\n")

# Dice nets, face labels and token denominations (issue 38): each refused at
# its own key, or at the card whose faces are wrong.
CASES += [
    ("net-with-a-size", _component("    size: poker\n" + _NET), "game.yaml", 38,
     ["components[2].size", "a net works out its own size"]),
    ("net-with-a-back", _component("    back: mini/back.html\n" + _NET), "game.yaml", 38,
     ["components[2].back", "a net is printed on one side only"]),
    ("net-tab-too-deep", _component(_NET.replace("face: 19mm", "face: 10mm, tab: 6mm")), "game.yaml", 38,
     ["components[2].net.tab", "at most half the face (5.0mm)"]),
    ("net-die-without-six-faces", _component(_NET), "cards.yaml", 2,
     ["card 'one': expected a list of 6 faces for a cube net, found a mapping"]),
    ("faces-of-not-a-net", _component("    faces_of: cards\n    size: poker\n    front: mini/back.html\n"), "game.yaml", 38,
     ["components[2].faces_of", "unknown net component 'cards'", "none"]),
    ("denominations-of-no-table", _component("    denominations: prestige\n    size: poker\n    front: mini/back.html\n"), "game.yaml", 38,
     ["components[2].denominations", "rules.prestige is not a table of value: count"]),
    ("size-missing", _component("    cards: cards.yaml\n    front: mini/back.html\n"), "game.yaml", 36,
     ["components[2]", "missing 'size'"]),
]

# Inputs that raised a traceback until the loader was typed (issue 39): a bad
# net with no size, engine options that are not a mapping.
CASES += [
    ("net-wrong-and-no-size", _component(_NET.replace("faces: symbols", "faces: 3")), "game.yaml", 38,
     ["components[2].net.faces", "expected a name of lowercase letters"]),
    ("engine-options-not-a-mapping", _replace("game.yaml", "players: {min: 2, max: 4}\n", "players: {min: 2, max: 4}\nengine: {plugin: dice, options: 5}\n"),
     "game.yaml", 7, ["engine.options", "expected a mapping of text to a value, found 5"]),
]


def _shared(*folders: str):  # type: ignore[no-untyped-def]
    """game.yaml declaring ``folders`` under ``shared:`` (line 7)."""
    return _replace("game.yaml", "players: {min: 2, max: 4}\n", f"players: {{min: 2, max: 4}}\nshared: [{', '.join(folders)}]\n")


def _sibling_link(name: str, target: str):  # type: ignore[no-untyped-def]
    def apply(game: Path) -> None:
        (game.parent / name).symlink_to(target, target_is_directory=True)

    return apply


# Shared folders (docs/card-data.md): only a folder beside the game folder,
# found through the one path resolver; anything else is refused unread.
CASES += [
    ("shared-climbs-out", _shared("../.."), "game.yaml", 7, ["shared[0]", "refused: the path climbs out of", "with '..'", "beside the game folder"]),
    ("shared-absolute", _shared("/etc"), "game.yaml", 7, ["shared[0]", "'/etc' is not a relative path"]),
    ("shared-home", _shared("'~/fonts'"), "game.yaml", 7, ["shared[0]", "'~/fonts' is not a relative path"]),
    ("shared-linked-out", _both(_sibling_link("family", "/etc"), _shared("../family")), "game.yaml", 7, ["shared[0]", "refused: family is a link to /etc, outside"]),
    ("shared-inside-another", _shared("../mini/templates"), "game.yaml", 7, ["shared[0]", "does not lie directly beside mini/"]),
    ("shared-itself", _shared("../mini"), "game.yaml", 7, ["shared[0]", "is the game folder itself"]),
    ("shared-missing", _shared("../nowhere"), "game.yaml", 7, ["shared[0]", "no folder '../nowhere' beside mini/"]),
    ("shared-not-text", _shared("{a: 1}"), "game.yaml", 7, ["shared[0]", "expected text, found a mapping"]),
]


@pytest.mark.parametrize("case, mutate, file, line, words", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_reported_precisely(mini_copy: Path, case, mutate, file, line, words) -> None:
    mutate(mini_copy)
    result = run_pnp("build", str(mini_copy), "--out", str(mini_copy.parent / "out"), "--paper", "a4")
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    where = f"{file}:{line}:"
    matching = [l for l in result.stderr.splitlines() if where in l]
    assert matching, f"no message names {where}:\n{result.stderr}"
    for word in words:
        assert word in result.stderr, f"{word!r} missing from:\n{result.stderr}"
    out = mini_copy.parent / "out"
    built = [p for p in out.rglob("*") if p.is_file() and ".cache" not in p.relative_to(out).parts] if out.exists() else []
    assert not built, f"nothing may be written for bad input (pages laid out before the error may be cached): {built}"


def test_all_errors_are_reported_together(mini_copy: Path) -> None:
    _replace("cards.yaml", "copies: 2", "copies: -2")(mini_copy)
    _replace("cards.yaml", "crest: red", "crest: green")(mini_copy)
    _replace("game.yaml", "front: mini/card.html", "front: mini/nope.html")(mini_copy)
    result = run_pnp("list", str(mini_copy))
    assert result.returncode == 2
    assert "cards[1].copies" in result.stderr and "unknown crest 'green'" in result.stderr
    assert "mini/nope.html" in result.stderr
    assert "3 errors" in result.stderr


def test_unknown_key_warns_and_strict_refuses(mini_copy: Path) -> None:
    _replace("cards.yaml", "    title: One\n", "    title: One\n    colour: blue\n")(mini_copy)
    loose = run_pnp("list", str(mini_copy))
    assert loose.returncode == 0
    assert "cards.yaml:4:13: warning: cards[0].colour: unknown key 'colour'" in loose.stderr
    strict = run_pnp("list", str(mini_copy), "--strict")
    assert strict.returncode == 2
    assert "cards[0].colour: unknown key 'colour'" in strict.stderr


def test_unknown_game_is_a_usage_error() -> None:
    result = run_pnp("list", "no-such-game")
    assert result.returncode == 2
    assert "no game 'no-such-game'" in result.stderr and "persuasion-b04" in result.stderr
    assert "Traceback" not in result.stderr


def test_numbers_are_read_by_yaml_1_2_rules(mini_copy: Path) -> None:
    """0x10 is sixteen; a text field keeps a number as it was written (1.10,
    not 1.1; 0123, not 83): 010 where a number is wanted is refused (above)."""
    _replace("cards.yaml", "copies: 2", "copies: 0x0a")(mini_copy)
    _replace("cards.yaml", "id: three", "id: 0123")(mini_copy)
    _replace("game.yaml", 'version: "1"', "version: 1.10")(mini_copy)
    result = run_pnp("list", str(mini_copy), "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    cards = {c["id"]: c["copies"] for c in listed["components"][0]["cards"]}
    assert cards["two"] == 10 and "0123" in cards, cards
    built = run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(mini_copy.parent / "out"))
    assert built.returncode == 0, built.stderr
    assert json.loads((mini_copy.parent / "out" / "mini" / "manifest.json").read_text())["version"] == "1.10"


def test_elements_nested_too_deeply_to_lay_out_are_refused(mini_copy: Path) -> None:
    (mini_copy / "templates/mini/card.html").write_text("<div>" * 10000 + "{{ card.title }}" + "</div>" * 10000 + "\n")
    result = run_pnp("build", str(mini_copy), "--out", str(mini_copy.parent / "out"), "--paper", "a4")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "templates/mini/card.html:1:1: while rendering card cards/one front (mini/card.html): elements nest more than 100 deep" in result.stderr


def test_a_page_break_inside_a_face_keeps_each_face_on_its_own_page(mini_copy: Path) -> None:
    """A template's page break, even !important, cannot split a card over two
    pages (and shift every later face onto the wrong card)."""
    from tests.pdftools import pdftotext

    (mini_copy / "templates/mini/card.html").write_text(
        "<h1>{{ card.title }}</h1>\n<div style=\"break-before: page !important\">after {{ card.id }}</div>\n"
    )
    out = mini_copy.parent / "out"
    result = run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4", "--no-stamp")
    assert result.returncode == 0, result.stderr
    fronts = pdftotext(out / "mini" / "mini-home-a4.pdf", 2, 2)
    for card in ("one", "two", "three"):
        assert f"after {card}" in fronts, fronts

"""Every Partisan component: counts from the rules, where the pieces lie on
the sheets, the Crowns' wells against the chips, the templates' own rules
(palette colours only, no tiny text, clean SVG art), and the rulebook's
counts and worked example against the data and the scorer."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from pnp.engine.plugins import engine_for
from pnp.imposition.geometry import grid
from pnp.loading.loader import load_game
from pnp.loading.presets import load_papers
from pnp.units import mm, to_mm
from pnp.testing import clip_rects, prose

FOLDER = Path(__file__).resolve().parents[1]
GAME = load_game(FOLDER)
TEMPLATES = FOLDER / "templates" / "partisan"
ART = FOLDER / "art"
SUITS = [e.id for e in GAME.sets["suits"]]


def _manifest(build: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {c["id"]: c for c in json.loads((build / "manifest.json").read_text())["components"]}


def test_the_manifest_counts_the_rules_pieces(partisan_build: Path) -> None:
    components = _manifest(partisan_build)
    # 45 Decktet faces and one back; 96 chips (48 base, 48 in the module) from
    # 12 faces (a plain and a leader chip a suit, the same both sides); 6 aids, two faces.
    assert {k: (c["copies"], c["faces"]) for k, c in components.items()} == {
        "decktet": (45, 46), "chips": (6 * GAME.rules["chips_double_deck"], 12), "aid": (GAME.players[1], 2),
    }
    assert {card["id"] for card in components["decktet"]["cards"]} == {c.id for c in GAME.component("decktet").cards}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_file_places_its_own_pieces(partisan_build: Path, paper: str) -> None:
    """The base file: 9 cards on each of 5 sheets (A4) or 8 on each of 6
    (Letter, the last holding 5), the 48 base chips on one, the 6 aids on one
    (and as many backs); the module's file: its 48 chips."""
    home = partisan_build / f"partisan-home-{paper}.pdf"
    cards = [9] * 10 if paper == "a4" else [8] * 10 + [5, 5]
    assert [len(clip_rects(home, page)) for page in range(2, 2 + len(cards) + 4)] == cards + [48, 48, 6, 6]
    module = partisan_build / f"partisan-double-deck-home-{paper}.pdf"
    assert [len(clip_rects(module, page)) for page in (2, 3)] == [48, 48]


def test_the_chips_are_the_rules_numbers_in_each_file() -> None:
    chips = GAME.component("chips").cards
    base = Counter({s: 0 for s in SUITS})
    module = Counter({s: 0 for s in SUITS})
    for chip in chips:
        (module if chip.fields["double"] else base)[chip.fields["suit"]] += chip.copies
    assert base == {s: GAME.rules["chips_per_suit"] for s in SUITS}
    assert module == {s: GAME.rules["chips_double_deck"] - GAME.rules["chips_per_suit"] for s in SUITS}
    assert sum(c.copies for c in chips if c.fields["leader"]) == len(SUITS)
    assert all(not c.fields["double"] for c in chips if c.fields["leader"])  # the leaders are in the base game
    assert GAME.component("aid").copies == GAME.players[1]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_chip_is_centred_in_its_cutting_circle(paper: str) -> None:
    chips = GAME.component("chips")
    assert (to_mm(chips.size.width), to_mm(chips.size.height)) == pytest.approx((25.4, 25.4))  # a 1 in punch
    g = grid(GAME.layouts[chips.layout_for(paper)], load_papers()[paper], chips.size.width, chips.size.height)
    assert g.per_sheet >= 48 and len(g.guides) == len(g.fronts)
    for guide, slot in zip(g.guides, g.fronts):
        assert guide.r == pytest.approx(slot.width / 2)
        assert (guide.cx, guide.cy) == pytest.approx((slot.x + slot.width / 2, slot.y + slot.height / 2))
    css = (TEMPLATES / "partisan.css").read_text()
    face = re.search(r"\.chip-face \{[^}]*left: ([\d.]+)mm; top: ([\d.]+)mm; width: ([\d.]+)mm; height: ([\d.]+)mm", css)
    assert face, "no .chip-face rule"
    left, top, width, height = (float(v) for v in face.groups())
    # The paper disc is concentric with the trim, so with the cutting circle.
    assert left * 2 + width == pytest.approx(25.4) and top * 2 + height == pytest.approx(25.4)


def test_a_crowns_well_holds_a_stack_of_chips_inside_the_safe_area() -> None:
    css = (TEMPLATES / "partisan.css").read_text()
    medallion = re.search(r"\.medallion \{[^}]*left: ([\d.]+)mm; top: ([\d.]+)mm; width: ([\d.]+)mm", css)
    well = re.search(r"\.medallion \.well \{[^}]*left: ([\d.]+)mm; top: ([\d.]+)mm; width: ([\d.]+)mm; height: ([\d.]+)mm", css)
    assert medallion and well
    chip = to_mm(GAME.component("chips").size.width)
    width, height = float(well[3]), float(well[4])
    assert width == height and chip + 1 <= width <= chip + 2.5, width  # about 27 mm for 25.4 mm chips
    card = GAME.component("decktet")
    safe_w = to_mm(card.size.width - 2 * card.safe)
    left = float(medallion[1]) + float(well[1])
    assert left >= 0 and left + width <= safe_w
    assert left + width / 2 == pytest.approx(safe_w / 2)  # centred across the card


RAW_COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?\b|\brgba?\(|\bhsla?\(")


@pytest.mark.parametrize("path", sorted(TEMPLATES.iterdir()), ids=lambda p: p.name)
def test_templates_take_colours_from_the_palette(path: Path) -> None:
    text = path.read_text()
    assert not RAW_COLOUR.findall(text), f"{path.name}: a raw colour; use var(--name) from game.yaml's palette"
    for name in re.findall(r"var\(--([a-z0-9-]+)\)", text):
        assert name in GAME.palette or name.startswith("suit-") and name[5:] in SUITS, name
    for name in re.findall(r"var\(--suit-\{\{", text):
        assert all(f"suit-{s}" in GAME.palette for s in SUITS)


def test_no_text_below_six_points() -> None:
    for css in TEMPLATES.glob("*.css"):
        for size in re.findall(r"font-size:\s*([\d.]+)pt", css.read_text()):
            assert float(size) >= 6, f"{css.name}: {size}pt"


@pytest.mark.parametrize("svg", sorted(ART.rglob("*.svg")), ids=lambda p: str(p.relative_to(ART)))
def test_the_art_is_small_clean_svg(svg: Path) -> None:
    text = svg.read_text()
    assert len(text) < 4000, f"{svg.name}: {len(text)} bytes"
    assert 'viewBox="0 0 100 100"' in text
    for banned in ("<image", "<text", "<script", "<foreignObject", "href=", "data:", "font-family"):
        assert banned not in text, f"{svg.name}: {banned}"


def test_each_suit_is_drawn_in_its_palette_colour() -> None:
    for entry in GAME.sets["suits"]:
        assert entry.art is not None
        assert entry.color == f"suit-{entry.id}"
        assert GAME.palette[entry.color].screen.lower() in entry.art.read_text().lower(), entry.id


def test_the_rulebook_counts_come_from_the_data(partisan_build: Path) -> None:
    text = prose(partisan_build / "partisan-rulebook-a4.pdf")
    kinds = Counter(c.fields["kind"] for c in GAME.component("decktet").cards)
    assert (
        f"45 Decktet cards: {kinds['ace']} Aces, {kinds['numeral']} number cards (ranks 2 to 9, three of each rank), "
        f"{kinds['pawn']} pawns, {kinds['court']} courts, {kinds['crown']} Crowns and {kinds['excuse']} Excuse"
    ) in text
    assert "48 Suit chips, 8 of each suit, 6 of them starred as leaders" in text
    assert "6 Player aids" in text and "48 Only for the Double deck variant: 8 more chips of each suit" in text
    assert "Shuffle the other 32 cards (24 number cards, 4 pawns, 4 courts)" in text
    assert "32 cards showing each suit 12 times" in text and "64 cards, each suit 24 times" in text
    assert "use 6 chips of each suit instead of 8" in text and "each suit has 16 chips" in text


def test_the_rulebooks_example_is_scored_as_the_rules_score_it(partisan_build: Path) -> None:
    """The worked example, scored by the game's own scorer, gives the scores the rulebook prints."""
    rules, _ = engine_for(GAME, trust=True)
    order = {s: i for i, s in enumerate(SUITS)}

    def chips(**by_suit: int) -> list[int]:
        return [by_suit.get(s, 0) for s in order]

    partisans = [chips(moons=3, waves=1, knots=1), chips(moons=1, suns=2, leaves=2, knots=1), chips(suns=2, waves=2, knots=2)]
    topics = [chips(moons=3, waves=2, suns=1), chips(leaves=2, waves=2, wyrms=1), chips(suns=3, knots=2), chips(wyrms=2)]
    scored = rules.scoring.score(partisans, topics)
    assert [g.winner for g in scored.groups] == [0, None, 2, 1, None, 2]
    assert [t.shares for t in scored.topics] == [(6, 0, 0), (0, 2, 2), (0, 0, 5), (0, 0, 0)]
    assert [t.discarded for t in scored.topics] == [0, 1, 0, 2]
    text = prose(partisan_build / "partisan-rulebook-a4.pdf")
    names = ("Ann", "Ben", "Cas")
    assert "Final scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, scored.scores)) + "." in text
    assert f"{names[scored.winners.index(True)]} wins." in text
    for row, name in zip(partisans, names):
        assert name + " " + " ".join(str(v) if v else "–" for v in row) in text

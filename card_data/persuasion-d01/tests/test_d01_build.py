"""Persuasion D01: every component from the seed's counts, the optional module,
powers as data, sticker sheets, and real output checked with independent tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.imposition.geometry import grid
from pnp.loading.presets import load_layouts, load_papers
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.units import mm
from pnp.testing import DPI, circles_drawn, clip_rects, compare, copy_game, crop_face, pdffonts, pdfinfo_pages, pdftotext, prose, prose_in, qpdf_check, run_pnp

GAME = load_game(resolve_game_dir("persuasion-d01"))
GOLDEN = Path(__file__).parent / "golden"

# The D01 seed's component list: (copies in the base game, unique faces).
SEED = {
    "traits": (57, 58),  # 57 letters + one shared back
    "desires": (9, 10),
    "matrimony": (1, 1),
    "actions": (8, 2),  # morning side and evening side
    "letterboxes": (8, 8),
    "rings": (8, 8),
    "hearts": (24, 8),  # 3 per crest
    "seals": (56, 8),  # 7 per crest: the seed's 5, plus Moneyed and Well Connected (RULES-NOTES.md)
}


def test_letters_are_three_suits_of_19_and_desires_follow_the_table() -> None:
    traits = GAME.component("traits").cards
    core = [c for c in traits if not c.fields["dark"]]
    dark = [c for c in traits if c.fields["dark"]]
    for suit in ("sense", "sentiment", "station"):
        assert sum(c.fields["suit"] == suit for c in core) == 19
        assert sum(c.fields["suit"] == suit for c in dark) == 2
    desires = GAME.component("desires").cards
    counts = {s: sum(c.fields["suit"] == s for c in desires) for s in ("sense", "sentiment", "station")}
    assert counts == GAME.rules["desires_per_suit"][8] == {"sense": 4, "sentiment": 3, "station": 2}


def test_powers_are_structured_and_cover_every_kind() -> None:
    powers = [p for c in GAME.component("traits").cards for p in c.fields["powers"]]
    kinds = {p["kind"] for p in powers}
    assert kinds == {"at-start", "owner-morning", "holder-morning", "on-receipt", "rule-change", "commitment"}
    for p in powers:
        assert set(p) == {"kind", "text", "effect"} and "type" in p["effect"]


def test_manifest_matches_the_seed_and_the_module_is_its_own_file(d01_build: Path) -> None:
    manifest = json.loads((d01_build / "manifest.json").read_text())
    components = {c["id"]: c for c in manifest["components"]}
    assert components["traits"]["copies"] == 57 + 6  # 6 optional letters in the Shadows module
    for cid, (copies, _) in SEED.items():
        if cid != "traits":
            assert components[cid]["copies"] == copies, cid
    files = {(f["paper"], f.get("module")): f for f in manifest["files"] if "rulebook" not in f["path"]}
    assert set(files) == {("a4", None), ("letter", None), ("a4", "shadows"), ("letter", "shadows")}
    base = pdftotext(d01_build / "persuasion-d01-home-a4.pdf")
    module = pdftotext(d01_build / "persuasion-d01-shadows-home-a4.pdf")
    for card in GAME.component("traits").cards:
        assert (card.title in module) == card.fields["dark"], card.title
        if card.fields["dark"]:
            assert card.title not in base
    assert "Optional module: Shadows" in module and "persuasion-d01-shadows-home-a4.pdf" in base


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdfs_are_sound_and_use_only_our_fonts(d01_build: Path, paper: str) -> None:
    for name in (f"persuasion-d01-home-{paper}.pdf", f"persuasion-d01-shadows-home-{paper}.pdf"):
        pdf = d01_build / name
        assert qpdf_check(pdf).returncode == 0
        assert all(f["emb"] == "yes" and "EB-Garamond" in f["name"] for f in pdffonts(pdf))
        size = (595.276, 841.89) if paper == "a4" else (612.0, 792.0)
        assert all(p == pytest.approx(size, abs=0.01) for p in pdfinfo_pages(pdf))


@pytest.mark.parametrize("paper, layout, per_sheet", [("a4", "avery-l7651-round", 65), ("letter", "avery-5160-round", 30)])
def test_seals_land_on_the_labels_of_the_named_product(d01_build: Path, paper: str, layout: str, per_sheet: int) -> None:
    pdf = d01_build / f"persuasion-d01-home-{paper}.pdf"
    text_pages = [pdftotext(pdf, n, n) for n in range(1, len(pdfinfo_pages(pdf)) + 1)]
    expected = grid(load_layouts()[layout], load_papers()[paper], mm(19), mm(19))
    # The seal sheets are the last pages: 56 seals, per_sheet a page.
    pages = len(text_pages)
    sheets = -(-56 // per_sheet)
    placed = []
    for page in range(pages - sheets + 1, pages + 1):
        placed += clip_rects(pdf, page)
    assert len(placed) == 56
    for (x, y, w, h), slot in zip(placed, expected.fronts):
        assert (x, y, w, h) == pytest.approx((slot.x, slot.y, slot.width, slot.height), abs=0.05)
    assert "Avery L7651" in text_pages[0] if paper == "a4" else "Avery 5160" in text_pages[0]
    # each round seal has its cutting circle, centred on it, on its edge
    circles = []
    for page in range(pages - sheets + 1, pages + 1):
        circles += circles_drawn(pdf, page)
    assert len(circles) == 56
    for (cx, cy, r), (x, y, w, h) in zip(circles, placed):
        assert (cx, cy, r) == pytest.approx((x + w / 2, y + h / 2, mm(19) / 2), abs=0.05)



def test_instructions_name_the_label_product_and_stock(d01_build: Path) -> None:
    text = prose(d01_build / "persuasion-d01-home-a4.pdf", 1, 1)
    assert "Trait seals (stickers) 56 removable labels: Avery L7651 (A4, 65 labels of 38.1 x 21.2 mm)" in text
    # the instructions stay one page on Letter too (the calibration square included)
    letter = prose(d01_build / "persuasion-d01-home-letter.pdf", 1, 1)
    assert "1 These instructions" in letter and "This square measures 50 mm" in letter
    assert "trait seals (stickers) 19.0 mm" in text  # the punch for round seals


# The pixel references: one of each D01 component type (A4 base build).
FACES = [
    ("d01-letter-front", 2, 0),
    ("d01-letter-back", 3, 0),
    ("d01-desires-front", 16, 0),
    ("d01-desires-back", 17, 0),
    ("d01-matrimony", 18, 0),
    ("d01-letterbox", 18, 1),  # the letterboxes share the matrimony card's sheet (share_sheets)
    ("d01-action-morning", 19, 0),
    ("d01-action-evening", 20, 0),
    ("d01-ring", 21, 0),
    ("d01-heart", 22, 0),
    ("d01-seal", 23, 0),
]


@pytest.mark.parametrize("name, page, index", FACES, ids=[f[0] for f in FACES])
def test_d01_face_matches_reference(d01_build: Path, name: str, page: int, index: int) -> None:
    compare(crop_face(d01_build / "persuasion-d01-home-a4.pdf", page, index, DPI), GOLDEN, name)


def _mutate(tmp_path: Path, file: str, old: str, new: str) -> Path:
    game = tmp_path / "d01"
    copy_game(GAME.root, game)
    text = (game / file).read_text()
    assert old in text
    (game / file).write_text(text.replace(old, new, 1))
    return game


@pytest.mark.parametrize(
    "file, old, new, words",
    [
        ("traits.yaml", "kind: owner-morning", "kind: owner-midnight", ["powers[0].kind", "expected one of 'at-start'"]),
        ("traits.yaml", "effect: {type: peek, at: deck, count: 3}", "effect: {type: peek, at: deck}", ["powers[0].effect", "missing required key 'count'"]),
        ("traits.yaml", "effect: {type: peek, at: deck, count: 3}", "effect: {type: gossip, count: 3}", ["effect.type", "unknown type 'gossip'"]),
        ("desires.yaml", "seeks: [sense]", "seeks: [sensibility]", ["seeks[0]", "unknown suit 'sensibility'"]),
        ("desires.yaml", "suit: sense", "suit: wit", ["suit", "unknown suit 'wit'"]),
        ("desires.yaml", "type: suit-count", "type: suit-total", ["condition.type", "unknown type 'suit-total'"]),
    ],
)
def test_bad_d01_data_is_reported_with_its_line(tmp_path: Path, file: str, old: str, new: str, words: list[str]) -> None:
    game = _mutate(tmp_path, file, old, new)
    result = run_pnp("list", str(game))
    assert result.returncode == 2, result.stderr
    assert f"{file}:" in result.stderr and "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def test_rulebook_tables_and_power_glossary(d01_build: Path) -> None:
    pdf = d01_build / "persuasion-d01-rulebook-a4.pdf"
    assert qpdf_check(pdf).returncode == 0
    text = prose(pdf)
    per_suit = GAME.rules["trait_deck_per_suit"]
    assert "Letters of each suit " + " ".join(str(v) for v in per_suit.values()) in text
    for suit in ("sense", "sentiment", "station"):
        row = " ".join(str(GAME.rules["desires_per_suit"][n][suit]) for n in per_suit)
        assert f"{suit.capitalize()} desires {row}" in text
    for words in ("I, me, my mean the player whose seal", "You, your mean whoever holds the letter", "They, them mean"):
        assert words in text
    for kind in ("At start", "Owner's morning", "Holder's morning", "On receipt", "Rule change", "Commitment"):
        assert kind.upper() in text.upper()
    for c in GAME.components:
        dark = sum(card.copies for card in c.cards if card.fields.get("dark"))
        assert f"{c.copies - dark} {c.name}" in text  # the box list counts the base game
    assert "57 Trait letters (and 6 more for the optional Shadows module)" in text
    # Rules the source states that the rulebook once left out.
    for words in ("with its suit covered", "cannot overrides everything, even a must", "while your own ring is away",
                  "players level on both share the win", "an answer to your own action"):
        assert words in text, words
    # Readings of issue 36 (RULES-NOTES.md 4, 7, 11): hearts break ties, what fills a letterbox, Influence.
    for words in ("the one holding more suitors' hearts wins", "look at everything in it, then deal with it in any order",
                  "no heart or ring sent back to you", "you may accept one at most", "Influential trades one letter for another; it never draws"):
        assert words in " ".join(text.split()), words


def test_desires_and_matrimony_words_say_what_the_rules_do(d01_build: Path) -> None:
    """A unique victory is worth points like the others, not the game; at
    matrimony you keep your fiancé's letters (the rules' "except your
    fiancé's"), not whatever letters your fiancé holds."""
    home = d01_build / "persuasion-d01-home-a4.pdf"
    cards = prose(home).lower()
    rules = prose(d01_build / "persuasion-d01-rulebook-a4.pdf").lower()
    assert "win if" not in cards
    third = pdfinfo_pages(home)[0][0] / 3
    desires = " ".join(prose_in(home, 16, i * third, (i + 1) * third) for i in range(3)).lower()  # a column a card
    for card in GAME.component("desires").cards:
        assert f"unique: {card.fields['unique']['text']}".lower() in desires, card.title
    assert f"{GAME.rules['victory_points']} points a victory" in cards
    for text in (cards, rules):
        assert "those your fiancé holds" not in text
        assert "except your fiancé's" in text and "your fiancé keeps yours" in text
    assert "a third player's letters go home, whoever holds them" in rules
    assert "the most points wins; if level, the most" in " ".join(cards.split())  # "hearts ... also break ties"


def test_seal_count_is_explained_where_players_and_designers_read(d01_build: Path) -> None:
    """7 seals a family are printed where the rules list 5 (RULES-NOTES.md 10):
    DESIGN.md counts what is printed and the rulebook says why."""
    seals = GAME.component("seals")
    per_family = seals.copies // len(GAME.sets["crests"])
    assert seals.copies == SEED["seals"][0] and per_family == 7
    design = " ".join((GAME.root / "DESIGN.md").read_text().split())
    assert f"{seals.copies} seal stickers ({per_family} per family" in design
    rules = prose(d01_build / "persuasion-d01-rulebook-a4.pdf")
    assert f"{seals.copies} Trait seals (stickers)" in rules
    assert f"its {per_family} seal stickers (why {per_family}: see the notes at the end)" in rules
    assert f"Each family has {per_family} seals where the source rules give 5" in rules
    assert f"Moneyed (one letter more at setup) and Well Connected (a letter drawn at the start) holds {per_family} letters" in rules

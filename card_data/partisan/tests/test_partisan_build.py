"""The shipped Partisan build, checked with independent tools (qpdf, poppler,
PDFium), and its faces compared as pixels with reviewed references."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from pnp.loading.loader import load_game
from tests.conftest import partisan_build  # noqa: F401  (the fixture, shared with tests/)
from tests.pdftools import crop_face, pdffonts, pdfinfo_pages, prose, qpdf_check
from tests.pixels import DPI, TOLERANCE, compare

GAME = load_game(Path(__file__).resolve().parents[1])
GOLDEN = Path(__file__).parent / "golden"
PAPERS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}
FILES = [f"partisan-{part}-{paper}.pdf" for part in ("home", "double-deck-home", "rulebook") for paper in PAPERS]


@pytest.mark.parametrize("name", FILES)
def test_every_file_is_sound_and_draws_only_embedded_eb_garamond(partisan_build: Path, name: str) -> None:
    pdf = partisan_build / name
    checked = qpdf_check(pdf)
    assert checked.returncode == 0 and "No syntax or stream encoding errors found" in checked.stdout, checked.stdout
    fonts = pdffonts(pdf)
    assert fonts and all(f["emb"] == "yes" and f["name"].split("+")[-1].startswith("EB-Garamond") for f in fonts), fonts
    paper = name.rsplit("-", 1)[1][:-4]
    assert {(round(w, 1), round(h, 1)) for w, h in pdfinfo_pages(pdf)} == {tuple(round(v, 1) for v in PAPERS[paper])}


@pytest.mark.parametrize("paper", PAPERS)
def test_every_component_is_printed_as_often_as_the_rules_need(partisan_build: Path, paper: str) -> None:
    manifest = json.loads((partisan_build / "manifest.json").read_text())
    copies = {c["id"]: c["copies"] for c in manifest["components"]}
    # 45 Decktet cards; 48 chips in the base file and 48 in the double-deck module; an aid for each of 6 players.
    assert copies == {"decktet": 45, "chips": 6 * GAME.rules["chips_double_deck"], "aid": GAME.players[1]}
    pages = {f["path"]: f["pages"] for f in manifest["files"]}
    # Instructions, 5 sheets of cards with their backs, a sheet of chips front and back, aids front and back.
    assert pages[f"partisan-home-{paper}.pdf"] == 1 + 5 * 2 + 2 + 2
    # The module: its instructions and one sheet of 48 chips, front and back.
    assert pages[f"partisan-double-deck-home-{paper}.pdf"] == 1 + 2


def test_the_cards_and_the_rulebook_read_as_text(partisan_build: Path) -> None:
    cards = prose(partisan_build / "partisan-home-a4.pdf")
    words = set(cards.upper().split())
    for card in GAME.component("decktet").cards:
        assert set(card.title.upper().split()) <= words, card.title  # a long title may wrap
    assert "EXTENDED" in cards.upper() and "SUPPLY OF THE MOONS" in cards.upper()
    rules = prose(partisan_build / "partisan-rulebook-a4.pdf")
    for words in ("Raise a topic", "Gather", "Push", "Leaders", "No pawns and courts", "Double deck", "Maginobi", "P. D. Magnus"):
        assert words.lower() in rules.lower(), words
    assert "32 cards" in rules and "6 chips of each suit" in rules


# One face of each kind, by page and place on the A4 build (page 1 is the instructions).
FACES = [
    ("partisan-ace-moons", 2, 0),
    ("partisan-author", 2, 6),
    ("partisan-back", 3, 0),
    ("partisan-harvest-pawn", 8, 3),
    ("partisan-huntress-crown", 10, 2),
    ("partisan-excuse", 10, 8),
    ("partisan-chip-moons-leader", 12, 0),
    ("partisan-chip-moons", 12, 1),
    ("partisan-aid-front", 14, 0),
    ("partisan-aid-back", 15, 0),
]


@pytest.mark.parametrize("name, page, index", FACES, ids=[f[0] for f in FACES])
def test_face_matches_reference(partisan_build: Path, name: str, page: int, index: int) -> None:
    compare(crop_face(partisan_build / "partisan-home-a4.pdf", page, index, DPI), GOLDEN, name)


def test_the_leader_chip_differs_from_a_plain_one_and_the_comparison_sees_it(partisan_build: Path) -> None:
    """The star is visible at pixel level, so the comparison above is not blind to it."""
    pdf = partisan_build / "partisan-home-a4.pdf"
    leader, plain = crop_face(pdf, 12, 0, DPI), crop_face(pdf, 12, 1, DPI)
    assert max(ImageStat.Stat(ImageChops.difference(leader, plain)).mean) > TOLERANCE
    expected = Image.open(GOLDEN / "partisan-chip-moons.png").convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(leader.resize(expected.size), expected)).mean) > TOLERANCE

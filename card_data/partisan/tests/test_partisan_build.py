"""The shipped Partisan build (`pnp build partisan`, A4 and Letter), read by
independent tools: qpdf, poppler (pdfinfo, pdffonts, pdftotext)."""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from pnp.loading.loader import load_game
from pnp.testing import copy_game, crop_face, game_folder, pdffonts, pdfinfo_pages, pdftotext, prose, qpdf_check, rasterise, run_pnp, tool
from pnp.testing.fonts import drawn_glyphs, font_files, source_of
from pnp.paths import OWN

GAME = load_game(Path(__file__).resolve().parents[1])
PAPERS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}
FILES = [f"partisan-{part}-{paper}.pdf" for part in ("home", "double-deck-home", "rulebook", "boxes") for paper in PAPERS]
# Pages of each file: the instructions, 5 sheets of 9 Decktet cards each with its
# backs, the 48 chips front and back, the 6 aids front and back; the module's
# instructions and its 48 chips; the rulebook's four pages; the tuck box's net, whole.
# US Letter takes 8 poker cards a sheet (turned), so the 45 cards take 6 sheets.
PAGES = {"home": 1 + 5 * 2 + 2 + 2, "double-deck-home": 1 + 2, "rulebook": 4, "boxes": 1}
LETTER_PAGES = PAGES | {"home": 1 + 6 * 2 + 2 + 2}


def _pages(name: str) -> int:
    """The pages ``name`` (partisan-PART-PAPER.pdf) should have."""
    part, paper = name[len("partisan-") : -len(".pdf")].rsplit("-", 1)
    return (LETTER_PAGES if paper == "letter" else PAGES)[part]


@pytest.mark.parametrize("name", FILES)
def test_every_file_is_sound_and_draws_only_embedded_eb_garamond(partisan_build: Path, name: str) -> None:
    pdf = partisan_build / name
    checked = qpdf_check(pdf)
    assert checked.returncode == 0 and "No syntax or stream encoding errors found" in checked.stdout, checked.stdout
    fonts = pdffonts(pdf)
    assert fonts and all(f["emb"] == "yes" and f["name"].split("+")[-1].startswith("EB-Garamond") for f in fonts), fonts


def test_every_glyph_comes_from_a_shipped_eb_garamond_file(partisan_build: Path) -> None:
    """Not only the names: each glyph drawn has the outline of the same glyph in
    one of the EB Garamond files the game declares or pnp ships (pnp.testing.fonts;
    tests/render/test_fonts.py does the same for Persuasion), so no symbol slipped in from another font."""
    used: set[Path] = set()
    for name in FILES:
        with pikepdf.open(partisan_build / name) as pdf:
            for font, gids in drawn_glyphs(pdf).values():
                used.add(source_of(font.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes(), gids, font_files(GAME)))
    small_capitals = next(font.file for font in GAME.fonts if font.family == "EB Garamond SC")
    assert used == {small_capitals, OWN / "fonts/ebgaramond/EBGaramond12-Regular.ttf", OWN / "fonts/ebgaramond/EBGaramond12-Italic.ttf"}


@pytest.mark.parametrize("name", FILES)
def test_every_page_is_the_paper_and_every_file_its_length(partisan_build: Path, name: str) -> None:
    paper = name[: -len(".pdf")].rsplit("-", 1)[1]
    pages = pdfinfo_pages(partisan_build / name)
    assert len(pages) == _pages(name)
    assert all(size == pytest.approx(PAPERS[paper], abs=0.01) for size in pages)


def test_the_manifest_lists_every_file_with_its_pages(partisan_build: Path) -> None:
    manifest = json.loads((partisan_build / "manifest.json").read_text())
    assert manifest["game"] == "partisan"
    assert {f["path"]: f["pages"] for f in manifest["files"]} == {name: _pages(name) for name in FILES} | {
        f"registration-test-{paper}.pdf": 2 for paper in PAPERS
    }


def test_every_card_title_is_printed_and_no_back_names_a_card(partisan_build: Path) -> None:
    pdf = partisan_build / "partisan-home-a4.pdf"
    words = set(prose(pdf).upper().split())
    titles = [card.title for card in GAME.component("decktet").cards]
    for title in titles:
        assert set(title.upper().split()) <= words, title  # a long title may wrap
    for back in range(3, 12, 2):
        text = pdftotext(pdf, back, back)
        assert "DECKTET" in text.upper() and not any(t.upper() in text.upper() for t in titles), back


def test_the_cards_say_what_they_are_for(partisan_build: Path) -> None:
    text = prose(partisan_build / "partisan-home-a4.pdf").upper()
    for suit in GAME.sets["suits"]:
        assert f"SUPPLY OF THE {suit.name.upper()}" in text and f"TROPHY FOR WINNING THE {suit.name.upper()}" in text
    assert text.count("EXTENDED · PAWN") == 4 and text.count("EXTENDED · COURT") == 4 and text.count("EXTENDED · EXCUSE") == 1
    assert "ON YOUR TURN" in text and "SCORING" in text


def test_every_card_has_the_one_shared_back(partisan_build: Path) -> None:
    """No back gives its card away: the 45 backs are one face, drawn 45 times."""
    with pikepdf.open(partisan_build / "partisan-home-a4.pdf") as pdf:
        forms = Counter()
        for page in range(3, 12, 2):
            for operands, operator in pikepdf.parse_content_stream(pdf.pages[page - 1]):
                if str(operator) == "Do":
                    forms[pdf.pages[page - 1].Resources.XObject[str(operands[0])].objgen] += 1
    assert list(forms.values()) == [45]


@pytest.mark.parametrize("paper", PAPERS)
def test_the_rulebook_covers_the_game(partisan_build: Path, paper: str) -> None:
    rules = prose(partisan_build / f"partisan-rulebook-{paper}.pdf")
    for words in (
        "What you need", "Setting up", "Your turn", "Raise a topic", "Gather", "Push", "Draw and tidy",
        "The end of the game", "Nobody draws in this last, partial round", "Scoring", "Two tie rules",
        "A tie for a group", "A tie for a topic", "Variants", "Leaders", "No pawns and courts", "Two players",
        "Double deck", "Readings of the rules", "The Excuse stays out", "Pawns and courts are in",
    ):
        assert words.lower() in rules.lower(), words
    assert "pnp read" not in rules  # the section is named for players, not for the tool
    assert "Partisan was designed by Maginobi; the Decktet is by P. D. Magnus and shared under CC BY-NC-SA 3.0" in rules


def test_a_long_title_clears_the_medallion_and_a_longer_one_is_reported(tmp_path: Path) -> None:
    """Issue 35's title, "Meeting by the Riverside", sets in two lines that end
    some 7 mm above the medallion: nothing is reported. A title of four lines
    reaches into the medallion, which is painted over it: reported."""
    game = tmp_path / "partisan"
    copy_game(game_folder(__file__), game, ("tests",))
    deck = (game / "decktet.yaml").read_text()
    deck = deck.replace("title: The Chance Meeting,", "title: Meeting by the Riverside,")
    deck = deck.replace("title: The Castle,", "title: The Castle on the Hill above the Riverside at the Turning of the Year,")
    (game / "decktet.yaml").write_text(deck)
    done = run_pnp("build", str(game), "--only", "decktet", "--paper", "a4", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    warnings = [line.split(": warning: ", 1)[1] for line in done.stderr.splitlines() if ": warning: " in line]
    assert warnings and all(line.startswith("decktet/castle front: div.title: its text is drawn under ") for line in warnings), warnings
    assert any("div.band" in line for line in warnings)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_rulebook_says_why_two_players_and_when_empty_topics_go(partisan_build: Path, paper: str) -> None:
    """The rules say "3+" and offer two players as a variant; they discard an
    empty topic "immediately" in the turn's last step. The rulebook says how
    this edition reads both, where a player looks for it."""
    rules = prose(partisan_build / f"partisan-rulebook-{paper}.pdf")
    lo, hi = GAME.players
    assert (lo, hi) == (2, 6)
    assert f"3 to {hi} players ({lo} by a variant)" in rules
    assert f"3 to {hi} players, or {lo}. The rules are written for 3 or more and offer {lo} as a variant" in rules
    readings = rules[rules.index("Readings of the rules"):]
    assert "Empty topics go at the end of the turn." in readings
    assert "a topic emptied while you gather stays in play until you have pushed" in readings


def _setup_picture_words(pdf: Path) -> str:
    """Page 2's words from the Crowns of the setup picture to its last label."""
    words = prose(pdf, 2, 2)
    return words[words.index("5. Deal"):words.index("Your turn")]


def test_the_setup_picture_counts_the_chips_left_on_each_crown(partisan_build: Path) -> None:
    """Each Crown shows the chips of its supply after the pictured starting
    topics took one of each suit they show (setup steps 2 and 4)."""
    cards = GAME.component("decktet").cards
    crowns = [c for c in cards if c.fields["kind"] == "crown"]
    for paper in PAPERS:
        picture = _setup_picture_words(partisan_build / f"partisan-rulebook-{paper}.pdf")
        row = " ".join(c.title.removeprefix("The ") for c in crowns)
        drawn = [int(n) for n in re.findall(r"×\s*(\d+)", picture[picture.index(row):])]
        labels = picture[picture.index("the starting topics took"):]
        topics = [c for c in cards if c.fields["kind"] != "crown" and f" {c.title.removeprefix('The ')} " in labels]
        assert len(topics) == GAME.rules["starting_topics"], [t.title for t in topics]
        left = [GAME.rules["chips_per_suit"] - sum(c.fields["suits"][0] in t.fields["suits"] for t in topics) for c in crowns]
        assert drawn == left, (paper, drawn, left)
        assert left != [GAME.rules["chips_per_suit"]] * len(crowns)  # the picture's topics do take chips


def _suits_shown(image: Image.Image) -> set[str]:
    """The suits whose colour (the palette's, the main colour of each suit's
    art) covers at least 20 pixels of ``image``."""
    shown = set()
    data = image.convert("RGB").tobytes()
    pixels = list(zip(data[0::3], data[1::3], data[2::3]))
    for suit in GAME.sets["suits"]:
        hexa = GAME.palette[suit.color].screen
        rgb = tuple(int(hexa[i : i + 2], 16) for i in (1, 3, 5))
        if sum(max(abs(a - b) for a, b in zip(px, rgb)) <= 16 for px in pixels) >= 20:
            shown.add(suit.id)
    return shown


def test_the_setup_picture_shows_the_printed_back(partisan_build: Path) -> None:
    """The deck in the setup picture wears the back that is printed: every
    suit round its ring, not one suit that would give a card away."""
    every = {s.id for s in GAME.sets["suits"]}
    printed = crop_face(partisan_build / "partisan-home-a4.pdf", 3, 0, 150)
    assert _suits_shown(printed) == every
    pdf = partisan_build / "partisan-rulebook-a4.pdf"
    bbox = subprocess.run([tool("pdftotext"), "-bbox", "-f", "2", "-l", "2", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    words = [(m[4], *map(float, m[:4])) for m in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<', bbox)]
    # the label "The deck" under the picture's deck: its left and top, in points from the page's top left
    _, left, top, _, _ = next(a for a, b in zip(words, words[1:]) if (a[0], b[0]) == ("The", "deck"))
    dpi, mm = 300, 72 / 25.4
    page = rasterise(pdf, 2, dpi)
    box = [int(v * dpi / 72) for v in (left - 4 * mm, top - 28 * mm, left + 22 * mm, top)]
    assert _suits_shown(page.crop(box)) == every


def test_the_deck_box_holds_the_decktet_and_the_aids_and_says_so(partisan_build: Path) -> None:
    """The tuck box is sized from the 45 Decktet cards and the 6 aids at 0.3 mm
    each, plus 1 mm of play each way; its panels count from the game data."""
    from pnp.imposition.tuckbox import inner_size, net
    from pnp.output.boxes import deck_of

    (box,) = GAME.boxes
    inner = inner_size(deck_of(GAME, box))
    cards = sum(c.copies for c in GAME.component("decktet").cards) + GAME.component("aid").copies * len(GAME.component("aid").cards)
    assert cards == 51
    assert (inner.width, inner.height, inner.depth) == pytest.approx((63.5 + 1, 88.9 + 1, 51 * 0.3 + 1))
    (piece,) = net(inner)  # one piece: the net fits A4 and Letter inside the 5 mm margin
    assert piece.width < 215.9 - 10 and piece.height < 279.4 - 10
    for paper in PAPERS:
        words = prose(partisan_build / f"partisan-boxes-{paper}.pdf")
        chips = sum(c.copies for c in GAME.component("chips").cards if not c.fields["double"])
        assert f"In this box: {cards} cards, the Decktet and the player aids." in words
        assert f"Keep the {chips} suit chips in a small bag beside it." in words
        assert "Party politics with a Decktet 2–6 players" in words


def test_the_instructions_send_players_to_the_box_and_say_how_to_make_it(partisan_build: Path) -> None:
    """Page 1 lists the tuck box's file among the files to print beside the
    cards, on card stock, with how it goes together."""
    for paper in PAPERS:
        page = prose(partisan_build / f"partisan-home-{paper}.pdf", first=1, last=1)
        assert f"partisan-boxes-{paper}.pdf Deck box card stock" in page, page  # the wrapped "how" cell prints on the lines around it
        assert "one-sided; cut the solid line, score and fold the dashed lines," in page and "glue the flaps" in page, page

"""The printed edition of I am thou, thou art I: its data counted against the
seed (004), its build on A4 and Letter read back with independent tools
(pikepdf for geometry, poppler's pdftotext for text, qpdf)."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pytest

from pnp.loading.loader import load_game
from pnp.testing import clip_rects, marks_drawn, pdfinfo_pages, prose, qpdf_check
from thou_print_build import PAPERS, built

GAME = load_game(Path(__file__).resolve().parents[1])
MM = 72 / 25.4

# The seed's 22 Major Arcana in its order, with the ids both branches share.
NPCS = ["fool", "magician", "high-priestess", "empress", "emperor", "hierophant", "lovers", "chariot",
        "justice", "hermit", "wheel-of-fortune", "strength", "hanged-man", "death", "temperance", "devil",
        "tower", "star", "moon", "sun", "judgement", "world"]
SUITS = ["wands", "coins", "cups", "swords"]
# Pages of each file on either paper: the instructions; 6 sheets of NPCs, 1 of
# suits, 1 of twists and an aid, 1 of aids, each followed by its backs; 3 sheets
# of slips, the round track, the tokens. The rulebook's 4 pages, a sheet for each
# of 5 players, the ledger's 3 pages and the moderator's aid's 2.
PAGES = {"home": 1 + 2 * (6 + 1 + 1 + 1) + 3 + 1 + 1, "rulebook": 4, "sheets": 5, "ledger": 5}


@pytest.fixture(scope="module", params=list(PAPERS))
def build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    out, said = built(tmp_path_factory, request.param)
    return out, said, request.param


def _cards(component: str) -> list:
    return list(GAME.component(component).cards)


def test_the_npcs_are_the_seeds_22_in_its_order() -> None:
    cards = _cards("npcs")
    assert [c.id for c in cards] == NPCS
    assert [c.fields["number"] for c in cards] == list(range(22))
    assert all(c.fields["name"] == c.title for c in cards)
    assert [c.fields["numeral"] for c in cards][:5] == ["0", "I", "II", "III", "IV"]
    assert cards[21].fields["numeral"] == "XXI" and cards[18].fields["numeral"] == "XVIII"


def test_the_suits_and_twists_are_the_seeds() -> None:
    assert [c.id for c in _cards("suits")] == SUITS
    assert [c.fields["name"] for c in _cards("suits")] == ["Wands", "Coins", "Cups", "Swords"]
    assert [c.title for c in _cards("twists")] == ["Group Decision", "Main Match Winner", "DM Winner"]
    assert GAME.rules == {"rounds": 9, "visits": 3, "coins_extra_cost": 6, "coins_extra_max": 6,
                          "garnet_thirds": 3, "tol_main_match": 2, "starting_garnets": 0, "starting_garnets_purse": 6}
    assert tuple(GAME.players) == (3, 5)


def test_who_is_told_follows_the_seed() -> None:
    """The effects the seed keeps from their target (High Priestess, Star) or
    never reveals (Hierophant), the chance the moderator rolls (Wheel of
    Fortune), those announced to all (Emperor, Moon, World), and the harmful
    ones the Emperor's shield refuses (the engine's NEGATIVE, Swords included)."""
    flags = {f: {c.id for c in _cards("npcs") if c.fields[f]} for f in ("secret", "public", "harmful")}
    assert flags["secret"] == {"high-priestess", "hierophant", "wheel-of-fortune", "star"}
    assert flags["public"] == {"emperor", "moon", "world"}
    assert flags["harmful"] == {"high-priestess", "justice", "devil", "tower", "star", "moon"}
    swords = GAME.component("suits").cards[3]
    assert swords.fields["harmful"] and swords.fields["timing"] == "two rounds later" and "who blocked" in swords.fields["told"]


def test_every_effect_says_when() -> None:
    """Each NPC's timing is one of the words the rulebook explains; the ones the
    seed puts in the next round say so in their text too."""
    for card in _cards("npcs"):
        timing, text = card.fields["timing"], card.fields["effect"].lower()
        if timing == "next round":
            assert "next round" in text, card.id
    assert {c.fields["timing"] for c in _cards("npcs")} == {
        "now", "this round", "next round", "now, then next round", "rounds 3, 6, 9: next round"}


def test_the_build_is_clean_and_every_file_its_length(build: tuple[Path, str, str]) -> None:
    out, said, paper = build
    assert "warning" not in said.lower(), said
    for part, pages in PAGES.items():
        pdf = out / f"i-am-thou-{part}-{paper}.pdf"
        checked = qpdf_check(pdf)
        assert checked.returncode == 0, checked.stdout
        sizes = pdfinfo_pages(pdf)
        assert len(sizes) == pages, part
        assert all(size == pytest.approx(PAPERS[paper], abs=0.01) for size in sizes), part


def _cuts(pdf: Path, page: int) -> tuple[list[float], list[float]]:
    """The x of every vertical cut line and the y of every horizontal one on
    ``page``, in mm, from the crop marks pnp drew (pikepdf)."""
    xs, ys = set(), set()
    for x1, y1, x2, y2, _ in marks_drawn(pdf, page):
        if abs(x1 - x2) < 0.01:
            xs.add(round(x1 / MM, 2))
        elif abs(y1 - y2) < 0.01:
            ys.add(round(y1 / MM, 2))
    return sorted(xs), sorted(ys)


@pytest.mark.parametrize("page", [2, 14])
def test_tarot_cards_are_70_by_120_mm_four_to_a_sheet(build: tuple[Path, str, str], page: int) -> None:
    """NPC and suit cards, cut where the marks say: two columns 70 mm wide and
    two rows 120 mm tall, 3 mm apart; each face drawn through a clip of its trim
    plus the 1.5 mm of bleed the gap shows."""
    out, _, paper = build
    pdf = out / f"i-am-thou-home-{paper}.pdf"
    xs, ys = _cuts(pdf, page)
    assert len(xs) == 4 and len(ys) == 4
    assert [xs[1] - xs[0], xs[2] - xs[1], xs[3] - xs[2]] == pytest.approx([70, 3, 70], abs=0.01)
    assert [ys[1] - ys[0], ys[2] - ys[1], ys[3] - ys[2]] == pytest.approx([120, 3, 120], abs=0.01)
    rects = clip_rects(pdf, page)
    assert len(rects) == 4
    assert all((w / MM, h / MM) == pytest.approx((73, 123), abs=0.01) for _, _, w, h in rects)
    with pikepdf.open(pdf) as document:
        box = [float(v) / MM for v in document.pages[page - 1].MediaBox]
    # Everything cut lies at least 5 mm inside the paper (pnp's home printable margin).
    assert xs[0] - 1.5 >= 5 and box[2] - xs[-1] - 1.5 >= 5 and ys[0] - 1.5 >= 5 and box[3] - ys[-1] - 1.5 >= 5


def test_gutter_fold_puts_two_turned_tarot_cards_beside_their_backs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Without a duplex printer: each landscape Letter sheet holds two NPC
    cards turned a quarter turn on one half and their two backs on the other
    (the tarot-4up layout), not one card a sheet."""
    out, said = built(tmp_path_factory, "letter", "--gutterfold")
    assert "warning" not in said.lower(), said
    pdf = out / "i-am-thou-home-gutterfold-letter.pdf"
    sizes = pdfinfo_pages(pdf)
    # instructions; 11 sheets of NPCs, 2 of suits, 2 of twists, 3 of aids; 3 of slips, the track, the tokens
    assert len(sizes) == 1 + 11 + 2 + 2 + 3 + 3 + 1 + 1
    assert all(size == pytest.approx((792.0, 612.0), abs=0.01) for size in sizes[1:19])  # the two-sided parts
    for page in range(2, 13):
        rects = clip_rects(pdf, page)
        assert len(rects) == 4 and all((w / MM, h / MM) == pytest.approx((123, 73), abs=0.01) for _, _, w, h in rects)
        fronts = sorted(x for x, _, _, _ in rects)
        assert fronts[1] + 123 * MM < 396 < fronts[2]  # two on each side of the fold


def test_every_npc_suit_and_twist_is_printed(build: tuple[Path, str, str]) -> None:
    out, _, paper = build
    text = re.sub(r"\s+", " ", prose(out / f"i-am-thou-home-{paper}.pdf").upper())
    for component in ("npcs", "suits", "twists"):
        for card in _cards(component):
            assert card.title.upper() in text, card.id
    for words in ("NEXT ROUND", "SECRET", "ANNOUNCED", "HARMFUL", "WHO KNOWS", "ON YOUR SLIP", "VISIT SLIP",
                  "THE MODERATOR'S ANSWER", "THE NINE ROUNDS", "SHIELDED NEXT ROUND", "NO VISITS NEXT ROUND",
                  "1/3 GARNET", "TOKEN OF LIFE", "PASSIVE", "INTERACTION"):
        assert words in text, words
    assert text.count("TWO ROUNDS LATER") == 1  # the Swords card


def test_the_social_link_sheet_has_22_rows_a_garnet_track_and_9_rounds(build: tuple[Path, str, str]) -> None:
    out, _, paper = build
    pdf = out / f"i-am-thou-sheets-{paper}.pdf"
    first = re.sub(r"\s+", " ", prose(pdf, 1, 1))
    for card in _cards("npcs"):
        assert first.count(f"{card.fields['numeral']} {card.title} ") == 1, card.id
    assert all(f"Round {n}" in first for n in range(1, 10)) and "Round 10" not in first
    assert "Garnets" in first and "3 thirds" in first
    # One page for each player the game allows, all alike.
    assert len(pdfinfo_pages(pdf)) == GAME.players[1]
    assert re.sub(r"\s+", " ", prose(pdf, 5, 5)).replace("5/5", "") == first.replace("1/5", "")


def test_the_ledger_keeps_every_hidden_effect(build: tuple[Path, str, str]) -> None:
    out, _, paper = build
    text = re.sub(r"\s+", " ", prose(out / f"i-am-thou-ledger-{paper}.pdf"))
    for words in ("The ledger: points", "The ledger: effects", "The ledger: players", "High Priestess", "Star",
                  "Hierophant", "Wheel of Fortune", "Swords, chosen", "Moderator's aid", "Who is told what",
                  "Judgement", "Temperance"):
        assert words in text, words
    # Judgement keeps four fifths, rounded down, worked out by hand for 1 to 15 points.
    assert "(4/5, rounded down) 0 1 2 3 4 4 5 6 7 8 8 9 10 11 12" in text


def test_the_rulebook_turns_the_online_game_into_a_table_game(build: tuple[Path, str, str]) -> None:
    out, _, paper = build
    text = re.sub(r"\s+", " ", prose(out / f"i-am-thou-rulebook-{paper}.pdf"))
    for words in ("What you need", "The moderator", "Setting up", "A round", "Visiting an NPC", "Visiting a player",
                  "three times", "Never below zero", "The end of the game", "Elimination Candidate",
                  "Readings of the rules", "Suits are dealt", "Top two", "Choices"):
        assert words in text, words
    assert "22 Major Arcana" in text.replace("\u00a0", " ")


# Sentences of the seed (004) that must not be printed word for word: the
# printed text is ours, the seed only lends its facts.
SEED_PHRASES = [
    "each player chooses a suit of the minor arcana",
    "whenever you interact with a player or npc, you receive a special effect",
    "if that player visits that npc next round, they do not earn points towards it",
    "you are never allowed to go negative in number of points",
    "choose an npc; it will be publicly revealed",
    "you may transfer one of your points in any npc to this one",
    "for next round, you gain two points for every npc you visit",
    "the player that won the fewest npc's is the elimination candidate",
]


def test_no_sentence_of_the_seed_is_printed(build: tuple[Path, str, str]) -> None:
    out, _, paper = build
    text = " ".join(re.sub(r"\s+", " ", prose(pdf)).lower() for pdf in sorted(out.glob(f"i-am-thou-*-{paper}.pdf")))
    for phrase in SEED_PHRASES:
        assert phrase not in text, phrase


def test_the_tokens_cover_the_rules() -> None:
    """Tokens of Life for a sole Main Match winner; Garnets in whole and
    thirds (a Coins interaction earns a third); a round marker for the track."""
    tokens = {c.id: c.copies for c in _cards("tokens")}
    assert tokens["life"] >= GAME.rules["tol_main_match"]
    assert tokens["garnet"] >= len(NPCS) and tokens["third"] >= GAME.rules["garnet_thirds"] - 1
    assert tokens["round"] == 1


def test_the_templates_take_every_colour_from_the_palette() -> None:
    """No raw #rrggbb or rgb() in the game's templates and stylesheets:
    colours are named once in game.yaml (CMYK exports convert them exactly)."""
    raw = re.compile(r"#[0-9a-fA-F]{3,8}\b|rgba?\(")
    folder = Path(__file__).resolve().parents[1] / "templates"
    found = [(f.name, m.group()) for f in sorted(folder.rglob("*")) if f.is_file() for m in raw.finditer(f.read_text())]
    assert found == []
    used = {m for f in folder.rglob("*") if f.is_file() for m in re.findall(r"var\(--([a-z-]+)\)", f.read_text())}
    assert used - set(GAME.palette) <= {"suit-"}, used - set(GAME.palette)

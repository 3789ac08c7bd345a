"""Text of two elements drawn over each other, and text under art or running
onto it, is reported by card and element (a warning; an error under --strict),
and no shipped card has any: read back from the printed pages with pdftotext
-bbox-layout."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pnp.render.overlap import Art, Text, art_over_text, overlapping
from tests.conftest import FIXTURES, run_pnp, tool

GAME = FIXTURES / "overlap"
"""Card "crowded" prints its badge over its name; card "plain" has no badge;
card "riverside" wraps its name under a medallion (SVG) and prints a caption
and a label over a picture (PNG) and a shape and past their edges. Every
card's text lies on a ground, and the first two cards' on its own background too."""
Box = tuple[float, float, float, float]
TOLERANCE = 0.5
"""Points two words may share (rounding) before they overlap, as in the check."""


def _words(pdf: Path) -> list[list[tuple[int, str, Box]]]:
    """Every word of every page as (its line's number, text, box in points), by pdftotext -bbox-layout."""
    xhtml = subprocess.run([tool("pdftotext"), "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    xhtml = re.sub(r"<!DOCTYPE[^>]*>", "", xhtml).replace('xmlns="http://www.w3.org/1999/xhtml"', "")
    pages = []
    for page in ElementTree.fromstring(xhtml).iter("page"):
        words = []
        for number, line in enumerate(page.iter("line")):
            for word in line.iter("word"):
                box = tuple(float(word.get(k) or 0) for k in ("xMin", "yMin", "xMax", "yMax"))
                words.append((number, word.text or "", (box[0], box[1], box[2], box[3])))
        pages.append(words)
    return pages


def _meeting(words: list[tuple[int, str, Box]]) -> list[tuple[str, str]]:
    """Pairs of words of different lines whose boxes share more than TOLERANCE both ways."""
    out = []
    for i, (line_a, word_a, a) in enumerate(words):
        for line_b, word_b, b in words[i + 1 :]:
            if line_a != line_b and min(a[2], b[2]) - max(a[0], b[0]) > TOLERANCE and min(a[3], b[3]) - max(a[1], b[1]) > TOLERANCE:
                out.append((word_a, word_b))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The fixture game built for A4 (not strict): where, and its warnings."""
    out = tmp_path_factory.mktemp("overlap")
    done = run_pnp("build", str(GAME), "--paper", "a4", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out, [line for line in done.stderr.splitlines() if "warning" in line]


def test_a_badge_over_a_name_is_a_warning_naming_the_card_and_both_elements(built: tuple[Path, list[str]]) -> None:
    out, warnings = built
    overlaps = [line for line in warnings if "overlaps" in line]
    assert len(overlaps) == 1 and overlaps[0].endswith(
        "overlap/cards.yaml:4:5: warning: cards/crowded front: h1.name: its text overlaps the text of div.badge (7.7 mm across, 4.2 mm down)"
    )
    # The check is right: on the printed sheet the two words meet, and nothing else does.
    sheet = _words(out / "overlap" / "overlap-home-a4.pdf")[1]
    assert sorted(_meeting(sheet)[0]) == ["Crowded", "New"] and len(_meeting(sheet)) == 1


def test_text_under_art_or_over_its_edge_is_a_warning_naming_the_card_both_elements_and_how_much(
    built: tuple[Path, list[str]],
) -> None:
    _, warnings = built
    at = "overlap/cards.yaml:7:5: warning: cards/riverside front: "
    art = sorted(line.split(at, 1)[1] for line in warnings if at in line)
    assert art == [
        # the name's second line from 8 mm down, under the 25 mm medallion painted after it
        "h1.name: its text is drawn under img.medallion (25.0 mm across, 1.9 mm down)",
        # from 10 mm in, on top of the 20 mm picture and past its right edge
        "p.caption: its text is drawn over img.picture and past its edge (10.0 mm across, 4.2 mm down)",
        "p.label: its text is drawn over div.shape and past its edge (9.8 mm across, 4.2 mm down)",
    ]
    # Text set on its own background, or on the ground under the whole card, is not art over text.
    assert len(warnings) == 4, warnings


def test_a_name_hidden_by_art_fails_a_strict_build(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(GAME, game)
    cards = (game / "cards.yaml").read_text()
    (game / "cards.yaml").write_text(cards[: cards.index("  - id: crowded")] + cards[cards.index("  - id: riverside") :])
    done = run_pnp("build", str(game), "--paper", "a4", "--strict", "--out", str(tmp_path / "out"))
    assert done.returncode == 2, done.stderr
    assert "cards/riverside front: h1.name: its text is drawn under img.medallion" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "out" / "overlap" / "overlap-home-a4.pdf").exists()


def test_under_strict_the_overlap_is_an_error_and_nothing_is_built(tmp_path: Path) -> None:
    done = run_pnp("build", str(GAME), "--paper", "a4", "--strict", "--out", str(tmp_path))
    assert done.returncode == 2
    assert "cards/crowded front: h1.name: its text overlaps the text of div.badge" in done.stderr
    assert "warning" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "overlap" / "overlap-home-a4.pdf").exists()


def test_texts_of_one_element_or_that_only_touch_do_not_overlap() -> None:
    def text(edges: Box, owner: int) -> Text:
        return Text(edges, (owner, "p"), f"p.{owner}")

    texts = [
        text((0, 0, 10, 10), 1),  # touches the third along an edge, shares 0.4 with the fourth: meets none
        text((5, 5, 15, 15), 1),  # the same element's as the first: never against it
        text((10, 0, 20, 10), 2),
        text((9.6, 9.6, 30, 30), 3),  # shares only 0.4 down with the third
        text((14, 14, 16, 16), 4),  # inside the second and the fourth
    ]
    found = [(o.first.element, o.second.element, round(o.width, 1), round(o.height, 1)) for o in overlapping(texts, TOLERANCE)]
    assert found == [("p.1", "p.2", 5, 5), ("p.1", "p.3", 5.4, 5.4), ("p.1", "p.4", 1, 1), ("p.3", "p.4", 2, 2)]


def test_art_is_the_ground_of_text_it_holds_or_lies_under_whole() -> None:
    def text(edges: Box, painted: int, holders: frozenset[int] = frozenset()) -> Text:
        return Text(edges, (painted, "p"), f"p.{painted}", painted, holders)

    ground, picture, frame = Art((0, 0, 100, 100), 1, 0, "div.ground"), Art((10, 10, 30, 30), 2, 10, "img.picture"), Art((0, 0, 50, 50), 3, 20, "div.frame")
    texts = [
        text((12, 12, 28, 20), 12),  # wholly on the picture and the ground, under the frame: covered by the frame only
        text((20, 20, 40, 25), 15),  # over the picture's edge; under the frame
        text((40, 40, 60, 45), 25, frozenset({3})),  # the frame's own text, running past it: its holder
        text((30, 12, 40, 20), 16),  # touches the picture's right edge only; under the frame
        text((120, 0, 130, 10), 30),  # off the ground: nothing under it
        text((14, 14, 16, 16), -1),  # not drawn as far as the order knows: not checked
    ]
    found = [(c.text.element, c.art.element, c.on_top, c.width, c.height) for c in art_over_text(texts, [picture, frame, ground], TOLERANCE)]
    assert found == [
        ("p.12", "div.frame", True, 16, 8),
        ("p.15", "div.frame", True, 20, 5),
        ("p.15", "img.picture", False, 10, 5),
        ("p.16", "div.frame", True, 10, 8),
    ]


@pytest.mark.parametrize("game", ["persuasion-b04", "persuasion-d01", "partisan"])
def test_no_two_words_of_any_shipped_page_overlap(game: str, b04_build: Path, d01_build: Path, partisan_build: Path) -> None:
    build = {"persuasion-b04": b04_build, "persuasion-d01": d01_build, "partisan": partisan_build}[game]
    files = sorted(build.glob("*-a4.pdf"))
    assert any("-home-" in f.name for f in files)
    words = 0
    for pdf in files:
        for number, page in enumerate(_words(pdf), start=1):
            words += len(page)
            assert not _meeting(page), f"{pdf.name} page {number}: these words overlap: {_meeting(page)}"
    stamps = sum(1 for pdf in files for page in _words(pdf) for _, word, _ in page if re.fullmatch(r"v\d[\w.]*", word))
    assert words > 1000 and stamps > 40  # the cards were read, the build stamps with them

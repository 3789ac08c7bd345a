"""The build stamp never covers a card's text: it sits in the band between
the trim and the safe line, read back from the printed pages."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import tool

Box = tuple[float, float, float, float]
STAMP = re.compile(r"^v\d[\w.]*$")


def _words(pdf: Path) -> list[list[tuple[str, Box]]]:
    """Every word of every page with its box (points, top-left origin), by pdftotext -bbox."""
    html = subprocess.run([tool("pdftotext"), "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in html.split("<page ")[1:]:
        pages.append([
            (word, (float(a), float(b), float(c), float(d)))
            for a, b, c, d, word in re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page)
        ])
    return pages


def _stamps(words: list[tuple[str, Box]]) -> list[Box]:
    """Each stamp line ("v0.1.0 · date · hash") as one box: its version word and
    the words on the same line just after it."""
    out = []
    for index, (word, box) in enumerate(words):
        if STAMP.match(word) and index + 4 < len(words):
            line = [b for _, b in words[index : index + 5]]
            out.append((min(b[0] for b in line), min(b[1] for b in line), max(b[2] for b in line), max(b[3] for b in line)))
    return out


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("game", ["persuasion-b04", "persuasion-d01"])
def test_no_stamp_touches_any_other_word_on_any_page(game: str, b04_build: Path, d01_build: Path) -> None:
    build = b04_build if game == "persuasion-b04" else d01_build
    stamped = 0
    for paper in ("a4", "letter"):
        for number, words in enumerate(_words(build / f"{game}-home-{paper}.pdf"), start=1):
            stamps = _stamps(words)
            stamped += len(stamps)
            inside = [b for s in stamps for _, b in words if b[0] >= s[0] - 0.01 and b[2] <= s[2] + 0.01 and b[1] >= s[1] - 0.01 and b[3] <= s[3] + 0.01]
            others = [(w, b) for w, b in words if b not in inside]
            for stamp in stamps:
                hits = [w for w, b in others if _meet(stamp, b)]
                assert not hits, f"{game} {paper} page {number}: the stamp covers {hits}"
    assert stamped > 100  # every card face wide enough carries one

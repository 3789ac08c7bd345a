"""What a player who holds only the PDFs can do with the duplex registration
test: the page says it without asking for pnp, and `pnp build --shifted-backs`
writes the card pages again with the backs moved by each reading, which
are read back here as numbers from the content streams (pikepdf)."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pytest

from pnp.output.home.shifted import SHIFTS
from pnp.units import mm
from tests.conftest import MINI, run_pnp
from tests.pdftools import operations, pdfinfo_pages, pdftotext, prose, prose_in, rasterise

PAPERS = ("a4", "letter")
NOTE = "For those who build the files with pnp:"


def _build(tmp_path_factory: pytest.TempPathFactory, name: str, *extra: str) -> Path:
    folder = tmp_path_factory.mktemp(name)
    result = run_pnp("build", str(MINI), "--out", str(folder), *extra)
    assert result.returncode == 0, result.stderr
    return folder / "mini"


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory, "plain")


@pytest.fixture(scope="module")
def shifted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory, "shifted", "--shifted-backs")


def _player_and_designer(pdf: Path) -> tuple[str, str]:
    """The registration test's front, split at the note for those who build."""
    text = prose(pdf, 1, 1)
    assert text.count(NOTE) == 1, text
    player, designer = text.split(NOTE)
    return player, designer.replace("\u2013", "--")


@pytest.mark.parametrize("paper", PAPERS)
def test_the_registration_test_tells_a_pdf_only_player_what_to_do(plain: Path, paper: str) -> None:
    player, designer = _player_and_designer(plain / f"registration-test-{paper}.pdf")
    # The player's part asks for no pnp: the printer's own setting does it ...
    assert "pnp" not in player and "--back-offset" not in player.replace("\u2013", "--"), player
    assert "What to do with your reading" in player and "image shift" in player and "print this test again" in player
    # ... and the command stays, as a note for those who build.
    assert "pnp build GAME --back-offset X,Y" in designer, designer
    # No shifted files are offered where the build wrote none.
    assert "-shifted-backs.pdf. It holds" not in player, player


@pytest.mark.parametrize("paper", PAPERS)
def test_the_registration_test_offers_the_shifted_files_the_build_wrote(shifted: Path, paper: str) -> None:
    player, _ = _player_and_designer(shifted / f"registration-test-{paper}.pdf")
    assert "pnp" not in player and "-shifted-backs.pdf. It holds" in player, player


@pytest.mark.parametrize("paper", PAPERS)
def test_page_1_names_the_shifted_file_only_when_there_is_one(plain: Path, shifted: Path, paper: str) -> None:
    assert "which printer setting makes up for it" in prose(plain / f"mini-home-{paper}.pdf", 1, 1)
    assert "shifted" not in prose(plain / f"mini-home-{paper}.pdf", 1, 1)
    assert not list(plain.glob("*shifted*"))
    home = shifted / f"mini-home-{paper}.pdf"
    said = prose_in(home, 1, 0, pdfinfo_pages(home)[0][0] - mm(15 + 50 + 5))  # left of the calibration square
    assert f"in place of pages 2\u20134 here, print the pages of mini-home-{paper}-shifted-backs.pdf" in said, said


def _table(pdf: Path) -> dict[tuple[float, float], tuple[int, int] | None]:
    """The first page's table, read back with pdftotext: the pages for each (X, Y) reading."""
    number = r"([+\u2212]?\d+(?:\.\d)?)"

    def value(text: str) -> float:
        return float(text.replace("\u2212", "-"))

    lines = pdftotext(pdf, 1, 1).splitlines()
    head = next(line for line in lines if line.strip().startswith("X"))
    xs = [value(v) for v in re.findall(r"X\s*" + number, head)]
    table: dict[tuple[float, float], tuple[int, int] | None] = {}
    for line in lines:
        row = re.match(r"\s*Y\s*" + number + r"\s+(.*)$", line)
        if row is None:
            continue
        cells = re.split(r"\s{2,}", row.group(2).strip())
        assert len(cells) == len(xs), line
        for x, cell in zip(xs, cells):
            pages = re.fullmatch(r"(\d+)\u2013(\d+)", cell)
            table[(x, value(row.group(1)))] = (int(pages.group(1)), int(pages.group(2))) if pages else None
    return table


def _placements(pdf: Path, page: int) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """Every face's clip rectangle and cm matrix on a page (numbered from 1), in order."""
    clips, matrices = [], []
    for operator, numbers in operations(pdf, page, ("re", "cm")):
        (clips if operator == "re" else matrices).append(tuple(numbers))
    return clips, matrices


def _content(page: pikepdf.Page) -> bytes:
    """What a page draws: its content streams, one after another."""
    contents = page.obj.Contents
    return b"".join(stream.read_bytes() for stream in (contents if isinstance(contents, pikepdf.Array) else [contents]))


def _assert_backs_moved(home: Path, shifted: Path, base: tuple[float, float]) -> int:
    """Each cell of ``shifted``'s table names a copy of ``home``'s sheets whose
    fronts draw as ``home``'s, pixel for pixel, and whose backs lie where the
    reading puts them: ``base`` (the home file's own offset, mm) undone, the
    cell's (X, Y) done. Returns the number of copies checked."""
    table = _table(shifted)
    assert sorted({x for x, _ in table}) == sorted({y for _, y in table}) == list(SHIFTS)
    assert (table[(0.0, 0.0)] is None) == (base == (0.0, 0.0))
    with pikepdf.open(home) as original, pikepdf.open(shifted) as copy:
        sheets = list(original.pages)[1:]  # after page 1, the instructions
        assert len(sheets) == 3
        drawn = {i: rasterise(home, 2 + i, 30).tobytes() for i in range(len(sheets))}
        backs = {1}  # mini: the cards' fronts, their backs, then the sleeves (one-sided)
        checked = 0
        for (x, y), pages in table.items():
            if pages is None:
                continue
            low, high = pages
            assert high - low + 1 == len(sheets), (x, y, pages)
            for i, sheet in enumerate(sheets):
                if i not in backs:
                    # Placed once, a face is drawn in its sheet's stream; in the copies, each is a form drawn by every copy.
                    assert rasterise(shifted, low + i, 30).tobytes() == drawn[i], (x, y, i)
                    continue
                (clips, matrices), (was_clips, was_matrices) = _placements(shifted, low + i), _placements(home, 2 + i)
                assert len(matrices) == len(was_matrices) > 0 and len(clips) == len(was_clips)
                dx, dy = mm(x - base[0]), mm(y - base[1])
                for new, old in zip(matrices, was_matrices):
                    assert new[:4] == old[:4]
                    assert new[4] - old[4] == pytest.approx(dx, abs=2e-3) and new[5] - old[5] == pytest.approx(dy, abs=2e-3)
                for new, old in zip(clips, was_clips):
                    assert new[2:] == old[2:]
                    assert new[0] - old[0] == pytest.approx(dx, abs=2e-3) and new[1] - old[1] == pytest.approx(dy, abs=2e-3)
            checked += 1
        assert len(copy.pages) == 1 + checked * len(sheets)
    return checked


@pytest.mark.parametrize("paper", PAPERS)
def test_shifted_backs_are_moved_by_their_reading_and_the_fronts_are_untouched(plain: Path, shifted: Path, paper: str) -> None:
    folder = shifted
    assert _assert_backs_moved(folder / f"mini-home-{paper}.pdf", folder / f"mini-home-{paper}-shifted-backs.pdf", (0.0, 0.0)) == 48
    # The home file's sheets are the same with or without the shifted copy beside it.
    with pikepdf.open(folder / f"mini-home-{paper}.pdf") as made, pikepdf.open(plain / f"mini-home-{paper}.pdf") as before:
        assert [_content(p) for p in list(made.pages)[1:]] == [_content(p) for p in list(before.pages)[1:]]


def test_shifted_backs_are_placed_from_no_offset_whatever_the_builds_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A reading is the whole correction (the test page is never moved), so
    a file built with --back-offset still gets copies for every reading, 0, 0 included."""
    folder = _build(tmp_path_factory, "offset", "--shifted-backs", "--back-offset", "0.5mm,-1mm", "--paper", "a4")
    assert _assert_backs_moved(folder / "mini-home-a4.pdf", folder / "mini-home-a4-shifted-backs.pdf", (0.5, -1.0)) == 49


def test_a_shifted_copy_draws_the_faces_its_home_file_holds(shifted: Path) -> None:
    """Every copy of a sheet is drawn from the same form XObjects: no face is
    stored twice. (The home file draws a face placed once in its sheet's
    stream, and a face placed more than once from its form.)"""
    folder = shifted

    def faces(pdf: Path) -> tuple[int, int]:
        """(distinct forms the card sheets draw, faces they draw in place):
        a placement (a cm one saved state deep) draws a form or what lies deeper."""
        forms, placed = set(), 0
        with pikepdf.open(pdf) as document:
            for page in document.pages[1:]:
                depth = 0
                for operands, operator in pikepdf.parse_content_stream(page):
                    depth -= str(operator) == "Q"
                    if depth == 1 and str(operator) == "cm":
                        placed += 1
                    elif depth == 1 and str(operator) == "Do":
                        forms.add(page.Resources.XObject[str(operands[0])].objgen)
                        placed -= 1
                    depth += str(operator) == "q"
        return len(forms), placed

    copy, home = faces(folder / "mini-home-a4-shifted-backs.pdf"), faces(folder / "mini-home-a4.pdf")
    assert copy[1] == 0 and copy[0] == sum(home) and home[1] > 0


def test_a_gutterfold_build_has_no_backs_to_shift(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = _build(tmp_path_factory, "folded", "--gutterfold", "--shifted-backs", "--paper", "a4")
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["mini-home-gutterfold-a4.pdf"]
    assert "shifted" not in prose(folder / "mini-home-gutterfold-a4.pdf", 1, 1)

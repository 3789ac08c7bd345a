"""Print-shop exports keep optional modules in files of their own and give
one-sided components a back, in the profile's page order."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

from tests.conftest import ROOT, run_pnp, tool
from tests.pdftools import pdftotext

D01 = ROOT / "card_data" / "persuasion-d01"


@pytest.fixture(scope="module")
def d01_dtc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("d01dtc")
    result = run_pnp("build", "persuasion-d01", "--profile", "drivethrucards", "--only", "traits,matrimony", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "one-sided" not in result.stderr  # D01 declares its one-sided components' blank_back: nothing to warn of
    return out / "persuasion-d01" / "drivethrucards"


def _letters() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(title, copies) of the base letters and of the Shadows letters, read from the data."""
    cards = yaml.safe_load((D01 / "traits.yaml").read_text())["cards"]
    base = [(c["title"], c.get("copies", 1)) for c in cards if not c.get("dark", False)]
    dark = [(c["title"], c.get("copies", 1)) for c in cards if c.get("dark", False)]
    return base, dark


def _render(pdf: Path, page: int, where: Path) -> np.ndarray:
    subprocess.run([tool("pdftoppm"), "-r", "30", "-f", str(page), "-l", str(page), "-png", "-singlefile", str(pdf), str(where)], check=True)
    return np.asarray(Image.open(where.with_suffix(".png")).convert("RGB"), dtype=np.int16)


def test_the_base_letters_file_holds_only_base_letters_and_the_module_its_own(d01_dtc: Path) -> None:
    base, dark = _letters()
    assert len(dark) == 6 and len(base) == 57
    index = json.loads((d01_dtc / "index.json").read_text())
    files = {(f["component"], f.get("module")): f for f in index["files"]}
    letters, shadows = d01_dtc / "persuasion-d01-traits.pdf", d01_dtc / "persuasion-d01-shadows-traits.pdf"
    assert files[("traits", None)]["path"].endswith(letters.name) and files[("traits", "shadows")]["path"].endswith(shadows.name)
    assert files[("traits", None)]["pages"] == 2 * sum(n for _, n in base)  # a back and a front per letter
    assert files[("traits", "shadows")]["pages"] == 2 * sum(n for _, n in dark)
    base_text, dark_text = pdftotext(letters), pdftotext(shadows)
    assert not [title for title, _ in dark if title in base_text]
    assert all(title in dark_text for title, _ in dark)
    assert not [title for title, _ in base if title in dark_text]
    # back, front, back, front: the backs are the letters' back
    assert "Scheming" not in pdftotext(shadows, 1, 1) and pdftotext(shadows, 1, 1) == pdftotext(shadows, 3, 3)


def test_a_one_sided_card_gets_a_blank_back_before_its_front(d01_dtc: Path, tmp_path: Path) -> None:
    matrimony = d01_dtc / "persuasion-d01-matrimony.pdf"
    index = json.loads((d01_dtc / "index.json").read_text())
    entry = next(f for f in index["files"] if f["component"] == "matrimony")
    assert entry["pages"] == 2 and entry["order"] == ["back", "front"]
    assert pdftotext(matrimony, 1, 1).strip() == "" and "Matrimony" in pdftotext(matrimony, 2, 2)
    back = _render(matrimony, 1, tmp_path / "back")
    assert back.min() >= 250  # paper white, nothing printed
    front = _render(matrimony, 2, tmp_path / "front")
    assert front.min() < 100  # the front really is printed


def test_a_one_sided_component_without_a_declared_blank_back_is_warned_of_and_given_paper_white(mini_copy: Path, tmp_path: Path) -> None:
    result = run_pnp("build", str(mini_copy), "--profile", "factory", "--only", "sleeves", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "warning: sleeves: one-sided and no blank_back declared, so each card is given a plain paper-white back" in result.stderr
    back = _render(tmp_path / "mini" / "factory" / "mini-sleeves.pdf", 2, tmp_path / "p2")[1:-1, 1:-1]
    assert back.min() >= 250


def test_a_declared_blank_back_colour_follows_each_front_for_a_factory(mini_copy: Path, tmp_path: Path) -> None:
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("    copies: 2\n    front: mini/back.html\n", "    copies: 2\n    front: mini/back.html\n    blank_back: \"#1f4e79\"\n"))
    result = run_pnp("build", str(mini_copy), "--profile", "factory", "--only", "sleeves", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "one-sided" not in result.stderr  # declared, so meant
    sleeves = tmp_path / "mini" / "factory" / "mini-sleeves.pdf"
    index = json.loads((tmp_path / "mini" / "factory" / "index.json").read_text())
    assert index["files"][0]["pages"] == 8 and index["files"][0]["order"] == ["front", "back"]  # 4 sleeves, front then back
    for page in (2, 4, 6, 8):
        back = _render(sleeves, page, tmp_path / f"p{page}")[1:-1, 1:-1]  # the page's last, partly covered pixels aside
        mean = back.reshape(-1, 3).mean(axis=0)
        assert np.abs(mean - np.array([0x1F, 0x4E, 0x79])).max() < 30, mean  # the declared colour, through CMYK and back
        assert np.ptp(back.reshape(-1, 3), axis=0).max() < 20  # one flat colour
    front = _render(sleeves, 1, tmp_path / "p1")
    assert np.abs(front.reshape(-1, 3).mean(axis=0) - np.array([0x1F, 0x4E, 0x79])).max() > 30


def test_a_component_with_no_copies_gets_no_file_of_its_own(mini_copy: Path, tmp_path: Path) -> None:
    """Cards kept as data only (every card copies: 0, as Courting Season's houses)
    print nothing, so an export writes no empty PDF for them (Ghostscript's ink
    check failed on one, and nothing was written)."""
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("    each: crests\n    copies: 2\n", "    each: crests\n    copies: 0\n"))
    result = run_pnp("build", str(mini_copy), "--profile", "factory", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "mini" / "factory").glob("*.pdf"))
    assert written == ["mini-cards.pdf"]

"""The colour-vision check: Machado et al. (2009) simulation, CIEDE2000, the
``checks.colours`` findings of ``pnp check`` and ``pnp proof --vision``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pnp.colour.vision import ciede2000, distance, simulate, simulate_image
from tests.conftest import run_pnp

# Sharma, Wu and Dalal (2005), the CIEDE2000 test data: pairs 1, 7, 17, 25 and 13.
SHARMA = [
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((50, 2.5, 0), (50, 0, -2.5), 4.3065),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_matches_the_published_test_data(lab1: tuple[float, ...], lab2: tuple[float, ...], expected: float) -> None:
    assert ciede2000(np.array(lab1), np.array(lab2)) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(np.array(lab2), np.array(lab1)) == pytest.approx(expected, abs=1e-4)


def test_the_simulation_keeps_greys_and_folds_red_onto_green_for_red_green_deficiencies() -> None:
    for who in ("protan", "deutan", "tritan"):
        grey = np.array([0.5, 0.5, 0.5])
        assert simulate(grey, who) == pytest.approx(grey, abs=2e-3)  # each matrix's rows sum to 1
    red, green = "#c0392b", "#4c8c2b"
    assert distance(red, green) > 40
    assert distance(red, green, "deutan") < 5 and distance(red, green, "protan") < distance(red, green) / 2
    assert distance(red, green, "tritan") > 30  # blue-yellow blindness keeps red and green apart
    assert distance("#1f6fd0", "#2ea043", "tritan") < distance("#1f6fd0", "#2ea043")


def test_an_image_is_shown_as_the_player_sees_it() -> None:
    image = Image.new("RGB", (4, 2), (192, 57, 43))
    seen = simulate_image(image, "deutan")
    assert seen.mode == "RGB" and seen.size == (4, 2)
    expected = np.round(simulate(np.array([192, 57, 43]) / 255, "deutan") * 255)
    assert np.asarray(seen)[1, 3] == pytest.approx(expected, abs=1)
    assert tuple(np.asarray(seen)[0, 0]) != (192, 57, 43)


COLOURS = """palette:
  ruby: {screen: "#c0392b"}
  moss: {screen: "#4c8c2b"}
  sky: {screen: "#1f6fd0"}
checks:
  colours:
    - name: crests
      colours: [ruby, moss, sky]
"""


def _game(mini: Path, block: str) -> None:
    text = (mini / "game.yaml").read_text()
    (mini / "game.yaml").write_text(text.replace("components:\n", block + "components:\n", 1))


def test_check_warns_at_the_declaration_when_a_player_cannot_tell_two_colours_apart(mini_copy: Path) -> None:
    _game(mini_copy, COLOURS)
    done = run_pnp("check", str(mini_copy), "--games", "0", "--json")
    assert done.returncode == 0, done.stderr
    found = [f for f in json.loads(done.stdout)["findings"] if f["check"] == "colours"]
    assert [f["level"] for f in found] == ["warning"], found
    assert found[0]["where"].endswith("game.yaml:22:7")
    assert "crests: ruby and moss look alike to a deutan player (2.8) (CIEDE2000 below 10; 59.4 with full colour vision)" == found[0]["message"]
    strict = run_pnp("check", str(mini_copy), "--games", "0", "--strict")
    assert strict.returncode == 1 and "warning: [colours] crests: ruby and moss" in strict.stdout


def test_a_second_cue_turns_the_warning_into_a_note_the_report_shows(mini_copy: Path) -> None:
    _game(mini_copy, COLOURS + "      also: each crest's drawing\n")
    done = run_pnp("check", str(mini_copy), "--games", "0", "--strict")
    assert done.returncode == 0, done.stdout
    assert "Colours told apart by more than colour:\n  crests: ruby and moss look alike" in done.stdout
    assert "with full colour vision); also told apart by: each crest's drawing\n" in done.stdout


def test_without_a_declaration_the_palette_is_checked_but_not_its_near_twins(mini_copy: Path) -> None:
    _game(mini_copy, 'palette:\n  ruby: {screen: "#c0392b"}\n  moss: {screen: "#4c8c2b"}\n'
                     '  paper: {screen: "#fbf8f1"}\n  blank: {screen: "#ffffff"}\n')
    found = [f for f in json.loads(run_pnp("check", str(mini_copy), "--games", "0", "--json").stdout)["findings"] if f["check"] == "colours"]
    assert [f["message"].split(" look")[0] for f in found] == ["palette: ruby and moss"]  # paper and blank: alike to everyone, left out


def test_pnp_proof_vision_writes_the_faces_as_the_player_sees_them(mini_copy: Path, tmp_path: Path) -> None:
    back = mini_copy / "templates/mini/back.html"
    back.write_text(back.read_text().replace("background: #ccc", "background: #c0392b"))
    plain = run_pnp("proof", str(mini_copy), "--out", str(tmp_path / "a"), "--dpi", "30", "--only", "sleeves")
    seen = run_pnp("proof", str(mini_copy), "--out", str(tmp_path / "b"), "--dpi", "30", "--only", "sleeves", "--vision", "deutan")
    assert plain.returncode == 0 and seen.returncode == 0, seen.stderr
    folder = tmp_path / "b" / "mini" / "proof"
    assert sorted(p.name for p in folder.iterdir()) == ["mini-proof-deutan.pdf", "proof-sleeves-deutan.png"]
    before = np.asarray(Image.open(tmp_path / "a" / "mini" / "proof" / "proof-sleeves.png").convert("RGB"), dtype=np.float64) / 255
    after = np.asarray(Image.open(folder / "proof-sleeves-deutan.png").convert("RGB"), dtype=np.float64) / 255
    assert before.shape[0] == after.shape[0]
    faces = np.s_[60:, : before.shape[1]]  # the tiles, below the title band (the longer title widens the sheet)
    assert np.abs(np.round(simulate(before[faces], "deutan") * 255) - np.round(after[faces] * 255)).max() <= 1
    assert np.abs(before[faces] - after[faces]).max() > 0.1  # the red crest changed

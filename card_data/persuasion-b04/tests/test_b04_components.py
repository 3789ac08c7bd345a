"""Every B04 component: counts from the seed, sheet geometry, the rulebook."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from pnp.imposition.geometry import Rect, grid, impose
from pnp.loading.presets import load_layouts, load_papers
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.render.faces import plan_faces
from pnp.units import mm, to_mm
from pnp.testing import game_folder, pdffonts, pdfinfo_pages, pdftotext, prose, qpdf_check, run_pnp

GAME = load_game(resolve_game_dir("persuasion-b04"))
TRAITS = {c["id"]: c for c in yaml.safe_load((game_folder(__file__) / "traits.yaml").read_text())["cards"]}


def test_copies_per_family_follow_the_seed() -> None:
    crests = [e.id for e in GAME.sets["crests"]]
    assert len(crests) == 8
    for component, per_crest in (("crest-sleeves", 10), ("ring-sleeves", 1), ("letterboxes", 1), ("crest-trackers", 21)):
        cards = GAME.component(component).cards
        assert [c.entry.id for c in cards if c.entry] == crests
        assert {c.copies for c in cards} == {per_crest}
    assert GAME.component("symbol-markers").copies == 40
    assert GAME.component("spreadsheets").copies == 8
    assert GAME.component("reference").copies == GAME.players[1]


D01 = load_game(resolve_game_dir("persuasion-d01"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game, component", [(g, c.id) for g in (GAME, D01) for c in g.components], ids=lambda v: getattr(v, "id", v))
def test_every_piece_lies_inside_the_printable_area(game, component: str, paper: str) -> None:
    comp = game.component(component)
    layouts = game.layouts
    sheet_paper = load_papers()[paper]
    g = grid(layouts[comp.layout_for(paper)], sheet_paper, comp.size.width, comp.size.height)
    plan = plan_faces(game, [comp])
    sheets = impose(comp.id, plan.copies[comp.id], g, comp.bleed)
    assert sum(len(s.placements) for s in sheets if s.side == "front") == comp.copies
    for sheet in sheets:
        slots = [p.clip for p in sheet.placements]
        for i, a in enumerate(slots):
            # At least 5 mm of paper margin around every piece, bleed included.
            assert a.x >= mm(5) - 1e-6 and a.y >= mm(5) - 1e-6, (component, a)
            assert sheet_paper.width - a.right >= mm(5) - 1e-6 and sheet_paper.height - a.top >= mm(5) - 1e-6
            for b in slots[i + 1 :]:
                assert not a.overlaps(b), (component, sheet.number, a, b)
        for guide, placement in zip(sheet.guides, sheet.placements):
            slot = placement.slot
            assert guide.r == pytest.approx(slot.width / 2)
            assert (guide.cx, guide.cy) == pytest.approx((slot.x + slot.width / 2, slot.y + slot.height / 2))


def test_boards_turn_to_fit_and_tokens_pack_densely() -> None:
    layouts = GAME.layouts
    a4 = load_papers()["a4"]
    letterbox = GAME.component("letterboxes")
    g = grid(layouts["board"], a4, letterbox.size.width, letterbox.size.height)
    assert g.rotated and g.per_sheet == 1
    spreadsheet = GAME.component("spreadsheets")
    assert grid(layouts["board"], a4, spreadsheet.size.width, spreadsheet.size.height).per_sheet == 2
    tracker = GAME.component("crest-trackers")
    g = grid(layouts["tokens"], a4, tracker.size.width, tracker.size.height)
    assert (g.columns, g.rows) == (10, 15)
    assert to_mm(tracker.size.width) == pytest.approx(15.9)  # a 5/8 in craft punch
    assert to_mm(GAME.component("symbol-markers").size.width) == pytest.approx(19.05)  # 3/4 in


def test_letterbox_wells_hold_a_poker_card() -> None:
    css = (GAME.shared[0] / "templates/persuasion/persuasion.css").read_text()
    well = re.search(r"\.well \{[^}]*width: ([\d.]+)mm; height: ([\d.]+)mm", css)
    assert well and float(well[1]) >= 63.5 + 3 and float(well[2]) >= 88.9 + 3
    lefts = [float(v) for v in re.findall(r"\.well\.\w+ \{ left: ([\d.]+)mm; \}", css)]
    width = float(well[1])
    assert len(lefts) == 3 and all(b - a > width for a, b in zip(lefts, lefts[1:]))
    safe = to_mm(GAME.component("letterboxes").size.width - 2 * GAME.component("letterboxes").safe)
    assert lefts[-1] + width <= safe


def test_no_text_below_6pt_in_the_stylesheets() -> None:
    for css in (GAME.shared[0] / "templates").rglob("*.css"):
        for size in re.findall(r"font-size:\s*([\d.]+)pt", css.read_text()):
            assert float(size) >= 6, f"{css.name}: {size}pt"


@pytest.fixture(scope="module")
def rulebook(b04_build: Path) -> Path:
    return b04_build / "persuasion-b04-rulebook-a4.pdf"


def test_rulebook_is_a_sound_pdf_in_the_game_fonts(rulebook: Path) -> None:
    assert qpdf_check(rulebook).returncode == 0
    assert all(f["emb"] == "yes" and "EB-Garamond" in f["name"] for f in pdffonts(rulebook))
    assert all(size == pytest.approx((595.276, 841.89), abs=0.01) for size in pdfinfo_pages(rulebook))


def test_rulebook_player_table_comes_from_the_data(rulebook: Path) -> None:
    text = prose(rulebook)
    table = GAME.rules["hand_size"]
    assert "Players " + " ".join(str(n) for n in table) in text
    assert "Trait cards each " + " ".join(str(v) for v in table.values()) in text
    for c in GAME.components:
        assert f"{c.copies} {c.name}" in text


def test_rulebook_states_the_sources_timing_and_card_rules(rulebook: Path) -> None:
    text = prose(rulebook)
    assert "hold your next intention out in front of you: that tells the table you are ready" in text
    assert "you cannot send it again until it is back" in text


def test_rulebook_worked_example_adds_up(rulebook: Path) -> None:
    text = pdftotext(rulebook)
    example = GAME.rules["example"]
    symbols = [e.id for e in GAME.sets["symbols"]]
    totals = [sum(TRAITS[c]["symbols"].get(s, 0) for c in example["fiance"]) for s in symbols]
    row = re.search(r"^\s*Total\s+(.+)$", text, re.M)
    assert row, text
    shown = [int(v.replace("\u2013", "-")) for v in row[1].split()]
    assert shown == totals
    desires = TRAITS[example["desires"]]["symbols"]
    hits = sum(1 for s, sign in desires.items() if totals[symbols.index(s)] * sign > 0)
    assert f"{hits} of 3" in text
    assert ("you win" in text) == (hits >= 2)


def test_only_builds_one_component_and_no_rulebook(tmp_path: Path) -> None:
    result = run_pnp("build", "persuasion-b04", "--only", "crest-trackers,symbol-markers", "--paper", "a4", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "persuasion-b04" / "manifest.json").read_text())
    assert [c["id"] for c in manifest["components"]] == ["crest-trackers", "symbol-markers"]
    assert [f["path"] for f in manifest["files"]] == ["persuasion-b04-home-a4.pdf"]
    assert manifest["files"][0]["pages"] == 1 + 2 + 2

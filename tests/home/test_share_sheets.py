"""Components of one kind sharing sheets (the home profile's share_sheets):
a component starts in the free slots of the last sheet of the one before it
of the same stock, grid and sidedness when that saves it a sheet, and page 1
still names every piece and its pages."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest

from pnp.commands.common import load
from pnp.output.profiles import profile
from pnp.output.home.needs import needs
from pnp.output.home.pages import in_print_order, page_ranges
from pnp.output.home.plan import runs, sheets_for
from pnp.imposition.geometry import grid, impose_shared
from pnp.loading.presets import load_layouts, load_papers
from pnp.model import Component, Game
from pnp.render.faces import FacePlan
from pnp.units import mm
from tests.conftest import d01_build, run_pnp  # noqa: F401  (the shared D01 build fixture)
from tests.pdftools import prose

POKER = (mm(63.5), mm(88.9))
COUNTS = {"traits": 57, "desires": 9, "matrimony": 1, "actions": 8, "letterboxes": 8, "rings": 8, "hearts": 24}
TWO_SIDED = {"traits", "desires", "actions"}


@pytest.fixture(scope="module")
def d01() -> tuple[Game, list[Component], FacePlan]:
    """D01's card stock components with their copy counts, faces named by component."""
    game = load("persuasion-d01", False)
    components = [game.component(cid) for cid in COUNTS]
    return game, components, _plan(components)


def _plan(components: list[Component]) -> FacePlan:
    copies = {
        c.id: tuple((f"{c.id}-{i}", f"{c.id}-back-{i}" if c.id in TWO_SIDED else None) for i in range(COUNTS[c.id]))
        for c in components
    }
    return FacePlan((), copies, {})


def _runs(game: Game, components: list[Component], plan: FacePlan, paper: str, share: bool) -> list[list[str]]:
    grids = {c.id: grid(game.layouts[c.layout_for(paper)], load_papers()[paper], c.size.width, c.size.height) for c in components}
    return [[c.id for c in run] for run in runs(components, plan, grids, share)]


def test_a_component_moves_up_to_the_last_sheet_of_its_kind_only_when_that_saves_a_sheet(d01) -> None:  # type: ignore[no-untyped-def]
    game, components, plan = d01
    # A4, 9 a sheet: the lone matrimony card leaves 8 slots, which hold the 8 letterboxes (listed after the actions).
    # Traits end with 3 on a sheet: 9 desires would still need a sheet of their own, so they keep theirs.
    assert _runs(game, components, plan, "a4", True) == [
        ["traits"], ["desires"], ["matrimony", "letterboxes"], ["actions"], ["rings"], ["hearts"]
    ]
    # Letter, 8 a sheet: traits end with 1, so 7 desires fit there and 2 take one sheet, not 2;
    # 8 letterboxes after the matrimony card would still take a sheet.
    assert _runs(game, components, plan, "letter", True) == [
        ["traits", "desires"], ["matrimony"], ["actions"], ["letterboxes"], ["rings"], ["hearts"]
    ]
    assert all(len(run) == 1 for run in _runs(game, components, plan, "a4", False))
    # Another stock (or size, or sidedness) never shares.
    other = [replace(c, stock="sticker paper") if c.id == "letterboxes" else c for c in components]
    assert ["letterboxes"] in _runs(game, other, plan, "a4", True)


def test_a_shared_sheet_holds_each_copy_in_order_with_its_back_behind_it() -> None:
    g = grid(load_layouts()["poker-9up"], load_papers()["a4"], *POKER)
    a, b = impose_shared(
        [("a", [("a", "a-back")] * 3, mm(3)), ("b", [(f"b{i}", f"b{i}-back") for i in range(8)], mm(3))], g
    )
    assert len(a) == 2 and b[:2] == a and len(b) == 4  # the first sheet (front and back) under both
    front, back = a
    assert [p.face for p in front.placements] == ["a"] * 3 + [f"b{i}" for i in range(6)]
    assert [p.slot for p in front.placements] == list(g.fronts)
    assert [p.face for p in back.placements] == ["a-back"] * 3 + [f"b{i}-back" for i in range(6)]
    assert [p.slot for p in back.placements] == list(g.backs)  # each back mirrored behind its own front
    assert front.marks == g.marks and b[2].marks == g.marks_for(2)
    assert [p.face for p in b[2].placements] == ["b6", "b7"]


def test_page_one_lists_each_piece_on_the_page_it_shares_and_counts_the_sheet_once(d01) -> None:  # type: ignore[no-untyped-def]
    game, components, plan = d01
    sheets = sheets_for(game, components, plan, load_papers()["a4"], share=True)
    assert list(sheets) == ["traits", "desires", "matrimony", "letterboxes", "actions", "rings", "hearts"]
    assert sheets["matrimony"] == sheets["letterboxes"] and len(sheets["matrimony"]) == 1
    assert len(in_print_order(sheets)) == 14 + 2 + 1 + 2 + 1 + 1
    parts = page_ranges(sheets, components, 2, game.layouts)
    assert [(p["id"], p["pages"], p["sheets"]) for p in parts] == [
        ("traits", "2\u201315", 7), ("desires", "16\u201317", 1), ("matrimony", "18", 1), ("letterboxes", "18", 0),
        ("actions", "19\u201320", 1), ("rings", "21", 1), ("hearts", "22", 1),
    ]
    assert needs(game, parts)[0] == "12 sheets of card stock"
    alone = page_ranges(sheets_for(game, components, plan, load_papers()["a4"]), components, 2, game.layouts)
    assert needs(game, alone)[0] == "13 sheets of card stock"


def test_home_builds_share_sheets_by_default(d01_build: Path, tmp_path: Path) -> None:
    """D01 on A4: 24 pages (13 sheets of card stock) each component alone,
    23 (12) sharing; on Letter 29 and 27."""
    assert profile("home").share_sheets is True
    pages = {}
    for paper in ("a4", "letter"):
        with pikepdf.open(d01_build / f"persuasion-d01-home-{paper}.pdf") as pdf:
            pages[paper] = len(pdf.pages)
    assert pages == {"a4": 23, "letter": 27}
    text = prose(d01_build / "persuasion-d01-home-a4.pdf", 1, 1)
    assert "18 Matrimony reference card 1 card stock one-sided 18 Letterbox cards 8 card stock one-sided 19–20 Action cards" in text, text
    assert "12 sheets of card stock" in text
    manifest = json.loads((d01_build / "manifest.json").read_text())
    letterboxes = next(c for c in manifest["components"] if c["id"] == "letterboxes")
    assert {card["at"]["page"] for card in letterboxes["cards"] if card["at"]["file"].endswith("-a4.pdf")} == {18}
    result = run_pnp("build", "persuasion-d01", "--paper", "a4", "--separate-sheets", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    separate = tmp_path / "persuasion-d01" / "persuasion-d01-home-a4.pdf"
    with pikepdf.open(separate) as pdf:
        assert len(pdf.pages) == 24
    assert "13 sheets of card stock" in prose(separate, 1, 1)

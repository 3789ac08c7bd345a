"""The tarot-4up preset as numbers: four tarot cards a sheet on A4 and
Letter, upright, and two a side turned when the sheet is folded."""

from __future__ import annotations

import pytest

from pnp.imposition.geometry import gutterfold_grid, grid, impose_gutterfold
from pnp.loading.presets import load_layouts, load_papers
from pnp.units import mm, to_mm

TAROT = (mm(70), mm(120))


@pytest.fixture(scope="module")
def layouts():
    return load_layouts()


@pytest.mark.parametrize("paper, left_mm, top_mm", [("a4", 33.5, 27.0), ("letter", 36.45, 18.2)])
def test_four_upright_tarot_cards_a_sheet(layouts, paper, left_mm, top_mm) -> None:
    g = grid(layouts["tarot-4up"], load_papers()[paper], *TAROT)
    assert (g.columns, g.rows, g.rotated) == (2, 2, False)
    assert all((to_mm(r.width), to_mm(r.height)) == pytest.approx((70, 120)) for r in g.fronts)
    first, last = g.fronts[0], g.fronts[-1]
    assert to_mm(first.x) == pytest.approx(left_mm, abs=1e-6)
    assert to_mm(g.paper.height - first.top) == pytest.approx(top_mm, abs=1e-6)
    # 3 mm between neighbours, the block centred.
    assert to_mm(g.fronts[1].x - first.right) == pytest.approx(3)
    assert to_mm(g.paper.width - last.right) == pytest.approx(left_mm, abs=1e-6)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_folded_sheets_take_two_turned_cards_a_side(layouts, paper) -> None:
    """Half a landscape sheet holds one upright tarot card (as the plain grid
    lays it) or two turned ones, each back across the fold from its front."""
    papers = load_papers()
    upright = gutterfold_grid(layouts["grid"], papers[paper], *TAROT)
    turned = gutterfold_grid(layouts["tarot-4up"], papers[paper], *TAROT)
    assert upright.per_sheet == 1
    assert (turned.columns, turned.rows, turned.rotated) == (1, 2, True)
    half = turned.paper.width / 2
    assert all(r.right <= half and (to_mm(r.width), to_mm(r.height)) == pytest.approx((120, 70)) for r in turned.fronts)
    (sheet,) = impose_gutterfold("tarot", [("f1", "b1"), ("f2", "b2")], turned)
    assert [p.rotation for p in sheet.placements] == [90, -90, 90, -90]
    front, back = sheet.placements[0].slot, sheet.placements[1].slot
    assert back.x == pytest.approx(turned.paper.width - front.right) and back.y == pytest.approx(front.y)

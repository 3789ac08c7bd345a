"""Sheet geometry as numbers: slots, margins, mirrored backs, crop marks."""

from __future__ import annotations

import pytest

from pnp.imposition.geometry import Rect, grid, gutterfold_grid, impose, impose_gutterfold
from pnp.loading.presets import load_layouts, load_papers
from pnp.units import mm, parse_length, to_mm, UnitError

POKER = (mm(63.5), mm(88.9))


@pytest.fixture(scope="module")
def layouts():
    return load_layouts()


@pytest.mark.parametrize(
    "paper, left_mm, bottom_mm",
    [("a4", (210 - 190.5) / 2, (297 - 266.7) / 2), ("letter", (215.9 - 190.5) / 2, (279.4 - 266.7) / 2)],
)
def test_poker_9up_slots_are_centred_and_butted(layouts, paper, left_mm, bottom_mm) -> None:
    g = grid(layouts["poker-9up"], load_papers()[paper], *POKER)
    assert (g.columns, g.rows) == (3, 3)
    # Reading order: the first slot is the top-left card.
    first = g.fronts[0]
    assert to_mm(first.x) == pytest.approx(left_mm, abs=1e-6)
    assert to_mm(first.top) == pytest.approx(to_mm(g.paper.height) - bottom_mm, abs=1e-6)
    last = g.fronts[-1]
    assert to_mm(last.y) == pytest.approx(bottom_mm, abs=1e-6)
    assert to_mm(last.right) == pytest.approx(to_mm(g.paper.width) - left_mm, abs=1e-6)
    # Butted: each card's right edge is the next card's left edge.
    assert g.fronts[1].x == pytest.approx(g.fronts[0].right)
    assert g.fronts[3].top == pytest.approx(g.fronts[0].y)
    for a in g.fronts:
        assert to_mm(a.width) == pytest.approx(63.5) and to_mm(a.height) == pytest.approx(88.9)
        for b in g.fronts:
            assert a is b or not a.overlaps(b)
        # At least 5 mm of margin on every side.
        assert min(a.x, a.y, g.paper.width - a.right, g.paper.height - a.top) >= mm(5) - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_are_mirrored_for_a_long_edge_flip(layouts, paper) -> None:
    g = grid(layouts["poker-9up"], load_papers()[paper], *POKER)
    for front, back in zip(g.fronts, g.backs):
        assert back.x == pytest.approx(g.paper.width - front.right)
        assert back.y == pytest.approx(front.y)
    # Column order reverses: the back of the top-left card is at the top-right.
    for back, front in ((0, 2), (2, 0), (4, 4), (6, 8)):
        assert (g.backs[back].x, g.backs[back].y) == pytest.approx((g.fronts[front].x, g.fronts[front].y))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_are_in_the_margins_and_on_card_edges(layouts, paper) -> None:
    g = grid(layouts["poker-9up"], load_papers()[paper], *POKER)
    edges_x = {round(v, 3) for r in g.fronts for v in (r.x, r.right)}
    edges_y = {round(v, 3) for r in g.fronts for v in (r.y, r.top)}
    assert len(g.marks) == 2 * len(edges_x) + 2 * len(edges_y) == 16
    for m in g.marks:
        box = Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1))
        vertical = m.x1 == m.x2
        # A line of zero width: widen it by its stroke to test for overlap.
        stroke = Rect(box.x - m.weight / 2, box.y, m.weight, box.height) if vertical else Rect(box.x, box.y - m.weight / 2, box.width, m.weight)
        assert not any(stroke.overlaps(r) for r in g.fronts), m
        assert 0 <= box.x and box.right <= g.paper.width and 0 <= box.y and box.top <= g.paper.height
        if vertical:
            assert round(m.x1, 3) in edges_x
        else:
            assert round(m.y1, 3) in edges_y
        assert max(box.width, box.height) > mm(2)


def test_impose_pairs_fronts_with_mirrored_backs(layouts) -> None:
    g = grid(layouts["poker-9up"], load_papers()["a4"], *POKER)
    copies = [(f"f{i}", "back") for i in range(11)]
    sheets = impose("deck", copies, g, bleed=mm(3))
    assert [(s.side, s.number, len(s.placements)) for s in sheets] == [
        ("front", 1, 9), ("back", 1, 9), ("front", 2, 2), ("back", 2, 2)
    ]
    assert sheets[2].placements[1].slot == g.fronts[1]
    assert sheets[3].placements[1].slot == g.backs[1]
    # Butted cards show no bleed: the clip is the trim.
    assert all(p.clip == p.slot for s in sheets for p in s.placements)
    assert sheets[0].marks and not sheets[1].marks


def test_one_sided_components_get_no_back_sheets(layouts) -> None:
    g = grid(layouts["poker-9up"], load_papers()["letter"], *POKER)
    sheets = impose("sleeves", [("crest", None)] * 80, g)
    assert [s.side for s in sheets] == ["front"] * 9


def test_auto_grid_fits_what_it_can(layouts) -> None:
    g = grid(layouts["grid"], load_papers()["a4"], mm(44), mm(63))
    assert (g.columns, g.rows) == (4, 4)


def test_units_are_strict() -> None:
    assert parse_length("1in") == 72
    assert parse_length("25.4mm") == pytest.approx(72)
    assert parse_length("2.54cm") == pytest.approx(72)
    for bad in ("63.5", "3 furlongs", "mm", 5, None, "1e3mm"):
        with pytest.raises(UnitError):
            parse_length(bad)


def test_turned_items_turn_back_the_other_way(layouts) -> None:
    """A landscape piece on a portrait sheet is turned a quarter turn; its back,
    seen after a long-edge flip, must turn the other way to line up."""
    g = grid(layouts["board"], load_papers()["a4"], mm(232), mm(128))
    assert g.rotated and (g.fronts[0].width, g.fronts[0].height) == pytest.approx((mm(128), mm(232)))
    front, back = impose("board", [("f", "b")], g)
    assert [p.rotation for p in front.placements] == [90]
    assert [p.rotation for p in back.placements] == [-90]
    assert back.placements[0].slot.x == pytest.approx(g.paper.width - front.placements[0].slot.right)


@pytest.mark.parametrize(
    "layout, paper, count, first_label",
    [
        # (left, top, width, height) of the first label, in mm from the top-left corner.
        ("avery-l7651", "a4", 65, (4.7, 10.7, 38.1, 21.2)),
        ("avery-5160", "letter", 30, (0.1875 * 25.4, 0.5 * 25.4, 2.625 * 25.4, 25.4)),
    ],
)
def test_label_sheets_centre_items_on_the_products_labels(layouts, layout, paper, count, first_label) -> None:
    g = grid(layouts[layout], load_papers()[paper], mm(19), mm(19))
    assert g.per_sheet == count and not g.marks
    left, top, width, height = first_label
    slot = g.fronts[0]
    assert to_mm(slot.x) == pytest.approx(left + (width - 19) / 2)
    assert to_mm(g.paper.height - slot.top) == pytest.approx(top + (height - 19) / 2)
    for a in g.fronts:
        assert 0 < a.x and a.right < g.paper.width and 0 < a.y and a.top < g.paper.height
        for b in g.fronts:
            assert a is b or not a.overlaps(b)


def test_label_sheets_refuse_the_wrong_paper_and_oversized_items(layouts) -> None:
    from pnp.imposition.geometry import LayoutError

    with pytest.raises(LayoutError, match="made for a4"):
        grid(layouts["avery-l7651"], load_papers()["letter"], mm(19), mm(19))
    with pytest.raises(LayoutError, match="do not fit"):
        grid(layouts["avery-l7651"], load_papers()["a4"], mm(30), mm(30))


def test_gutterfold_round_items_keep_their_cutting_circles_on_both_halves(layouts) -> None:
    paper = load_papers()["a4"]
    g = gutterfold_grid(layouts["tokens"], paper, mm(19.05), mm(19.05))
    per = g.per_sheet
    assert len(g.guides) == 2 * per
    sheets = impose_gutterfold("markers", [("gem", "gem-back")] * (per - 1) + [("crown", None)], g)
    (sheet,) = sheets
    # one circle on every placed item, centred on its slot, front or back
    assert len(sheet.guides) == 2 * per - 1
    centres = sorted((round(c.cx, 3), round(c.cy, 3)) for c in sheet.guides)
    slots = sorted((round(p.slot.x + p.slot.width / 2, 3), round(p.slot.y + p.slot.height / 2, 3)) for p in sheet.placements)
    assert centres == slots
    assert all(abs(c.r - mm(19.05) / 2) < 1e-6 for c in sheet.guides)

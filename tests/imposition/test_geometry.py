"""Sheet geometry as numbers: slots, margins, mirrored backs, crop marks."""

from __future__ import annotations

import pytest

from pnp.imposition.geometry import PRINTABLE, LayoutError, Rect, butted, grid, gutterfold_grid, impose, impose_gutterfold
from pnp.loading.presets import load_layouts, load_papers
from pnp.units import mm, parse_length, to_mm, UnitError

POKER = (mm(63.5), mm(88.9))


@pytest.fixture(scope="module")
def layouts():
    return load_layouts()


@pytest.mark.parametrize("paper, columns, rows, turned", [("a4", 3, 3, False), ("letter", 2, 4, True)])
def test_poker_cards_sit_3_mm_apart_with_every_piece_5_mm_inside(layouts, paper, columns, rows, turned) -> None:
    g = grid(layouts["poker-9up"], load_papers()[paper], *POKER)
    assert (g.columns, g.rows, g.rotated) == (columns, rows, turned)
    w, h = (POKER[1], POKER[0]) if turned else POKER
    # Reading order: the first slot is the top-left card; the block is centred.
    first, last = g.fronts[0], g.fronts[-1]
    assert first.x == pytest.approx(g.paper.width - last.right) and last.y == pytest.approx(g.paper.height - first.top)
    # 3 mm between neighbours, across and down.
    assert g.fronts[1].x - g.fronts[0].right == pytest.approx(mm(3))
    assert g.fronts[0].y - g.fronts[columns].top == pytest.approx(mm(3))
    sheets = impose("deck", [("f", "b")] * g.per_sheet, g, bleed=mm(2))
    for a in g.fronts:
        assert (a.width, a.height) == pytest.approx((w, h))
        for b in g.fronts:
            assert a is b or not a.overlaps(b)
    for sheet in sheets:
        for p in sheet.placements:
            # 1.5 mm of bleed shows on every side, and the piece with its bleed is 5 mm inside the sheet.
            assert p.clip.x == pytest.approx(p.slot.x - mm(1.5)) and p.clip.right == pytest.approx(p.slot.right + mm(1.5))
            assert p.clip.y == pytest.approx(p.slot.y - mm(1.5)) and p.clip.top == pytest.approx(p.slot.top + mm(1.5))
            assert min(p.clip.x, p.clip.y, g.paper.width - p.clip.right, g.paper.height - p.clip.top) >= mm(5) - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_butted_cards_sit_edge_to_edge_nine_a_sheet(layouts, paper) -> None:
    g = grid(butted(layouts["poker-9up"]), load_papers()[paper], *POKER)
    assert (g.columns, g.rows, g.rotated) == (3, 3, False)
    assert g.fronts[1].x == pytest.approx(g.fronts[0].right)
    assert g.fronts[3].top == pytest.approx(g.fronts[0].y)
    sheets = impose("deck", [("f", "b")] * 9, g, bleed=mm(2))
    assert all(p.clip == p.slot for s in sheets for p in s.placements)  # no bleed shows
    # tokens and labels keep their spacing
    assert butted(layouts["tokens"]) == layouts["tokens"] and butted(layouts["avery-5160"]) == layouts["avery-5160"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_are_mirrored_for_a_long_edge_flip(layouts, paper) -> None:
    g = grid(layouts["poker-9up"], load_papers()[paper], *POKER)
    for front, back in zip(g.fronts, g.backs):
        assert back.x == pytest.approx(g.paper.width - front.right)
        assert back.y == pytest.approx(front.y)
    # Column order reverses: the back of the top-left card is at the top-right.
    last = g.columns - 1
    assert (g.backs[0].x, g.backs[0].y) == pytest.approx((g.fronts[last].x, g.fronts[last].y))
    assert (g.backs[last].x, g.backs[last].y) == pytest.approx((g.fronts[0].x, g.fronts[0].y))


SHIPPED_CARD_LAYOUTS = ["poker-9up", "grid", "board"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", SHIPPED_CARD_LAYOUTS)
@pytest.mark.parametrize("size", [POKER, (mm(57), mm(89)), (mm(44), mm(63)), (mm(200), mm(110))])
def test_every_cut_is_marked_on_a_card_edge_and_5_mm_inside_the_sheet(layouts, paper, name, size) -> None:
    try:
        g = grid(layouts[name], load_papers()[paper], *size)
    except LayoutError:
        return  # this size does not fit this layout on this paper
    edges_x = [v for r in g.fronts for v in (r.x, r.right)]
    edges_y = [v for r in g.fronts for v in (r.y, r.top)]
    vertical_marks = [m.x1 for m in g.marks if m.x1 == m.x2]
    horizontal_marks = [m.y1 for m in g.marks if m.y1 == m.y2]
    # every mark is on a card edge, and every cut line has marks at two places at least
    assert all(min(abs(v - e) for e in edges_x) < 0.01 for v in vertical_marks)
    assert all(min(abs(v - e) for e in edges_y) < 0.01 for v in horizontal_marks)
    assert all(sum(abs(v - e) < 0.01 for v in vertical_marks) >= 2 for e in edges_x)
    assert all(sum(abs(v - e) < 0.01 for v in horizontal_marks) >= 2 for e in edges_y)
    for m in g.marks:
        box = Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1))
        vertical = m.x1 == m.x2
        if m.cased:  # a tick across a gap, on the edge line of the cards beside it: never inside one
            middle = ((m.x1 + m.x2) / 2, (m.y1 + m.y2) / 2)
            assert not any(r.x + 1e-6 < middle[0] < r.right - 1e-6 and r.y + 1e-6 < middle[1] < r.top - 1e-6 for r in g.fronts), m
        else:
            stroke = Rect(box.x - m.weight / 2, box.y, m.weight, box.height) if vertical else Rect(box.x, box.y - m.weight / 2, box.width, m.weight)
            assert not any(stroke.overlaps(r) for r in g.fronts), m  # never over a card
        assert min(box.x, box.y, g.paper.width - box.right, g.paper.height - box.top) >= PRINTABLE - 1e-6, m
        assert max(box.width, box.height) >= mm(1) - 1e-6


def test_marks_move_into_the_gaps_where_the_margin_is_too_narrow(layouts) -> None:
    g = grid(layouts["poker-9up"], load_papers()["a4"], *POKER)
    # A4: 6.75 mm side margins leave no room for marks 5 mm inside: the
    # horizontal cuts are marked across the two column gaps, cased for the bleed.
    ticks = [m for m in g.marks if m.cased]
    assert ticks and all(m.y1 == m.y2 and m.x2 - m.x1 == pytest.approx(mm(3), abs=0.01) for m in ticks)
    assert len(ticks) == 2 * 6  # two gaps x six card edges
    assert all(not m.cased for m in g.marks if m.x1 == m.x2)  # 12 mm top and bottom margins hold the others


def test_impose_pairs_fronts_with_mirrored_backs(layouts) -> None:
    g = grid(layouts["poker-9up"], load_papers()["a4"], *POKER)
    copies = [(f"f{i}", "back") for i in range(11)]
    sheets = impose("deck", copies, g, bleed=mm(3))
    assert [(s.side, s.number, len(s.placements)) for s in sheets] == [
        ("front", 1, 9), ("back", 1, 9), ("front", 2, 2), ("back", 2, 2)
    ]
    assert sheets[2].placements[1].slot == g.fronts[1]
    assert sheets[3].placements[1].slot == g.backs[1]
    # Half the gap of bleed shows: 1.5 mm, though the face has 3.
    assert all(p.clip.width == pytest.approx(p.slot.width + mm(3)) for s in sheets for p in s.placements)
    assert sheets[0].marks and not sheets[1].marks


def test_one_sided_components_get_no_back_sheets(layouts) -> None:
    g = grid(layouts["poker-9up"], load_papers()["letter"], *POKER)
    sheets = impose("sleeves", [("crest", None)] * 80, g)
    assert [s.side for s in sheets] == ["front"] * 10


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

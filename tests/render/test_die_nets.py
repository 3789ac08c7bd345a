"""Dice nets (pnp/nets.py): the cross folds into a cube, its tabs close it,
and the piece is as large as its squares and tabs need."""

from __future__ import annotations

import itertools

import pytest

from pnp.nets import CROSS, Edge, boundary, cube_net, drawing, layout

MM = 72 / 25.4

# Worked out by hand from a paper cross (faces 0-3 round the middle, 4 above
# face 1, 5 below it), not from pnp's fold: the seven pairs of outer edges
# that meet on the cube.
CROSS_CLOSES = {
    frozenset({Edge(0, "left"), Edge(3, "right")}),
    frozenset({Edge(4, "top"), Edge(3, "top")}),
    frozenset({Edge(4, "left"), Edge(0, "top")}),
    frozenset({Edge(4, "right"), Edge(2, "top")}),
    frozenset({Edge(5, "left"), Edge(0, "bottom")}),
    frozenset({Edge(5, "right"), Edge(2, "bottom")}),
    frozenset({Edge(5, "bottom"), Edge(3, "bottom")}),
}


def _opposite(net, a: int, b: int) -> bool:  # type: ignore[no-untyped-def]
    return all(abs(x + y - 1) < 1e-9 for x, y in zip(net.centres[a], net.centres[b]))


def test_the_cross_folds_into_a_cube_graph() -> None:
    net = cube_net(CROSS)
    joined = [frozenset({a.face, b.face}) for a, b in net.folds] + [frozenset({t.face, o.face}) for t, o in net.tabs]
    assert len(net.folds) == 5 and len(net.tabs) == 7
    assert len(set(joined)) == 12 == len(joined), "a cube has twelve edges, each made once"
    for face in range(6):
        assert sum(face in pair for pair in joined) == 4, f"face {face} must have four neighbours"
    opposite = [(a, b) for a, b in itertools.combinations(range(6), 2) if _opposite(net, a, b)]
    assert sorted(opposite) == [(0, 2), (1, 3), (4, 5)]
    assert not [pair for pair in opposite if frozenset(pair) in joined], "opposite faces are never adjacent"


def test_every_tab_closes_an_edge_the_fold_leaves_open() -> None:
    net = cube_net(CROSS)
    assert {frozenset(pair) for pair in net.tabs} == CROSS_CLOSES
    folded = {e for pair in net.folds for e in pair}
    outer = [e for pair in net.tabs for e in pair]
    assert not folded & set(outer) and len(set(outer)) == 14, "each of the 14 outer edges is in exactly one glued pair"
    assert len(net.cut_edges()) == 7, "the edges that carry no tab are cut straight"


def test_tabs_sit_in_the_empty_squares_of_the_net_box() -> None:
    face, tab = 19 * MM, 6 * MM
    box = layout(cube_net(), face, tab)
    # Six tabs fit in the empty corners of the 4 x 3 box; only the strip's end needs room outside it.
    assert (round(box.width / MM, 3), round(box.height / MM, 3)) == (82.0, 57.0)
    assert [(round(x / MM, 3), round(y / MM, 3)) for x, y in box.faces] == [(6, 19), (25, 19), (44, 19), (63, 19), (25, 0), (25, 38)]


def test_the_drawing_folds_between_faces_and_cuts_round_them() -> None:
    d = drawing(cube_net(), 19 * MM, 6 * MM)
    assert len(d.folds) == 12 and len(d.cuts) == 7 and len(d.tabs) == 7
    for line in (*d.folds, *d.cuts):
        x1, y1, x2, y2 = line
        assert abs(abs(x2 - x1) + abs(y2 - y1) - 19 * MM) < 1e-6, "every fold and cut is one face long"
    for outline in d.tabs:
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        assert min(xs) >= -1e-6 and min(ys) >= -1e-6 and max(xs) <= d.box.width + 1e-6 and max(ys) <= d.box.height + 1e-6


@pytest.mark.parametrize("cells, why", [
    (((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)), "overlap"),
    (((0, 0), (1, 0), (2, 0), (3, 0), (0, 2), (1, 2)), "not all joined"),
    (((0, 0), (1, 0), (1, 1), (0, 1), (2, 0), (3, 0)), "overlap"),
])
def test_a_net_that_folds_into_no_cube_is_refused(cells, why) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=why):
        cube_net(cells)


def _inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    """Ray casting: ``point`` is inside ``polygon`` (not on its edge)."""
    x, y = point
    crossings = 0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


def test_the_boundary_is_one_closed_path_round_every_face_and_tab() -> None:
    face, tab = 19 * MM, 6 * MM
    net = cube_net()
    box = layout(net, face, tab)
    outline = boundary(net, face, tab)
    xs, ys = [x for x, _ in outline], [y for _, y in outline]
    assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx((0, 0, box.width, box.height))
    for x, y in box.faces:  # each face's centre, and points just inside its corners, are enclosed
        for dx, dy in ((0.5, 0.5), (0.01, 0.01), (0.99, 0.01), (0.01, 0.99), (0.99, 0.99)):
            assert _inside((x + dx * face, y + dy * face), outline)
    area = abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1]))) / 2
    inset = min(tab, face / 4)
    # Six squares and seven tabs (trapezoids): the path goes round each once, and round nothing else.
    assert area == pytest.approx(6 * face**2 + 7 * tab * (face - inset))
    assert len(outline) == len(set(outline)) == 7 * 4  # each tab's base ends and slanted corners, once each

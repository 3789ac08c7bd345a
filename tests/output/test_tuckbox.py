"""Tuck boxes sized from the deck they hold (issue 42): the inner size, the
net, and the die line measured back from the printed PDF."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from pnp.imposition.tuckbox import Deck, Inner, inner_size, net, tuck_flap
from pnp.units import to_mm
from tests.conftest import run_pnp
from tests.pdftools import prose


def test_the_inner_size_is_the_card_or_sleeve_and_the_stack_plus_the_tolerance() -> None:
    assert inner_size(Deck(63.5, 88.9, 45, 0.3)) == pytest.approx(Inner(64.5, 89.9, 14.5))
    sleeved = inner_size(Deck(63.5, 88.9, 45, 0.3, (66.0, 91.0, 0.08), 1.5))
    assert (sleeved.width, sleeved.height, sleeved.depth) == pytest.approx((67.5, 92.5, 45 * 0.38 + 1.5))


def test_the_net_is_one_closed_outline_around_its_panels() -> None:
    inner = Inner(64.5, 89.9, 14.5)
    (piece,) = net(inner)
    assert piece.width == pytest.approx(2 * 64.5 + 2 * 14.5 + 10)
    assert piece.height == pytest.approx(89.9 + 2 * (14.5 + tuck_flap(inner)))
    xs, ys = [x for x, _ in piece.cut], [y for _, y in piece.cut]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((0, piece.width, 0, piece.height))
    names = [p.name for p in piece.panels]
    assert sorted(names) == ["back", "bottom", "front", "side", "side", "top"]
    for panel in piece.panels:  # every panel lies inside the outline's bounds
        assert 0 <= panel.x and panel.x + panel.width <= piece.width + 1e-9
    a, b = net(inner, split=True)
    assert [p.name for p in a.panels] == ["front", "side"] and [p.name for p in b.panels][:1] == ["back"]
    assert a.width == pytest.approx(64.5 + 14.5 + 10) and b.width == pytest.approx(64.5 + 14.5 + 10)


def _lines(pdf: Path, page: int) -> tuple[list[tuple[float, float]], list[tuple[float, float, float, float]]]:
    """The die line's points and the dashed fold segments of ``page``, in mm."""
    with pikepdf.open(pdf) as document:
        ops = [(str(op), [v for v in args]) for args, op in pikepdf.parse_content_stream(document.pages[page - 1])]
    cut: list[tuple[float, float]] = []
    folds = []
    dashed, current = False, None
    for op, args in ops:
        if op == "d":
            dashed = len(args[0]) > 0
        elif op == "m":
            current = (to_mm(float(args[0])), to_mm(float(args[1])))
            if not dashed:
                cut = [current]
        elif op == "l":
            point = (to_mm(float(args[0])), to_mm(float(args[1])))
            if dashed and current is not None:
                folds.append((*current, *point))
            elif not dashed and cut:
                cut.append(point)
    return cut, folds


BOX = """boxes:
  - id: deck-box
    name: Deck box
    holds: [cards]
    stock: 0.5mm
    sleeves: {width: 66mm, height: 91mm, thickness: 0.1mm}
    tolerance: 1mm
    panels: {front: box.html}
"""


def test_the_printed_die_line_folds_into_the_computed_inner_size(tmp_path: Path, mini_copy: Path) -> None:
    (mini_copy / "templates" / "box.html").write_text("<p>{{ box.cards }} cards in {{ box.name }}</p>\n")
    (mini_copy / "game.yaml").write_text((mini_copy / "game.yaml").read_text() + BOX)
    built = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "letter", "--no-stamp")
    assert built.returncode == 0, built.stderr
    pdf = tmp_path / "out" / "mini" / "mini-boxes-letter.pdf"
    cards = 4  # the mini deck's copies: 1 + 2 + 1
    width, height, depth = 66 + 1, 91 + 1, cards * (0.5 + 0.1) + 1  # by hand, from the declaration
    cut, folds = _lines(pdf, 1)
    vertical = sorted(x0 for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6)
    assert len(vertical) == 4  # front | side | back | side | glue
    left = min(x for x, _ in cut)
    panels = [vertical[0] - left, vertical[1] - vertical[0], vertical[2] - vertical[1], vertical[3] - vertical[2]]
    assert panels == pytest.approx([width, depth, width, depth], abs=0.5)
    heights = [abs(y1 - y0) for x0, y0, x1, y1 in folds if abs(x0 - x1) < 1e-6]
    assert heights == pytest.approx([height] * 4, abs=0.5)
    back = sorted(y0 for x0, y0, x1, y1 in folds if abs(y0 - y1) < 1e-6 and x0 == pytest.approx(vertical[1], abs=1e-3))
    assert [back[1] - back[0], back[2] - back[1], back[3] - back[2]] == pytest.approx([depth, height, depth], abs=0.5)  # lids and back
    with pikepdf.open(pdf) as document:
        box = document.pages[0].mediabox
        assert [round(to_mm(float(v)), 1) for v in box] == [0, 0, 215.9, 279.4]
    assert cut and min(x for x, _ in cut) >= 5 and max(y for _, y in cut) <= 279.4 - 5  # inside the printer's margin
    assert "4 cards in Deck box" in prose(pdf)


def test_a_net_too_wide_for_the_paper_is_split_over_two_sheets_and_one_too_big_is_refused_at_its_line(
    tmp_path: Path, mini_copy: Path,
) -> None:
    (mini_copy / "templates" / "box.html").write_text("<p>{{ box.name }}</p>\n")
    text = (mini_copy / "game.yaml").read_text()
    (mini_copy / "game.yaml").write_text(text + BOX.replace("width: 66mm", "width: 95mm"))
    built = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "a4", "--no-stamp")
    assert built.returncode == 0, built.stderr
    pdf = tmp_path / "out" / "mini" / "mini-boxes-a4.pdf"
    with pikepdf.open(pdf) as document:
        assert len(document.pages) == 2
    first, second = (_lines(pdf, n)[1] for n in (1, 2))
    assert len([f for f in first if abs(f[0] - f[2]) < 1e-6]) == 2 and len([f for f in second if abs(f[0] - f[2]) < 1e-6]) == 2
    (mini_copy / "game.yaml").write_text(text + BOX.replace("width: 66mm, height: 91mm", "width: 95mm, height: 280mm"))
    refused = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "big"), "--paper", "a4", "--no-stamp")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    assert "game.yaml:37:5: boxes[0]: the box's net, even split in two, needs" in refused.stderr
    assert "expected fewer or thinner cards, or a larger paper" in refused.stderr

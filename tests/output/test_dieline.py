"""Die lines for factories (issue 42): the cut path in a named spot colour,
on its own optional-content layer, never in the art; read back with pikepdf."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Name

from pnp.pdf.dieline import path
from pnp.output.profiles import load_profiles
from pnp.units import mm, to_mm
from tests.conftest import run_pnp
from tests.pdftools import pdftotext


def test_the_factory_profile_names_cutcontour_and_print_on_demand_draws_none() -> None:
    profiles = load_profiles()
    assert profiles["factory"].die_line == "CutContour"
    assert profiles["drivethrucards"].die_line is None and profiles["home"].die_line is None


def test_a_circle_die_line_touches_the_trim_box_at_its_four_sides() -> None:
    numbers = [float(v) for v in path("circle", (10, 20, 60, 70)).replace("m", "").replace("c", "").replace("h", "").split()]
    points = list(zip(numbers[::2], numbers[1::2]))
    ends = [v for point in [points[0], *points[3::3]] for v in point]
    assert ends == pytest.approx([60, 45, 35, 70, 10, 45, 35, 20, 60, 45])  # start, then each arc's end
    assert path("rectangle", (1, 2, 11, 22)) == "1.000 2.000 10.000 20.000 re"


def _layered(page: pikepdf.Page) -> dict[str, list[bool]]:
    """For each spot colour ``page`` strokes or fills with: whether each use lies
    inside the die-line layer's marked content."""
    resources = page.obj.Resources
    spaces = {str(k): v for k, v in resources.get(Name.ColorSpace, {}).items()}
    layers = {str(k): v for k, v in resources.get(Name.Properties, {}).items()}
    uses: dict[str, list[bool]] = {}
    stack: list[bool] = []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op in ("BDC", "BMC"):
            group = layers.get(str(operands[1])) if op == "BDC" and str(operands[0]) == "/OC" else None
            stack.append(group is not None and str(group.Name) == "Die line")
        elif op == "EMC":
            stack.pop()
        elif op in ("CS", "cs"):
            space = spaces.get(str(operands[0]))
            if isinstance(space, pikepdf.Array) and space[0] == Name.Separation:
                uses.setdefault(str(space[1]), []).append(any(stack))
    return uses


def _spot_uses(pdf: pikepdf.Pdf, page: pikepdf.Page) -> tuple[list[bool], set[str]]:
    """For each use of a Separation colour space on ``page``: whether it lies
    inside the die-line layer's marked content; and the spot names found in
    the page's forms (the art)."""
    inside = [use for uses in _layered(page).values() for use in uses]
    resources = page.obj.Resources
    in_art = set()
    for form in resources.XObject.values():
        for space in form.get(Name.Resources, {}).get(Name.ColorSpace, {}).values():
            if isinstance(space, pikepdf.Array) and space[0] == Name.Separation:
                in_art.add(str(space[1]))
        assert b"CutContour" not in form.read_bytes()
    return inside, in_art


def test_the_spot_colour_is_only_on_the_cut_layer(mini_copy: Path, tmp_path: Path) -> None:
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("    each: crests\n", "    each: crests\n    die_line: circle\n", 1))
    done = run_pnp("build", str(mini_copy), "--profile", "factory", "--only", "sleeves,cards", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr  # preflight passes with the spot colour
    folder = tmp_path / "mini" / "factory"
    with pikepdf.open(folder / "mini-sleeves.pdf") as pdf:
        (group,) = pdf.Root.OCProperties.OCGs
        assert str(group.Name) == "Die line" and list(pdf.Root.OCProperties.D.ON) == [group]
        for page in pdf.pages:
            inside, in_art = _spot_uses(pdf, page)
            assert inside == [True] and not in_art
            (space,) = [s for s in page.obj.Resources.ColorSpace.values() if s[0] == Name.Separation]
            assert space[1] == Name("/CutContour") and space[2] == Name.DeviceCMYK
            trim = [float(v) for v in page.obj.TrimBox]
            stream = page.obj.Contents[-1].read_bytes().decode()
            assert f"{trim[2]:.3f} {(trim[1] + trim[3]) / 2:.3f} m" in stream and " c " in stream  # a circle at the trim
            assert "/PnpOP gs" in stream and page.obj.Resources.ExtGState.PnpOP.OP is True  # overprinted
    with pikepdf.open(folder / "mini-cards.pdf") as cards:  # cards are cut by the factory's own card dies
        assert Name.OCProperties not in cards.Root
        assert all(Name.ColorSpace not in page.obj.Resources for page in cards.pages)


def test_a_tuck_box_for_a_factory_has_its_die_line_in_the_spot_colour_only_on_the_cut_layer(mini_copy: Path, tmp_path: Path) -> None:
    from pnp.imposition.tuckbox import Deck, inner_size, net
    from tests.output.test_tuckbox import BOX

    (mini_copy / "templates" / "box.html").write_text("<p style='background: #225'>{{ box.cards }} cards in {{ box.name }}</p>\n")
    (mini_copy / "game.yaml").write_text((mini_copy / "game.yaml").read_text() + BOX)
    done = run_pnp("build", str(mini_copy), "--profile", "factory", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "mini" / "factory"
    (entry,) = [f for f in json.loads((folder / "index.json").read_text())["files"] if "box" in f]
    assert entry["box"] == "deck-box" and entry["preflight"]["passed"] is True
    (piece,) = net(inner_size(Deck(63.5, 88.9, 4, 0.5, (66, 91, 0.1), 1)))
    with pikepdf.open(folder / "mini-box-deck-box.pdf") as pdf:
        (page,) = pdf.pages
        trim, bleed = [float(v) for v in page.obj.TrimBox], [float(v) for v in page.obj.BleedBox]
        assert [to_mm(v) for v in trim] == pytest.approx([3, 3, 3 + piece.width, 3 + piece.height], abs=0.01)
        assert [to_mm(v) for v in bleed] == pytest.approx([0, 0, 6 + piece.width, 6 + piece.height], abs=0.01)
        assert _layered(page) == {"/CutContour": [True], "/Crease": [True]}
        (group,) = pdf.Root.OCProperties.OCGs
        assert str(group.Name) == "Die line"
        first = piece.cut[0]
        assert f"{mm(3 + first[0]):.3f} {mm(3 + first[1]):.3f} m" in page.obj.Contents[-1].read_bytes().decode()
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
    assert "4 cards in Deck box" in pdftotext(folder / "mini-box-deck-box.pdf")

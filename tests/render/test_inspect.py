"""inspect_layout: text that overflows its box, or leaves the safe zone, found after layout.

Pages are poker cards (63.5 x 88.9 mm). Type is the project's EB Garamond at
10pt on a 10pt line, so a paragraph of N lines is exactly N x 10pt tall and
overflows can be asserted to the tenth of a millimetre.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnp.errors import Source
from pnp.model import Game
from pnp.paths import OWN
from pnp.render.document import faces_html
from pnp.render.faces import Face
from pnp.render.inspect import LayoutFinding, inspect_layout, safe_box
from pnp.render.weasy import lay_out
from pnp.units import mm

FONT = OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf"
CARD = f"""<style>
@font-face {{ font-family: Card; src: url({FONT.as_uri()}); }}
@page {{ size: 63.5mm 88.9mm; margin: 0; }}
html, body {{ margin: 0; font: 10pt/10pt Card; }}
.card {{ position: relative; height: 88.9mm; overflow: hidden; break-after: page; }}
.flavour {{ position: absolute; left: 6mm; top: 40mm; width: 51.5mm; height: 24pt; overflow: hidden; }}
p {{ margin: 0; }}
</style>"""
SAFE_3MM = (mm(3), mm(3), mm(63.5 - 6), mm(88.9 - 6))
"""A 3 mm safe margin on a card without bleed, in points."""
SHORT = "<p>A short line.</p>"
SIX_LINES = "<p>" + "<br>".join(["Once more the tide"] * 6) + "</p>"
"""60pt of text: 36pt (12.7 mm) more than .flavour's 24pt."""


def cards(*flavours: str) -> Any:
    """One card page per flavour text, laid out."""
    body = "".join(f'<section class="card"><div class="flavour">{text}</div></section>' for text in flavours)
    return lay_out(CARD + body)


def bled_face(html: str) -> Face:
    """A poker card with 3 mm bleed and a 3 mm safe margin."""
    return Face("k", html, "deck", mm(63.5), mm(88.9), mm(3), mm(3), "deck/one front")


def laid_out(face: Face) -> Any:
    """``face`` laid out through pnp's own face document, as a build does."""
    game = Game(
        id="g", name="G", edition=None, version="1", description=None, root=Path(__file__).parent,
        players=(2, 4), fonts=(), styles=(), sets={}, components=(), source=Source(Path("game.yaml")),
    )
    return lay_out(faces_html(game, [face], []))


def test_text_that_fits_its_box_is_not_reported() -> None:
    assert inspect_layout(cards(SHORT), [SAFE_3MM]) == []


def test_overlong_text_is_reported_once_against_its_box_with_the_amount() -> None:
    assert inspect_layout(cards(SIX_LINES), [SAFE_3MM]) == [
        LayoutFinding(0, "overflow", "div.flavour", "text overflows its box by 12.7 mm (bottom edge); the overflow is hidden")
    ]


def test_only_the_page_that_overflows_is_reported() -> None:
    findings = inspect_layout(cards(SHORT, SIX_LINES), [SAFE_3MM, SAFE_3MM])
    assert [(f.page, f.kind, f.element) for f in findings] == [(1, "overflow", "div.flavour")]


def test_text_cut_to_an_ellipsis_counts_as_overflow() -> None:
    title = '<p style="white-space: nowrap; text-overflow: ellipsis; overflow: hidden">' + "Lady " * 30 + "</p>"
    findings = inspect_layout(cards(title), [None])
    assert [(f.kind, f.element) for f in findings] == [("overflow", "div.flavour p")]
    assert "(right edge)" in findings[0].message


def test_text_cut_short_by_line_clamp_counts_as_overflow() -> None:
    clamped = '<p style="line-clamp: 2">' + "<br>".join(["Once more the tide"] * 6) + "</p>"
    assert inspect_layout(cards(clamped), [None]) == [
        LayoutFinding(0, "overflow", "div.flavour p", "text is cut short to fit (line-clamp or block-ellipsis)")
    ]


def test_text_1mm_from_the_trim_edge_is_outside_a_3mm_safe_zone() -> None:
    face = bled_face('<div class="cost" style="position: absolute; left: 4mm; top: 30mm">7</div>')
    assert safe_box(face) == pytest.approx((mm(6), mm(6), mm(57.5), mm(82.9)))
    assert inspect_layout(laid_out(face), [safe_box(face)]) == [
        LayoutFinding(0, "safe-zone", "div.cost", "text reaches 2.0 mm past the safe zone (left edge)")
    ]


def test_text_inside_the_safe_zone_is_not_reported() -> None:
    face = bled_face('<div class="cost" style="position: absolute; left: 6.5mm; top: 30mm">7</div>')
    assert inspect_layout(laid_out(face), [safe_box(face)]) == []


def test_none_skips_the_safe_zone_check() -> None:
    face = bled_face('<div class="cost" style="position: absolute; left: 4mm; top: 30mm">7</div>')
    assert inspect_layout(laid_out(face), [None]) == []


def test_full_bleed_art_without_text_is_not_reported() -> None:
    svg = "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10' fill='teal'/></svg>"
    face = bled_face(
        '<div class="bleed" style="background: #345"></div>'
        f'<img class="art" src="{svg}" style="position: absolute; left: -2mm; top: -2mm; width: 80mm; height: 100mm">'
    )
    assert inspect_layout(laid_out(face), [safe_box(face)]) == []


def test_rotated_text_is_checked_where_it_is_drawn() -> None:
    # A 40 mm wide label on a 10pt line, turned upright about its centre: its
    # text spans 1.76 mm either side of the centre, across the card. Unturned,
    # the word would lie well inside the safe zone in both cases.
    def label(centre_mm: float) -> Face:
        return bled_face(
            f'<div class="side" style="position: absolute; left: {centre_mm - 20}mm; top: 40mm; width: 40mm; '
            "font: 10pt/10pt 'EB Garamond'; transform: rotate(90deg)\">Side</div>"
        )

    inside, near_edge = label(55), label(64.5)
    assert inspect_layout(laid_out(inside), [safe_box(inside)]) == []
    assert inspect_layout(laid_out(near_edge), [safe_box(near_edge)]) == [
        LayoutFinding(0, "safe-zone", "div.side", "text reaches 2.8 mm past the safe zone (right edge)")
    ]


def test_absolutely_positioned_text_is_not_its_static_parents_overflow() -> None:
    face = bled_face(
        '<div class="header" style="margin: 8mm 8mm 0; height: 10mm">Title'
        '<span class="cost" style="position: absolute; left: 30mm; top: 60mm">3</span></div>'
    )
    assert inspect_layout(laid_out(face), [safe_box(face)]) == []


def test_text_past_the_page_edge_overflows_the_page() -> None:
    face = bled_face('<div class="rules" style="position: absolute; left: 10mm; top: 92mm">Off the edge</div>')
    findings = inspect_layout(laid_out(face), [None])
    assert [(f.kind, f.element) for f in findings] == [("overflow", "div.rules")]
    assert findings[0].message.startswith("text overflows the page by ")


def test_more_safe_boxes_than_pages_is_an_error() -> None:
    with pytest.raises(ValueError, match="2 safe boxes given for a document of 1 pages"):
        inspect_layout(cards(SHORT), [SAFE_3MM, SAFE_3MM])


WORD = "<p class=\"word\" style=\"position: absolute; left: 10mm; top: 30mm; margin: 0; font: 10pt/10pt 'EB Garamond'\">Words</p>"
"""A word from 10 mm across and 30 mm down, on a 10pt (3.5 mm) line."""


@pytest.mark.parametrize(
    "patch, found",
    [
        # After the word in the document and positioned, so painted over it.
        ('<div class="patch" style="position: absolute; left: 12mm; top: 29mm; width: 4mm; height: 8mm; background: #345"></div>',
         "its text is drawn under div.patch (4.0 mm across, 3.5 mm down)"),
        # After it too, but z-index -1 paints it first: the word is on top, and runs past the patch's edge.
        ('<div class="patch" style="position: absolute; left: 12mm; top: 29mm; width: 4mm; height: 8mm; background: #345; z-index: -1"></div>',
         "its text is drawn over div.patch and past its edge (4.0 mm across, 3.5 mm down)"),
        # An inline SVG, turned: measured where it is drawn (its 4 mm square turned 45 degrees spans 5.7 mm).
        ('<svg class="mark" width="4mm" height="4mm" style="position: absolute; left: 12mm; top: 30mm; transform: rotate(45deg)">'
         '<rect width="100%" height="100%" fill="teal"/></svg>',
         "its text is drawn under svg.mark (5.7 mm across, 3.5 mm down)"),
    ],
    ids=["over", "z-index", "inline-svg"],
)
def test_art_over_or_under_text_is_found_in_weasyprints_paint_order(patch: str, found: str) -> None:
    face = bled_face(WORD + patch)
    assert inspect_layout(laid_out(face), [safe_box(face)]) == [LayoutFinding(0, "overlap", "p.word", found)]


def test_text_past_its_own_background_or_wholly_on_a_ground_is_not_under_art() -> None:
    face = bled_face(
        '<div class="ground" style="position: absolute; left: 5mm; top: 5mm; width: 50mm; height: 70mm; background: #eee"></div>'
        '<div class="plate" style="position: absolute; left: 10mm; top: 50mm; width: 8mm; background: #ddd; white-space: nowrap">'
        "Plate of words</div>" + WORD
    )
    assert inspect_layout(laid_out(face), [safe_box(face)]) == []

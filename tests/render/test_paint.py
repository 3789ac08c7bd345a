"""A page whose paint order pnp read is drawn with the stacking contexts
built for it (pnp/render/paint.py), into the bytes it has when drawing
builds them anew."""

from __future__ import annotations

import pytest

from pnp.render.paint import paint_order
from pnp.render.weasy import lay_out, load_weasyprint

_PAGE = """<html><head><style>
@page { size: 60mm 40mm; margin: 0 }
body { margin: 0 }
.a { position: absolute; left: 2mm; top: 2mm; width: 20mm; height: 10mm; background: #c03; z-index: 2 }
.b { position: relative; z-index: -1; background: rgba(0, 60, 200, 0.5); height: 8mm }
.c { float: right; width: 10mm; height: 10mm; background: #0a0; transform: rotate(10deg) }
.d { position: absolute; left: 50%; bottom: 1mm; transform: translateX(-50%); background: rgba(255, 255, 255, 0.8);
     border-radius: 0.5mm; opacity: 0.9 }
section { break-after: page; position: relative; height: 40mm }
</style></head><body>
<section><div class="a"></div><div class="b"></div><div class="c"></div><p>flow</p><span class="d">stamp</span></section>
<section><div class="c"></div><p style="position: relative; z-index: 3">two</p></section>
</body></html>"""


def _pdf(read_order: bool) -> bytes:
    document = lay_out(_PAGE)
    if read_order:
        for page in document.pages:
            paint_order(page._page_box)
    data = document.write_pdf()
    assert isinstance(data, bytes)
    return data


def test_a_page_is_drawn_with_the_contexts_its_paint_order_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's stacking contexts are built once for reading its paint
    order and drawing it (twice before: failed before), into the same bytes."""
    weasyprint = load_weasyprint()
    stacking = weasyprint.stacking.StackingContext
    anew = _pdf(read_order=False)
    built: list[object] = []
    original = stacking.from_box
    monkeypatch.setattr(stacking, "from_box", classmethod(lambda cls, box, page, *rest: built.append(box) or original(box, page, *rest)))
    read = _pdf(read_order=True)
    assert read == anew
    assert len([box for box in built if getattr(box, "element_tag", None) == "html"]) == 2  # each page's root, once


def test_contexts_are_handed_over_once() -> None:
    """A second drawing of the same page builds its contexts again."""
    document = lay_out(_PAGE)
    page = document.pages[0]._page_box
    paint_order(page)
    load_weasyprint()
    from weasyprint.stacking import StackingContext

    first = StackingContext.from_page(page)
    second = StackingContext.from_page(page)
    assert first is not second
    assert document.write_pdf() == _pdf(read_order=False)

"""Font subsets without a C parser run per document (pnp.render.ctypesizes):
once a process has laid out a document, another one whose font subsets
hold other numbers of glyphs makes cffi parse no new C type."""

from __future__ import annotations

from pnp.loading.loader import load_game
from pnp.render.document import own_pages_html
from pnp.render.scope import scope_for
from pnp.render.dispatch import render_many
from pnp.render.weasy import load_weasyprint
from tests.conftest import MINI

WORDS = "Sphinx of black quartz, judge my vow; the five boxing wizards jump quickly. "


def test_a_documents_font_subsets_parse_no_c_type_the_process_has_not_seen() -> None:
    weasyprint = load_weasyprint()
    ffi = weasyprint.pdf.fonts.ffi
    game = load_game(MINI)
    documents = [own_pages_html(game, f"<p>{WORDS[:length]}</p>", []) for length in (5, 20, 40, 75)]
    render_many([(documents[0], "the first document", None)], scope_for(game))
    parsed = set(ffi._parsed_types)
    for number, html in enumerate(documents[1:]):
        render_many([(html, f"document {number}", None)], scope_for(game), workers=1)
    assert set(ffi._parsed_types) - parsed == set()

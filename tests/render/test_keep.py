"""stranded_headings: a heading left at a page's foot with too little of its
text, the rest overleaf, is found after layout; a build reports it at the
document's file, and the shipped rulebooks have none.

Pages are 100 pt tall with no margins; type is the project's EB Garamond at
10pt on a 10pt line and headings are 10pt lines too, so a page holds exactly
ten lines and where each one falls is known.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnp.output.home.pages import document_html
from pnp.loading.loader import load_game
from pnp.loading.presets import load_papers
from pnp.paths import OWN
from pnp.render.scope import scope_for
from pnp.render.keep import KEEP_LINES, _marks, stranded_headings
from pnp.render.weasy import lay_out, load_weasyprint
from tests.conftest import run_pnp

PROJECT = Path(__file__).resolve().parents[2]
FONT = OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf"
PAGE = f"""<style>
@font-face {{ font-family: Doc; src: url({FONT.as_uri()}); }}
@page {{ size: 200pt 100pt; margin: 0; @bottom-center {{ content: counter(page); font: 8pt Doc; }} }}
html, body {{ margin: 0; font: 10pt/10pt Doc; }}
h2 {{ margin: 0; font: 10pt/10pt Doc; break-after: avoid; }}
p {{ margin: 0; orphans: 1; widows: 1; }}
</style>"""


def lines(n: int, word: str = "line") -> str:
    return "".join(f"<p>{word} {k}</p>" for k in range(n))


def laid(body: str) -> Any:
    return lay_out(PAGE + body)


def test_a_heading_with_one_line_at_the_foot_is_found_with_its_page_and_count() -> None:
    found = stranded_headings(laid(lines(8) + "<h2>Setting up</h2>" + lines(5, "step")))
    assert [(f.page, f.kind, f.element) for f in found] == [(0, "keep", "h2")]
    assert found[0].message.startswith('h2 "Setting up" is left at the foot of the page with 1 line of its text, the rest overleaf; '
                                       f"expected at least {KEEP_LINES} lines below it")


def test_enough_lines_below_the_heading_are_not_reported() -> None:
    assert stranded_headings(laid(lines(10 - 1 - KEEP_LINES) + "<h2>Setting up</h2>" + lines(6, "step"))) == []


def test_a_section_that_ends_on_its_page_is_not_reported() -> None:
    """The heading's one line is all its section holds: the next page opens with the next heading."""
    body = lines(8) + "<h2>Short</h2>" + "<p>only line</p>" + '<h2 style="break-before: page">Next</h2>' + lines(3)
    assert stranded_headings(laid(body)) == []


def test_the_last_page_and_page_numbers_do_not_count() -> None:
    """A heading on the last page has nothing overleaf; the page number in
    the margin is not a line of the heading's text."""
    assert stranded_headings(laid(lines(8) + "<h2>Last</h2>" + lines(1))) == []
    found = stranded_headings(laid(lines(7) + "<h2>Numbered</h2>" + lines(2) + lines(4, "more")))
    assert [f.message.split(" of its text")[0] for f in found] == ['h2 "Numbered" is left at the foot of the page with 2 lines']


def test_a_build_reports_the_heading_at_its_document_and_page_and_strict_refuses_it(tmp_path: Path, mini_copy: Path) -> None:
    """A game's rulebook with a heading stranded on page 1: a warning that
    names the file and page; under --strict, an error (exit 2)."""
    (mini_copy / "templates" / "book.html").write_text(
        "<style>@page { size: A6; margin: 10mm; } h2 { break-after: avoid; margin: 0; } p { margin: 0; }</style>"
        + "".join(f"<p>Line {k}</p>" for k in range(26)) + "<h2>Setting up</h2>" + "".join(f"<p>Step {k}</p>" for k in range(8)),
        encoding="utf-8",
    )
    text = (mini_copy / "game.yaml").read_text(encoding="utf-8")
    (mini_copy / "game.yaml").write_text(text + "\ndocuments:\n  - {id: book, name: Book, template: book.html}\n", encoding="utf-8")
    built = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "a4")
    assert built.returncode == 0, built.stderr
    assert "mini-book-a4.pdf: warning: page 1: h2 \"Setting up\" is left at the foot of the page with" in built.stderr + built.stdout
    strict = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "strict"), "--paper", "a4", "--strict")
    assert strict.returncode == 2 and "Traceback" not in strict.stderr
    assert "mini-book-a4.pdf: page 1: h2 \"Setting up\"" in strict.stderr


@pytest.mark.parametrize("game", ["persuasion-b04", "persuasion-d01", "partisan"])
def test_the_shipped_rulebooks_keep_their_headings_with_their_text(game: str) -> None:
    """Every document of every shipped game, laid out on A4 and on Letter as
    a build does: no heading stranded, and no last page holding a few lines
    alone (B04's Letter rulebook once ended on a page of four)."""
    loaded = load_game(PROJECT / "card_data" / game)
    papers = load_papers()
    boxes = load_weasyprint().formatting_structure.boxes  # pnp's font configuration first

    roots = [root.resolve() for root in scope_for(loaded).roots]
    assert loaded.documents
    for document in loaded.documents:
        for paper in ("a4", "letter"):
            laid = lay_out(document_html(loaded, document, papers[paper]), roots[0].as_uri() + "/", None, roots)
            assert stranded_headings(laid) == [], f"{document.id} on {paper}: {stranded_headings(laid)}"
            last = {mark.top for mark in _marks(laid.pages[-1]._page_box, boxes) if mark.tag is None}
            assert len(last) >= 10, f"{document.id} on {paper}: the last page holds {len(last)} lines"

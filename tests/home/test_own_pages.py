"""pnp's own pages (each file's printing instructions, the registration
test) are styled by pnp alone: a game's stylesheet restyles its cards and
its documents, never them. And one build reports every error its layouts
find together: a document that fails hides no card's error, nor another
document's."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.errors import AssetError
from pnp.output.home.pages import instructions_html
from pnp.output.home.registration import registration_html
from pnp.loading.loader import load_game
from pnp.loading.presets import load_papers
from pnp.model import Game
from pnp.render.dispatch import LayoutFailed, render_many, render_pdf
from pnp.render.document import pages_html
from pnp.render.scope import scope_for
from tests.conftest import run_pnp

LOUD = "h1 { color: red; font-size: 40pt; }\nbody { font-family: Undeclared; }\n"
"""A game's rules that would change pnp's headings and set its text in a font nobody declared."""


def _styled(game_dir: Path, css: str) -> Game:
    """The game at ``game_dir`` with a stylesheet of ``css`` for all its pages."""
    (game_dir / "templates" / "loud.css").write_text(css, encoding="utf-8")
    text = (game_dir / "game.yaml").read_text(encoding="utf-8")
    (game_dir / "game.yaml").write_text(text + "style: [loud.css]\n", encoding="utf-8")
    return load_game(game_dir)


PAGES = {
    "printing instructions": lambda game, paper: instructions_html(game, paper, [], 1),
    "the registration test": registration_html,
}


@pytest.mark.parametrize("name", PAGES)
def test_a_games_stylesheet_leaves_pnps_own_pages_as_they_were(mini_copy: Path, name: str) -> None:
    """The same game with and without a stylesheet that sets ``h1`` and the
    body's font: page 1 and the registration test are the same bytes (before,
    the instructions' heading turned red and the registration test was
    refused for its undeclared font)."""
    plain = load_game(mini_copy)
    loud = _styled(mini_copy, LOUD)
    assert loud.styles and not plain.styles
    a4 = load_papers()["a4"]
    page = PAGES[name]
    assert render_pdf(page(loud, a4), scope_for(loud), name) == render_pdf(page(plain, a4), scope_for(plain), name)


def test_a_build_with_such_a_stylesheet_reports_the_cards_it_reaches(tmp_path: Path, mini_copy: Path) -> None:
    """The body font reaches the cards' backs, whose text names no font of
    its own: those are the errors told (before, the registration test's
    errors alone were, and hid them); pnp's pages have none."""
    (mini_copy / "templates" / "mini" / "back.html").write_text('<div class="safe">{{ game.name }}</div>\n', encoding="utf-8")
    _styled(mini_copy, LOUD)
    built = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "a4")
    assert built.returncode == 2 and "Traceback" not in built.stderr, built.stderr
    assert "cards/one back" in built.stderr and "'Undeclared' is not a declared font" in built.stderr
    assert "registration" not in built.stderr and "instructions" not in built.stderr


def test_every_document_that_fails_in_a_batch_is_told_and_the_rest_are_kept(tmp_path: Path) -> None:
    game = load_game(Path(__file__).resolve().parents[1] / "fixtures" / "mini")

    def _page(text: str) -> str:
        return pages_html(game, f"<p>{text}</p>", [])

    outside = tmp_path.parent / "elsewhere.png"
    jobs = [
        (_page('<span style="font-family: Nowhere">one</span>'), "document one", None),
        (_page("fine"), "document two", None),
        (_page(f'<img src="{outside.as_uri()}">'), "document three", None),
    ]
    with pytest.raises(LayoutFailed) as caught:
        render_many(jobs, scope_for(game), workers=1)
    told = [str(d) for d in caught.value.diagnostics]
    assert [line.split(":")[0] for line in told] == ["document one", "document three"]
    assert "Nowhere" in told[0] and "refused to read" in told[1]
    kept = caught.value.results
    assert isinstance(kept[0], AssetError) and isinstance(kept[2], AssetError)
    assert isinstance(kept[1], tuple) and kept[1][0].startswith(b"%PDF")


def test_a_build_reports_a_cards_error_and_every_documents_error_together(tmp_path: Path, mini_copy: Path) -> None:
    """A card in a font nobody declared and two rulebooks that fail: exit 2
    with all three, not just the first document's; and the same again from
    the cache."""
    (mini_copy / "templates" / "mini" / "back.html").write_text('<p style="font-family: CardFont">{{ game.name }}</p>\n')
    (mini_copy / "templates" / "book.html").write_text('<p style="font-family: BookFont">Rules</p>\n')
    (mini_copy / "templates" / "other.html").write_text("<p>A snowman: \u2603</p>\n", encoding="utf-8")
    text = (mini_copy / "game.yaml").read_text(encoding="utf-8")
    (mini_copy / "game.yaml").write_text(
        text + "\ndocuments:\n  - {id: book, name: Book, template: book.html}\n  - {id: other, name: Other, template: other.html}\n",
        encoding="utf-8",
    )
    built = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "a4")
    assert built.returncode == 2 and "Traceback" not in built.stderr, built.stderr
    assert "CardFont" in built.stderr
    assert "document book:" in built.stderr and "BookFont" in built.stderr
    assert "document other:" in built.stderr and "U+2603" in built.stderr
    assert not (tmp_path / "out" / "mini" / "mini-home-a4.pdf").exists()
    again = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "a4")
    assert (again.returncode, again.stderr) == (2, built.stderr)  # what laid out was cached, with its findings

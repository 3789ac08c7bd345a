"""Counts read as a person would write them: one card, two cards."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.iterate.watch import Rebuild, describe
from pnp.words import count
from tests.conftest import MINI, run_pnp


def test_count_is_singular_for_exactly_one() -> None:
    assert [count(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [count(n, "copy") for n in (1, 4)] == ["1 copy", "4 copies"]
    assert count(3, "die", "dice") == "3 dice"


def test_watch_says_one_file_and_why_faces_were_laid_out_when_no_card_changed() -> None:
    one = describe(Rebuild(0.5, ("cards/one",), 1, ("g-home-a4.pdf",), 0))
    assert one.endswith("1 card changed: cards/one; 1 face laid out; 1 file changed: g-home-a4.pdf")
    styled = describe(Rebuild(0.5, (), 14, ("a.pdf", "b.pdf"), 1), ["/g/templates/persuasion/persuasion.css"])
    assert styled.endswith(": stylesheet persuasion.css changed: 14 faces laid out again; 2 files changed: a.pdf and b.pdf (1 the same); no card data changed")
    unknown = describe(Rebuild(0.5, (), 1, ("a.pdf",), 2))
    assert unknown.endswith(": a template, stylesheet, art or font file changed: 1 face laid out again; 1 file changed: a.pdf (2 the same); no card data changed")
    many = describe(Rebuild(0.5, (), 3, ("a.pdf", "b.pdf", "c.pdf", "d.pdf")), ["a.css", "b.css", "c.html", "d.svg"])
    assert ": 4 files (art, stylesheet, template) changed: 3 faces" in many and "4 files changed: a.pdf, b.pdf and 2 more" in many
    assert "nothing changed; no file changed (1 file the same)" in describe(Rebuild(0.1, (), 0, (), 1))
    assert "nothing changed; no file written" in describe(Rebuild(0.1, (), 0))


def test_list_counts_copies_and_cards_in_words() -> None:
    done = run_pnp("list", str(MINI))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "  sleeves: Sleeves, 4 copies of 2 cards (poker)" in lines, done.stdout
    assert not any("of 1 cards" in line or "1 copies" in line for line in lines)


def test_a_component_of_one_card_says_one_card() -> None:
    done = run_pnp("list", "persuasion-b04")
    assert done.returncode == 0, done.stderr
    assert "  reference: Player aids, 8 copies of 1 card (poker)" in done.stdout.splitlines()


def _watch_once(game: Path, out: Path, monkeypatch: pytest.MonkeyPatch, edit: Callable[[], None]) -> list[str]:
    """``pnp watch --builds 1`` through the command line: the first build, then
    ``edit`` (made where the watcher warms up, after it has looked at the
    files), then the one rebuild it starts."""
    import pnp.iterate.watch as watching

    monkeypatch.setattr(watching, "warm_up", edit)
    done = CliRunner().invoke(main, ["watch", str(game), "--out", str(out), "--builds", "1", "--no-stamp"])
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"game folder {game}; project "), done.output
    return [line for line in done.output.splitlines() if line.startswith("rebuilt")]


def test_watch_names_the_cards_a_saved_stylesheet_changed(mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a stylesheet every face uses changes every card, as a card's
    data would: the watcher names them (their manifest keys changed)."""
    sheet = mini_copy / "templates" / "mini" / "mini.css"
    sheet.write_text("h1 { font-size: 12pt; }\n")
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("sets:\n", "style: [mini/mini.css]\nsets:\n", 1))
    first, again = _watch_once(mini_copy, tmp_path / "out", monkeypatch, lambda: sheet.write_text("h1 { font-size: 13pt; }\n"))
    every = ": 5 cards changed: cards/one, cards/three, cards/two, sleeves/blue, sleeves/red; "
    assert every in first, first
    # The home PDF changed; the duplex registration test page was written again with the same bytes.
    assert every in again and again.endswith("; 1 file changed: mini-home-a4.pdf (1 the same)"), again


def test_watch_says_one_card_when_one_card_changed(mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = mini_copy / "cards.yaml"
    _, again = _watch_once(mini_copy, tmp_path / "out", monkeypatch, lambda: cards.write_text(cards.read_text().replace("title: One", "title: Uno")))
    assert ": 1 card changed: cards/one; " in again and "; 1 file changed: mini-home-a4.pdf (1 the same)" in again, again
    assert "1 files" not in again and "1 cards" not in again


def test_list_through_the_command_line_says_one_copy_and_one_card(mini_copy: Path) -> None:
    cards = mini_copy / "cards.yaml"
    text = cards.read_text()
    one = text[: text.index("  - id:", text.index("  - id:") + 1)]  # the first card only
    cards.write_text(one.replace("copies: 2", "copies: 1"))
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("    copies: 2\n", "    copies: 1\n"))
    done = CliRunner().invoke(main, ["list", str(mini_copy)])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert "  sleeves: Sleeves, 2 copies of 2 cards (poker)" in lines, done.output
    assert any(line.startswith("  cards: Cards, 1 copy of 1 card (") for line in lines), done.output


def test_check_and_a_bad_input_count_one_error_as_one(mini_copy: Path) -> None:
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("components:\n", "checks:\n  supply:\n    - {component: sleeves, total_at_least: 5, why: five in all}\ncomponents:\n", 1))
    checked = CliRunner().invoke(main, ["check", str(mini_copy), "--games", "0"])
    assert checked.exit_code == 1, checked.output
    assert checked.output.splitlines()[-1] == "mini: NOT OK: 1 error, 0 warnings", checked.output
    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("copies: 2", "copies: two"))
    listed = CliRunner().invoke(main, ["list", str(mini_copy)])
    assert listed.exit_code == 2
    assert "1 error; nothing was built." in listed.output, listed.output

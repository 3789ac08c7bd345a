"""What `pnp watch` and `pnp serve` look at: the files of a game, not an editor's own."""

from __future__ import annotations

from pathlib import Path

from pnp.iterate.watch import changed_files, snapshot


def test_editors_scratch_files_are_not_the_game(tmp_path: Path) -> None:
    game = tmp_path / "game"
    (game / "art").mkdir(parents=True)
    (game / "cards.ods").write_bytes(b"sheet")
    (game / "art" / "crest.svg").write_text("<svg/>")
    before = snapshot([game])
    assert sorted(Path(k).name for k in before) == ["cards.ods", "crest.svg"]
    # Opening the workbook in LibreOffice or Excel, editing in vim or emacs: nothing to rebuild.
    for name in (".~lock.cards.ods#", "~$cards.xlsx", ".cards.yaml.swp", "#cards.yaml#", "cards.yaml~"):
        (game / name).write_text("editor")
    assert changed_files(before, snapshot([game])) == []
    # A real file (even one whose name merely contains those marks) is seen.
    for name in ("cards~v2.yaml", "deck#1.csv"):
        (game / name).write_text("cards: []")
    assert sorted(Path(k).name for k in changed_files(before, snapshot([game]))) == ["cards~v2.yaml", "deck#1.csv"]

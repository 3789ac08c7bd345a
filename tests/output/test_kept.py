"""Files a build wrote before from the same inputs are kept, not written
again (pnp.output.kept): a warm build with nothing changed leaves every PDF
as it was; a file edited or damaged since, or an input changed, is written
again."""

from __future__ import annotations

import json
from pathlib import Path

from pnp.output.kept import INDEX, Kept, key_of
from tests.conftest import run_pnp

PDFS = ("mini-home-a4.pdf", "registration-test-a4.pdf")


def _build(game: Path, out: Path) -> None:
    result = run_pnp("build", str(game), "--paper", "a4", "--out", str(out))
    assert result.returncode == 0, result.stderr


def test_a_warm_build_keeps_every_pdf_and_writes_again_what_changed(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(mini_copy, out)
    folder = out / "mini"
    before = {name: ((folder / name).stat().st_ino, (folder / name).read_bytes()) for name in PDFS}
    _build(mini_copy, out)
    # Kept: the same file (the commit links what it does not replace), not a copy written again.
    assert {name: ((folder / name).stat().st_ino, (folder / name).read_bytes()) for name in PDFS} == before
    # A file damaged since is written again, as it was.
    home = folder / "mini-home-a4.pdf"
    home.write_bytes(home.read_bytes()[:-100])
    _build(mini_copy, out)
    assert home.read_bytes() == before["mini-home-a4.pdf"][1]
    # An edited card: the home file again, the registration test kept.
    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: ", "title: New ", 1))
    _build(mini_copy, out)
    assert home.read_bytes() != before["mini-home-a4.pdf"][1]
    assert (folder / PDFS[1]).stat().st_ino == before[PDFS[1]][0]


def test_the_record_is_believed_only_with_the_file_and_the_key_it_names(tmp_path: Path) -> None:
    target = tmp_path / "a.pdf"
    target.write_bytes(b"%PDF one")
    key = key_of(["inputs"])
    first = Kept(tmp_path)
    assert not first.unchanged(target, key)  # no record yet
    first.written(target, key, target.read_bytes())
    (tmp_path / INDEX).parent.mkdir()
    (tmp_path / INDEX).write_bytes(first.record())
    assert Kept(tmp_path).unchanged(target, key)
    assert not Kept(tmp_path).unchanged(target, key_of(["other inputs"]))
    target.write_bytes(b"%PDF two")
    assert not Kept(tmp_path).unchanged(target, key)
    for damaged in (b"{", b"[]", json.dumps({"a.pdf": [key]}).encode(), json.dumps({"a.pdf": [key, 7]}).encode()):
        (tmp_path / INDEX).write_bytes(damaged)
        assert not Kept(tmp_path).unchanged(target, key)


def test_keys_keep_their_parts_apart() -> None:
    assert key_of(["ab", "c"]) != key_of(["a", "bc"])
    assert key_of([b"x"]) == key_of(["x"])

"""A home build with nothing changed since the last one says so and writes
nothing (pnp.output.fresh); any change to what the build reads, or to what
it wrote, builds again."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pnp.output import fresh
from pnp.output.fresh import RECORD, Report, check_fresh, remember
from tests.conftest import run_pnp

KEPT = "nothing changed since the last build, every file kept"


def _build(game: Path, out: Path, *more: str) -> str:
    result = run_pnp("build", str(game), "--paper", "a4", "--out", str(out), *more)
    assert result.returncode == 0, result.stderr
    return result.stdout + result.stderr


def _age(folder: Path) -> None:
    """Date every file in ``folder`` an hour back, as a game not edited just now."""
    old = time.time() - 3600
    for path in folder.rglob("*"):
        os.utime(path, (old, old))


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}


def test_nothing_changed_is_said_and_nothing_is_written(mini_copy: Path, tmp_path: Path) -> None:
    _age(mini_copy)
    out = tmp_path / "out"
    first = _build(mini_copy, out)
    assert KEPT not in first
    files = _files(out / "mini")
    again = _build(mini_copy, out)
    assert KEPT in again and "laid out 0 documents" in again
    assert _files(out / "mini") == files
    # The same report: its file lines and warnings as the build said them.
    assert [line for line in again.splitlines() if line.startswith("  ")] == [line for line in first.splitlines() if line.startswith("  ")]


@pytest.mark.parametrize("change", ["card", "template", "output deleted", "output edited", "options"])
def test_any_change_builds_again(mini_copy: Path, tmp_path: Path, change: str) -> None:
    _age(mini_copy)
    out = tmp_path / "out"
    _build(mini_copy, out)
    home = out / "mini" / "mini-home-a4.pdf"
    built = home.read_bytes()
    more: tuple[str, ...] = ()
    if change == "card":
        cards = mini_copy / "cards.yaml"
        cards.write_text(cards.read_text().replace("title: ", "title: New ", 1))
    elif change == "template":
        template = mini_copy / "templates/mini/card.html"
        template.write_text(template.read_text().replace("<h1>", "<h1>Dear ", 1))
    elif change == "output deleted":
        home.unlink()
    elif change == "output edited":
        home.write_bytes(built[:-10])
    else:
        more = ("--no-stamp",)
    assert KEPT not in _build(mini_copy, out, *more)
    if change.startswith("output"):
        assert home.read_bytes() == built


def test_a_build_whose_inputs_were_just_modified_is_not_recorded(mini_copy: Path, tmp_path: Path) -> None:
    """An input modified while the build ran (or within the file system's
    time resolution before it started) may have been read before the edit."""
    _age(mini_copy)
    soon = time.time() + 3600  # as if modified after the build started, whenever it runs
    os.utime(mini_copy / "cards.yaml", (soon, soon))
    out = tmp_path / "out"
    _build(mini_copy, out)
    assert not (out / "mini" / RECORD).exists()
    assert KEPT not in _build(mini_copy, out)


def test_a_record_is_believed_only_as_remember_writes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "card_data" / "game"
    game.mkdir(parents=True)
    (game / "cards.yaml").write_text("cards: []\n")
    os.utime(game / "cards.yaml", (1, 1))
    out = tmp_path / "out"
    (out / ".cache").mkdir(parents=True)
    (out / "a.pdf").write_bytes(b"%PDF")
    report = Report(("a warning",), ("Game: 1 card", "  out/a.pdf  (1 pages, a4)"))
    remember(out, "options", [game], [out / "a.pdf"], report, time.time_ns())
    assert check_fresh(out, game, "options") == report
    assert check_fresh(out, game, "other options") is None
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "946684800")  # another build date: another stamp
    assert check_fresh(out, game, "options") is None
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    record = json.loads((out / RECORD).read_text())
    walked: list[str] = []
    real = fresh._walk
    monkeypatch.setattr(fresh, "_walk", lambda folder, skip: walked.append(folder) or real(folder, skip))
    for damaged in (
        {**record, "roots": ["/etc"]}, {**record, "roots": [str(game / "..")]}, {**record, "files": {"../x": [1, 2]}},
        {**record, "files": {"a.pdf": [1, "2"]}}, {**record, "err": [1]}, [], "x",
    ):
        (out / RECORD).write_text(json.dumps(damaged))
        assert check_fresh(out, game, "options") is None
    assert "/etc" not in walked and str(game / "..") not in walked
    (out / RECORD).write_bytes(b"\xff")
    assert check_fresh(out, game, "options") is None

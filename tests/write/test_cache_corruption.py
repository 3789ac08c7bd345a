"""Whatever happens to the render cache between two builds (bytes flipped,
files cut short, deleted or replaced, index entries changed), the next build
finishes and writes the very bytes a build from nothing writes: every cached
document carries its own digest in its name, and an index entry counts only
where it names the document and page its face's run must have."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.output.stage import build
from pnp.loading.loader import load_game
from tests.conftest import MINI

KINDS = ("flip", "cut", "delete", "replace", "entry")


def _results(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _damage(cache: Path, kind: str, which: int, where: int, junk: bytes, value: object) -> None:
    files = sorted(p for p in cache.iterdir() if p.is_file())
    target = files[which % len(files)]
    data = target.read_bytes()
    spot = where % max(1, len(data))
    if kind == "flip" and data:
        target.write_bytes(data[:spot] + bytes([data[spot] ^ (1 + where % 255)]) + data[spot + 1 :])
    elif kind == "cut":
        target.write_bytes(data[:spot])
    elif kind == "delete":
        target.unlink()
    elif kind == "replace":
        target.write_bytes(data[:spot] + junk + data[spot + len(junk) :])
    elif kind == "entry":
        index = cache / "faces.json"
        try:
            entries = json.loads(index.read_text())
        except (OSError, ValueError):  # already damaged or gone
            return
        if isinstance(entries, dict) and entries:
            face = sorted(entries)[which % len(entries)]
            field = ("document", "page", "pages", "findings")[where % 4]
            if isinstance(entries[face], dict):
                entries[face][field] = value
            index.write_text(json.dumps(entries))


@st.composite
def damages(draw: st.DrawFn) -> list[tuple[str, int, int, bytes, object]]:
    """One to three things done to the cache."""
    documents = st.sampled_from(["0" * 64, "f" * 64])  # well formed, but no document of this build
    value = st.one_of(st.integers(-2, 5), documents, st.just([]), st.none(), st.text(max_size=5))
    one = st.tuples(st.sampled_from(KINDS), st.integers(0, 1000), st.integers(0, 10**6), st.binary(min_size=1, max_size=40), value)
    return draw(st.lists(one, min_size=1, max_size=3))


def test_a_damaged_cache_never_changes_what_is_built(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = tmp_path_factory.mktemp("corruption")
    game = load_game(MINI)
    build(game, ["a4"], base / "cold")  # the bytes to expect, and a warm cache to damage
    expected = _results(base / "cold")
    counter = iter(range(10**6))

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(damages())
    def property(done: list[tuple[str, int, int, bytes, object]]) -> None:
        out = base / f"run{next(counter)}"
        shutil.copytree(base / "cold", out)
        for kind, which, where, junk, value in done:
            _damage(out / ".cache" / "render", kind, which, where, junk, value)
        build(game, ["a4"], out)
        assert _results(out) == expected
        again = build(game, ["a4"], out)  # and the cache is whole again: nothing laid out
        assert again.rendered == 0 and _results(out) == expected

    property()


def test_an_index_entry_pointing_at_a_neighbour_page_is_laid_out_again(tmp_path: Path) -> None:
    """Every face's entry moved to another page of its own document (still a
    page that exists): no face may take a neighbour's page, nor go missing."""
    game = load_game(MINI)
    build(game, ["a4"], tmp_path / "cold")
    expected = _results(tmp_path / "cold")
    out = tmp_path / "moved"
    shutil.copytree(tmp_path / "cold", out)
    index = out / ".cache" / "render" / "faces.json"
    entries = json.loads(index.read_text())
    moved = 0
    for entry in entries.values():
        if entry.get("pages", 0) > 1:  # a face's entry (a document's holds only its findings)
            entry["page"] = (entry["page"] + 1) % entry["pages"]
            moved += 1
    assert moved >= 2, "the mini game must have a run of several faces for this test to mean anything"
    index.write_text(json.dumps(entries))
    result = build(game, ["a4"], out)
    assert result.rendered > 0 and _results(out) == expected

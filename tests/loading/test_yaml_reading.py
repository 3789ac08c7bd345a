"""How game files' YAML is read: merge keys (``<<: *base``) worked in where
they are written, within the same budget as aliases; numbers by YAML 1.2's
rules, and one written ambiguously (``010``) refused where a number is wanted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.errors import InputError
from pnp.loading.loader import load_game
from pnp.loading.yamlsrc import MAX_NODES, load_yaml
from tests.conftest import MINI


def _load(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "file.yaml"
    path.write_text(text)
    return load_yaml(path)


def test_a_merge_key_gives_what_the_mapping_does_not(tmp_path: Path) -> None:
    doc = _load(tmp_path, "a: &a {x: 1, y: 1.10}\nb: &b {x: 2, z: 3}\nc:\n  w: 0\n  <<: [*a, *b]\n  y: 9\n")
    assert doc.data["c"] == {"w": 0, "x": 1, "y": 9, "z": 3}  # its own y; x from the first merged
    assert list(doc.data["c"]) == ["w", "x", "z", "y"]  # merged keys where << is written
    assert doc.marks[("c", "x")] == (1, 11) and doc.marks[("c", "z")] == (2, 17)  # where they are written
    assert doc.marks[("c", "y")] == (6, 6)
    assert doc.raw[("c", "x")] == "1" and doc.raw[("c", "y")] == "9"


def test_a_quoted_merge_key_is_text(tmp_path: Path) -> None:
    assert _load(tmp_path, "c: {'<<': 1}\n").data == {"c": {"<<": 1}}


@pytest.mark.parametrize("text, line, col, words", [
    ("c:\n  <<: 5\n", 2, 7, "a merge key << takes a mapping or a list of mappings"),
    ("a: &a {x: 1}\nc:\n  <<: [*a, 1]\n", 3, 7, "a merge key << takes a mapping or a list of mappings"),
    ("a: &a {x: 1}\nc:\n  <<: *a\n  <<: *a\n", 4, 3, "a second merge key << (the first at line 3)"),
    ("a: &a {x: 1}\nc:\n  <<: *a\n  y: 1\n  y: 2\n", 5, 3, "duplicate key 'y'"),
])
def test_a_wrong_merge_key_is_refused_where_it_is_written(tmp_path: Path, text: str, line: int, col: int, words: str) -> None:
    with pytest.raises(InputError) as caught:
        _load(tmp_path, text)
    (found,) = caught.value.diagnostics
    assert (found.source.line, found.source.col) == (line, col) and words in found.message, found


def test_merge_keys_count_against_the_budget(tmp_path: Path) -> None:
    """Ten merges of ten keys each, six levels deep: a million values from
    a few hundred bytes, cut off like any alias bomb."""
    lines = ["l0: &l0 {" + ", ".join(f"k{i}: x" for i in range(10)) + "}"]
    for level in range(1, 7):
        lines.append(f"l{level}: &l{level} {{" + ", ".join(f"k{i}: {{<<: *l{level - 1}}}" for i in range(10)) + "}")
    with pytest.raises(InputError, match=f"more than {MAX_NODES} values"):
        _load(tmp_path, "\n".join(lines) + "\n")


texts = st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(base=st.dictionaries(texts, texts, max_size=5), own=st.dictionaries(texts, texts, max_size=5))
def test_merging_reads_as_yaml_1_1_merge_keys_do(tmp_path_factory: pytest.TempPathFactory, base: dict[str, str], own: dict[str, str]) -> None:
    """The mapping's own keys win over the merged ones, as in every reader
    that knows merge keys (PyYAML's among them)."""
    text = f"base: &base {yaml.safe_dump(base, default_flow_style=True).strip()}\nc:\n  <<: *base\n"
    text += "".join(f"  {json.dumps(key)}: {json.dumps(value)}\n" for key, value in own.items())
    doc = _load(tmp_path_factory.mktemp("merge"), text)
    assert doc.data["c"] == {**base, **own} == yaml.safe_load(text)["c"]


def test_cards_may_take_their_fields_from_another_card(tmp_path: Path) -> None:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("  - id: one\n", "  - &one\n    id: one\n").replace("  - id: two\n", "  - <<: *one\n    id: two\n"))
    two = load_game(game).components[0].cards[1]
    assert (two.id, two.title, two.copies) == ("two", "Two", 2)
    assert dict(two.fields["symbols"]) == {"sun": -1} and two.fields["crest"] == "red"  # its own symbols, one's crest


def test_a_number_is_shown_as_written_only_where_it_was_written(tmp_path: Path) -> None:
    doc = _load(tmp_path, "a: [1.10, 0123, .inf, .NaN, 0o10, 0x1F, 1e3, +5]\nm: {5: 1}\n")
    assert [doc.written(("a", i), v) for i, v in enumerate(doc.data["a"])] == ["1.10", "0123", ".inf", ".NaN", "0o10", "0x1F", "1e3", "+5"]
    assert doc.written(("m", 5), 5) is None  # the key 5 is checked where its value, 1, is written

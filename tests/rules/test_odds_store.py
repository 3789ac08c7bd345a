"""Exact odds kept from one build to the next (pnp.rules.odds.OddsCache with
a store): an unchanged deck's odds are read, not worked out; a store entry
that could not be a count of hands is worked out again."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import pnp.rules.odds as odds
from pnp.rules.odds import OddsCache, brute_force

DECK = [{"a": 1}, {"a": -1}, {"b": 1}, {"a": 1, "b": -1}, {}, {"b": 1}, {"a": 1}]
GOAL = {"a": 1, "b": 1}


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    runs: list[int] = []
    real = odds.satisfied_counts

    def counting(*args: object) -> dict[int, int]:
        runs.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(odds, "satisfied_counts", counting)
    return runs


def test_a_stored_deck_s_odds_are_read_not_worked_out(tmp_path: Path, counted: list[int]) -> None:
    store = tmp_path / "cache" / "odds.json"
    first = OddsCache(store)
    worked = first.probabilities(DECK, GOAL, [2, 3], 1)
    first.save()
    assert counted == [1] and store.is_file()
    again = OddsCache(store).probabilities(DECK, GOAL, [3, 2], 1)
    assert again == worked and counted == [1]
    assert again[3] == brute_force(DECK, GOAL, 3, 1)
    # Another question is worked out, and kept beside the first.
    second = OddsCache(store)
    second.probabilities(DECK, GOAL, [2, 3], 2)
    second.save()
    assert counted == [1, 1] and len(json.loads(store.read_text())) == 2


@pytest.mark.parametrize("entry", [{"2": 10**9, "3": 1}, {"2": 1}, {"2": "1", "3": 1}, {"2": -1, "3": 1}, {"2": 1.0, "3": 1}, [1, 2]])
def test_a_store_entry_that_cannot_be_a_count_is_worked_out_again(tmp_path: Path, counted: list[int], entry: object) -> None:
    store = tmp_path / "odds.json"
    cache = OddsCache(store)
    right = cache.probabilities(DECK, GOAL, [2, 3], 1)
    cache.save()
    name = next(iter(json.loads(store.read_text())))
    store.write_text(json.dumps({name: entry}))
    assert OddsCache(store).probabilities(DECK, GOAL, [2, 3], 1) == right
    assert len(counted) == 2
    assert all(isinstance(p, Fraction) for p in right.values())


def test_a_damaged_store_is_no_store(tmp_path: Path, counted: list[int]) -> None:
    store = tmp_path / "odds.json"
    store.write_bytes(b"\xff{")
    assert OddsCache(store).probabilities(DECK, GOAL, [2], 1) == {2: brute_force(DECK, GOAL, 2, 1)}
    assert counted == [1]

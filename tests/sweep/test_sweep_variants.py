"""A version is applied to the game as data: copies, rules values, variant, options."""

from __future__ import annotations

from pathlib import Path

from pnp.sweep.spec import read_sweep
from pnp.sweep.variants import apply, grid, neighbours, sample
from tests.sweep.sweeps import high_card

CHANGES = """\
games: 100
changes:
  - {kind: variant, values: [printed, short]}
  - {kind: option, name: hand, option: hand, values: [2, 4]}
  - {kind: copies, component: cards, card: r10, values: [0, 5]}
  - {kind: rule, rule: hand_size, at: 4, values: [6, 7]}
"""


def test_a_version_changes_only_what_it_names(tmp_path: Path) -> None:
    (tmp_path / "sweep.yaml").write_text(CHANGES, encoding="utf-8")
    changes = read_sweep(tmp_path / "sweep.yaml")[0].changes
    game, _ = high_card()
    changed, options = apply(game, changes, ("short", 4, 5, 7))
    assert options == {"deck": "cards", "rank": "rank", "hand": 4}  # the variant's hand: 3, then the option's
    assert apply(game, changes[:1], ("short",))[1]["hand"] == 3
    assert [(c.id, c.copies) for c in changed.components[0].cards][-2:] == [("r9", 2), ("r10", 5)]
    assert changed.rules["hand_size"] == {2: 5, 3: 5, 4: 7}
    assert game.rules["hand_size"] == {2: 5, 3: 5, 4: 5} and game.components[0].cards[-1].copies == 2  # the game as loaded
    assert len(grid(changes)) == 16 and len(set(sample(changes, 5, 1))) == 5 and sample(changes, 5, 1) == sample(changes, 5, 1)
    assert sorted(neighbours(changes, ("printed", 2, 0, 6))) == sorted(
        [("short", 2, 0, 6), ("printed", 4, 0, 6), ("printed", 2, 5, 6), ("printed", 2, 0, 7)]
    )

"""A game folder's tests are modules of no package: pytest imports each by its
file name alone, so two games with a test file of the same name stop the
whole run at collection. Every such file name is unique."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_two_game_test_files_share_a_name() -> None:
    files = [
        path for folder in ("card_data", "pnp/resources/starters") for path in (ROOT / folder).glob("*/tests/*.py")
        if path.name != "conftest.py" and not (path.parent / "__init__.py").exists()
    ]
    assert len(files) > 20
    twice = {name: n for name, n in Counter(path.name for path in files).items() if n > 1}
    assert not twice, f"test files of one name in several game folders (pytest imports them by name alone): {twice}"

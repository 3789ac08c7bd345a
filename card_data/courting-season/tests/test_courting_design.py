"""The Courting Season pack proved from its data (game.yaml ``checks:``):
the designed numbers hold, and a card edited to break them is refused at
its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.loading.loader import load_game
from pnp.rules.check import check_game
from pnp.testing import copy_game

GAME_DIR = Path(__file__).resolve().parents[1]


def test_the_pack_passes_every_check_with_the_designed_figures() -> None:
    report = check_game(load_game(GAME_DIR))
    assert report.errors(strict=True) == [], report.findings
    exact = report.exact
    for kind in ("lady", "gentleman"):
        row = exact["profile"]["characters"]["groups"][kind]
        assert row["cards"] == 24 and row["sums"] == {12: 24} and max(row["spreads"]) <= 3
        assert set(row["totals"].values()) == {72}
    assert exact["dice"]["a matchmaking die"]["faces"]["preference"] == "1/3"
    assert exact["dice"]["a matchmaking die"]["odds"] == dict.fromkeys(("kindness", "standing", "wealth", "wit"), "1/4")
    assert exact["tokens"]["prestige"]["value"] == 190 and exact["tokens"]["prestige"]["tokens"] == 54
    assert exact["agree"]["characters.family"]["groups"] == 21


@pytest.mark.parametrize(("edit", "said"), [
    # Clementina's wit raised: her traits add to 13.
    (("title: Miss Clementina Merriweather, kind: lady, family: Merriweather, home: larkspur, wit: 4",
      "title: Miss Clementina Merriweather, kind: lady, family: Merriweather, home: larkspur, wit: 5"), "Miss Clementina Merriweather: 5 + 2 + 2 + 4 = 13"),
    # Felix sent to live elsewhere than his family.
    (("family: Pellingham, home: pennicott, wit: 3", "family: Pellingham, home: saltings, wit: 3"), "Mr Felix Pellingham: home 'saltings', but"),
    # An intended pair broken on one side.
    (("intended: 'felix-pellingham'", "intended: 'lucius-greaves'"), "who does not name Miss Clementina Merriweather back"),
])
def test_a_card_edited_to_break_the_design_is_refused(tmp_path: Path, edit: tuple[str, str], said: str) -> None:
    game = copy_game(GAME_DIR, tmp_path / "courting-season", ("tests", "__pycache__"))
    path = game / "characters.yaml"
    assert edit[0] in path.read_text()
    path.write_text(path.read_text().replace(*edit, 1))
    errors = check_game(load_game(game)).errors()
    assert any(said in e.message and "characters.yaml:" in e.where for e in errors), [e.message for e in errors]

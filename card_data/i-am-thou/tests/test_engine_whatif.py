"""`pnp check` plays I am thou with each power switched off (SWITCHES, the
engine option ``without``) and lists every power at every player count:
what DESIGN.md's "Which effects change the winner most often" quotes."""

from __future__ import annotations

import json

from thou_engine_kit import GAME_DIR, RULES, prepared

from pnp.testing import run_pnp


def test_check_lists_every_power_with_the_winner_changed_and_its_use() -> None:
    done = run_pnp("check", str(GAME_DIR), "--json", "--games", "2", "--workers", "1")
    assert done.returncode == 0, done.stderr
    whatif = json.loads(done.stdout)["exact"]["ladder"]["whatif"]
    assert whatif["agent"] == "heuristic" and whatif["games"] == 2
    powers = RULES.usable(prepared())["powers"]
    assert len(powers) == 30 and sorted(whatif["by_players"]) == ["3", "4", "5"]
    for rows in whatif["by_players"].values():
        assert sorted(row["power"] for row in rows) == sorted(powers)
        assert [row["changed"]["rate"] for row in rows] == sorted((row["changed"]["rate"] for row in rows), reverse=True)
        assert all(row["changed"]["low"] <= row["changed"]["rate"] <= row["changed"]["high"] for row in rows)


"""``pnp score courting-season TABLE``: a real final table scored, and every
problem in it located."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from courting_tables import RULES, pack

TABLE = (Path(__file__).resolve().parents[1] / "examples" / "table.yaml").read_text()


def test_a_final_table_scores_prestige_less_the_kindness_left() -> None:
    import yaml

    result = RULES.score(pack(), yaml.safe_load(TABLE))
    # Ada: 31 less Letitia 5, Felix 2, Eudora 2 = 22. Ben: 27 less 3 + 5 + 4 + 1 = 14. Cy: 20 less 2 + 1 + 2 = 15.
    assert [(p["name"], p["score"], p["wins"]) for p in result["players"]] == [("Ada", 22, True), ("Ben", 14, False), ("Cy", 15, False)]
    assert RULES.score_text(result)[0] == (
        "Ada: 31 prestige less 9 kindness (Miss Letitia Stanforth, Mr Felix Pellingham, Miss Eudora Whitlock) = 22: WINS"
    )


def _score(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "table.yaml"
    path.write_text(text)
    root = Path(__file__).resolve().parents[3]
    return subprocess.run([sys.executable, "-m", "pnp", "score", "courting-season", str(path)], cwd=root, capture_output=True, text=True)


def test_pnp_score_prints_each_player(tmp_path: Path) -> None:
    done = _score(tmp_path, TABLE)
    assert done.returncode == 0, done.stderr
    assert "Ada: 31 prestige less 9 kindness" in done.stdout and "= 15" in done.stdout


@pytest.mark.parametrize(("change", "said"), [
    (("felix-pellingham, eudora", "felix-pellingham, eudora-whitlock, felix-pellingham, eudora"), "players[0].society"),
    (("prestige: 20", "prestige: -1"), "table.yaml:12:15: players[2].prestige: expected a whole number from 0"),
    (("marigold-penrose", "marigold"), "unknown character 'marigold'"),
    (("felix-pellingham, eudora-whitlock", "felix-pellingham, horatio-whitlock"), "already on the table"),
])
def test_a_bad_table_is_told_at_its_line(tmp_path: Path, change: tuple[str, str], said: str) -> None:
    done = _score(tmp_path, TABLE.replace(*change))
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr

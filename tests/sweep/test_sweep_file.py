"""sweep.yaml is checked like game.yaml: errors at file:line:col, exit status 2."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.errors import InputError
from pnp.sweep.spec import read_sweep
from pnp.sweep.variants import check_against
from tests.sweep.sweeps import HIGH_CARD, SMALL, high_card


def _errors(tmp_path: Path, text: str) -> str:
    path = tmp_path / "sweep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        sweep, _ = read_sweep(path)
        game, engine = high_card()
        check_against(sweep, game, engine)
    return str(caught.value.message)


@pytest.mark.parametrize("text, expected", [
    ("games: 200\nchanges:\n  - {kind: swap, values: [1]}\n", "sweep.yaml:3:12: changes[0].kind: unknown kind 'swap'; expected one of 'option', 'copies', 'rule', 'variant'"),
    ("games: 200\nchanges:\n  - {kind: option, option: hand, values: []}\n", "sweep.yaml:3:42: changes[0].values: 0 items; expected 1 to 1000"),
    ("games: 25\nbatch: 10\nchanges:\n  - {kind: option, option: hand, values: [3]}\n", "sweep.yaml:1:8: games: 25 games is not a whole number of batches of 10"),
    ("games: 200\nchanges:\n  - {kind: option, option: hand, values: [3]}\ntargets:\n  rounds: {min: 6, max: 2}\n", "sweep.yaml:5:11: targets.rounds: min 6 is above max 2"),
    ("games: 200\nchanges:\n  - {kind: copies, component: cards, card: r11, values: [1]}\n", "sweep.yaml:3:44: changes[0].card: no card 'r11' in cards"),
    ("games: 200\nchanges:\n  - {kind: copies, component: cards, card: r1, values: [1, -1]}\n", "sweep.yaml:3:60: changes[0].values[1]: expected a whole number from 0 to 10000, found -1"),
    ("games: 200\nchanges:\n  - {kind: rule, rule: hand_size, at: 4, values: [5, 50]}\n", "sweep.yaml:3:54: changes[0].values[1]: expected a whole number from 1 to 20, found 50"),
    ("games: 200\nchanges:\n  - {kind: rule, rule: hand_sizes, values: [5]}\n", "sweep.yaml:3:24: changes[0].rule: no rules value 'hand_sizes'; expected one of hand_size"),
    ("games: 200\nchanges:\n  - {kind: variant, values: [printed, long]}\n", "sweep.yaml:3:39: changes[0].values[1]: no variant 'long'; expected one of printed, short"),
    ("games: 200\nagents: expert\nchanges:\n  - {kind: option, option: hand, values: [3]}\n", "sweep.yaml:2:9: agents: unknown agent 'expert'; expected one of"),
    ("games: 200\nchanges:\n  - {kind: option, option: hand, values: [3, 4, 3]}\n", "sweep.yaml:3:49: changes[0].values[2]: 3 a second time; expected each value once"),
    ("games: 200\nagents: [heuristic, random]\nchanges:\n  - {kind: option, option: hand, values: [3]}\n", "sweep.yaml:2:9: agents: 2 agents, one per seat, need players: [2]"),
    ("games: 200\nplayers: [2, 6]\nchanges:\n  - {kind: option, option: hand, values: [3]}\n", "sweep.yaml:2:14: players[1]: High Card is for 2 to 4 players"),
    ("games: 200\nchanges:\n  - {kind: option, option: hand, values: [3]}\nreport: {heatmap: [hand, deck]}\n", "sweep.yaml:4:26: report.heatmap[1]: no change named 'deck'; expected one of hand"),
])
def test_a_wrong_value_is_told_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert expected in _errors(tmp_path, text)


def test_a_bad_sweep_file_exits_2_without_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sweep.yaml").write_text(SMALL.replace("card: r10", "card: r99"), encoding="utf-8")
    result = CliRunner().invoke(main, ["sweep", str(HIGH_CARD), "sweep.yaml", "--trust-rules"])
    assert result.exit_code == 2, result.output
    assert "sweep.yaml:8:44: changes[1].card: no card 'r99' in cards" in result.output
    assert "Traceback" not in result.output


def test_without_dask_the_command_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails, as when it is not installed
    (tmp_path / "sweep.yaml").write_text(SMALL, encoding="utf-8")
    result = CliRunner().invoke(main, ["sweep", str(HIGH_CARD), str(tmp_path / "sweep.yaml"), "--trust-rules"])
    assert result.exit_code == 2, result.output
    assert "pnp sweep needs Dask distributed, which is not installed: pip install 'pnp[sweep]'" in result.output

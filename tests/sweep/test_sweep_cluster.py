"""A sweep gives the same counts whatever plays it: in this process, a local
Dask cluster of one or two workers, or a real scheduler with two workers one
of which is killed mid-sweep; and it resumes from its results file."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.sweep.cluster import client, executor
from pnp.sweep.spec import read_sweep
from pnp.sweep.variants import key, neighbours
from tests.sweep.daskprocs import dask_cluster
from tests.sweep.sweeps import HIGH_CARD, SMALL, counts, run


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "sweep.yaml"
    path.write_text(SMALL, encoding="utf-8")
    return path


def test_a_version_clearly_outside_a_target_is_dropped_after_its_first_round(small: Path) -> None:
    book, rows = run(small)
    assert len(book.versions) == 6 and len(rows) == 6
    by_hand = {3: [r for r in rows if r["values"]["hand"] == 3], 5: [r for r in rows if r["values"]["hand"] == 5]}
    # hand 3 lasts 3 rounds every game, outside rounds 4-5 beyond doubt: dropped after 20 games a count
    assert [(r["dropped_after_round"], set(r["games"].values())) for r in by_hand[3]] == [(1, {20})] * 3
    assert all(r["missed"] for r in by_hand[3])
    # hand 5 lasts 5: played on to 40 games a count; with one r10 (19 cards) it cannot deal 4 players
    assert [(r["dropped_after_round"], set(r["games"].values())) for r in by_hand[5] if r["rank"]] == [(None, {40})] * 2
    assert rows[-1]["verdict"] == "unplayable" and rows[-1]["why"] == "4 players need 20 cards; the deck has 19"
    ranks = [(r["dropped_after_round"] is not None, r["missed"], r["distance"]) for r in rows if r["rank"]]
    assert ranks == sorted(ranks)


def test_an_adaptive_search_tries_the_neighbours_of_the_best(tmp_path: Path) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text(SMALL + "search: {kind: adaptive, samples: 1, keep: 1}\n", encoding="utf-8")
    book, rows = run(path)
    first = [name for name, born in book.born.items() if born == 0]
    later = sorted(name for name, born in book.born.items() if born == 1)
    assert len(first) == 1
    assert later == sorted(key(v) for v in neighbours(load_changes(path), book.versions[first[0]]))
    assert all(set(r["games"].values()) == {20} for r in rows if r["key"] in later and r["rank"])


def test_one_or_two_local_workers_give_the_same_results(small: Path) -> None:
    expected, ranking = run(small)
    for workers in (1, 2):
        with client(None, workers) as dask:
            book, rows = run(small, executor(dask, f"local{workers}"))
        assert counts(book) == counts(expected)
        assert rows == ranking


def test_a_real_cluster_loses_nothing_when_a_worker_dies(small: Path) -> None:
    expected, ranking = run(small)
    with dask_cluster(2) as cluster, client(cluster.address, 1) as dask:
        seen: list[str] = []

        def kill_one(result: dict[str, Any]) -> None:
            seen.append(result["task"])
            if len(seen) == 3:  # mid-sweep: most tasks are still to come
                cluster.workers[0].send_signal(signal.SIGKILL)
                cluster.workers[0].wait(timeout=30)

        book, rows = run(small, executor(dask, "killed"), on_result=kill_one)
    assert cluster.workers[0].returncode == -signal.SIGKILL
    assert len(seen) == len(expected.results) > 3
    assert counts(book) == counts(expected)
    assert rows == ranking


def load_changes(path: Path) -> Any:
    return read_sweep(path)[0].changes


def _ranking(result: Any) -> list[dict[str, Any]]:
    assert result.exit_code == 0, result.output
    return list(json.loads(result.output[result.output.index("{"):])["ranking"])


def test_an_interrupted_sweep_resumes_where_it_stopped(small: Path) -> None:
    args = ["sweep", str(HIGH_CARD), str(small), "--trust-rules", "--workers", "1", "--json"]
    whole = _ranking(CliRunner().invoke(main, args))
    results = small.with_name("sweep.results.jsonl")
    lines = results.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 10 and json.loads(lines[0])["command"].startswith("pnp sweep ")
    # stopped after a third of its tasks, in the middle of writing a line
    results.write_text("\n".join(lines[: len(lines) // 3]) + "\n" + lines[len(lines) // 3][:25], encoding="utf-8")
    resumed = CliRunner().invoke(main, args)
    assert f"resuming: {len(lines) // 3 - 1} tasks already in" in resumed.output
    assert _ranking(resumed) == whole
    again = results.read_text(encoding="utf-8").splitlines()
    assert sorted(again[1:]) != [] and {json.loads(l)["task"] for l in again[1:]} == {json.loads(l)["task"] for l in lines[1:]}


def test_a_results_file_of_another_sweep_is_refused(small: Path) -> None:
    small.with_name("sweep.results.jsonl").write_text(json.dumps({"sweep": "0123456789abcdef"}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["sweep", str(HIGH_CARD), str(small), "--trust-rules", "--workers", "1"])
    assert result.exit_code == 2
    assert "results of another sweep (or of an edited sweep file); remove the file or pass --fresh" in result.output


def test_results_of_an_edited_game_are_not_taken_for_its_own(small: Path, tmp_path: Path) -> None:
    import shutil

    from pnp.loading.loader import load_game
    from pnp.sweep.run import fingerprint

    game = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, game, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    sweep = read_sweep(small)[0]
    before = fingerprint(sweep, load_game(game))
    assert fingerprint(sweep, load_game(game)) == before
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("rank: 10, copies: 2", "rank: 10, copies: 3"))
    assert fingerprint(sweep, load_game(game)) != before
    cards.write_text(cards.read_text().replace("rank: 10, copies: 3", "rank: 10, copies: 2"))
    (game / "rules.py").write_text((game / "rules.py").read_text() + "\n# edited\n")
    assert fingerprint(sweep, load_game(game)) != before


def test_a_scheduler_that_does_not_answer_is_told_in_one_line(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.sweep import cluster
    from tests.sweep.daskprocs import free_port

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    address = f"tcp://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(main, ["sweep", str(HIGH_CARD), str(small), "--trust-rules", "--scheduler", address])
    assert result.exit_code == 2, result.output
    assert f"Error: --scheduler {address}: no Dask scheduler answered (Timed out trying to connect to {address} after 1 s)" in result.output


def test_a_resumed_sweep_judges_each_round_on_that_round_s_games(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Results of later rounds already in the file wait for their round: the
    sequential test after round 1 sees round 1's games, as it did the first time."""
    import pnp.sweep.run as sweep_run

    seen: list[list[tuple[str, int, int]]] = []
    close = sweep_run.close_round

    def spy(book: sweep_run.Book, *args: Any) -> None:
        seen.append(sorted((name, n, table.games) for (name, n), (table, _) in book.totals.items()))
        close(book, *args)

    monkeypatch.setattr(sweep_run, "close_round", spy)
    whole, _ = run(small)
    first = list(seen)
    seen.clear()

    def nothing_to_play(jobs: Any) -> Iterator[dict[str, Any]]:
        assert not jobs, "every task is in the results file"
        return iter(())

    resumed, _ = run(small, nothing_to_play, stored=dict(reversed(list(whole.results.items()))))
    assert seen == first and counts(resumed) == counts(whole)

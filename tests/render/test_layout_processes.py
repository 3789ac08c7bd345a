"""Laying out on N cores takes N processes, this one among them (issue 41):
each WeasyPrint process holds some 80 MB, so a forked worker more, beside
a parent that only waits, is memory spent for no core."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pnp import parallel
from pnp.parallel import fork_iter
from pnp.paths import OWN
from pnp.render import weasy
from pnp.render.scope import DEFAULT_FONTS, Scope


def _pid_after(n: int, delay: float) -> tuple[int, int]:
    time.sleep(delay)
    return n, os.getpid()


def test_jobs_shared_with_this_process_come_back_in_order_whatever_finishes_first() -> None:
    delays = [0.0, 0.15, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.12, 0.0, 0.0, 0.0]
    got = list(fork_iter(_pid_after, [(n, d) for n, d in enumerate(delays)], workers=2, here=True))
    assert [n for n, _ in got] == list(range(len(delays)))
    pids = {pid for _, pid in got}
    assert os.getpid() in pids and len(pids) == 2  # this process and one forked worker


def _first_waits(n: int, parent: int, go: Path) -> tuple[int, bool]:
    """Job 0 (a worker's: the first sent) waits until this process has laid
    out five jobs of its own, which it does only if it goes on while job 0
    is under way; each of the others in this process notes it ran."""
    if n == 0:
        for _ in range(400):
            if go.exists() and len(go.read_text()) >= 5:
                return n, True
            time.sleep(0.025)
        return n, False
    if os.getpid() == parent:
        with go.open("a") as f:
            f.write("x")
    return n, True


def test_this_process_goes_on_with_other_jobs_while_a_worker_has_a_long_one(tmp_path: Path) -> None:
    go = tmp_path / "go"
    got = list(fork_iter(_first_waits, [(n, os.getpid(), go) for n in range(12)], workers=2, here=True))
    assert [n for n, _ in got] == list(range(12))
    assert got[0][1], "this process waited for the worker's long job instead of taking the next ones"


def _first_long(n: int, started: Path) -> str:
    """Each job notes that it started; job 0 then waits while others start,
    and ends once none has started for a second (or all have)."""
    with started.open("a") as f:
        f.write("x")
    if n != 0:
        return "done"
    seen, quiet = 0, 0
    while quiet < 40:
        time.sleep(0.025)
        now = len(started.read_text())
        seen, quiet = now, (quiet + 1 if now == seen else 0)
    return f"{seen} started"


def test_jobs_done_ahead_of_a_long_one_are_few_however_many_are_left(tmp_path: Path) -> None:
    """While the result due (job 0) is not in, no process starts more jobs
    than :data:`pnp.parallel.HELD` ahead of it (and those the workers are
    kept busy with): a long job never leaves the whole build's documents
    held in memory waiting for it."""
    started = tmp_path / "started"
    got = list(fork_iter(_first_long, [(n, started) for n in range(80)], workers=3, here=True))
    assert len(got) == 80
    seen = int(got[0].split()[0])
    assert seen <= parallel.HELD + parallel.AHEAD * 2 + 2, got[0]


def _fails_here(n: int, parent: int) -> int:
    if os.getpid() == parent:
        raise ValueError(f"job {n} failed")
    time.sleep(0.05)
    return n


def test_a_job_failing_in_this_process_ends_the_map_with_its_error() -> None:
    with pytest.raises(ValueError, match="failed"):
        list(fork_iter(_fails_here, [(n, os.getpid()) for n in range(8)], workers=2, here=True))


_LAID_OUT = weasy._render_job
_LOG: list[Path] = []


def _noted(*job: object) -> object:
    """:func:`pnp.render.weasy._render_job`, noting which process ran it."""
    with _LOG[0].open("a") as f:
        f.write(f"{os.getpid()}\n")
    return _LAID_OUT(*job)  # type: ignore[arg-type]


def test_laying_out_on_two_cores_uses_this_process_and_one_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "pids"
    monkeypatch.setattr(weasy, "_render_job", _noted)  # before the fork: the worker runs it too
    monkeypatch.setattr(__name__ + "._LOG", [log])
    font = f"@font-face {{ font-family: 'EB Garamond'; src: url({DEFAULT_FONTS[0].file.as_uri()}) }} html {{ font-family: 'EB Garamond' }}"
    style = f"<style>{font} @page {{ size: 60mm 40mm; margin: 0 }}</style>"
    jobs = [(f"<html><head>{style}</head><body><p>page {n}</p></body></html>", f"job {n}", None) for n in range(8)]
    results = list(weasy.laid_out(jobs, Scope((tmp_path, OWN), DEFAULT_FONTS), workers=2))
    assert all(isinstance(result, tuple) for result in results), results
    pids = log.read_text().split()
    assert len(pids) == len(jobs)
    assert str(os.getpid()) in pids and len(set(pids)) == 2

"""Preflight of an export's files is spread over forked workers, with the
reports a one-worker run gives, in the files' order."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pikepdf
import pytest

from pnp.preflight import Requirements, preflight_files, run

_MET = multiprocessing.get_context("fork").Barrier(2)
_REAL = run.check


def _meeting(path: Path, wanted: Requirements, gs: str | None) -> object:
    """A file's checks, which return only once two processes are in them at
    once, and leave a file named by its process id beside the checked file."""
    _MET.wait(timeout=20)  # one process alone never gets past: BrokenBarrierError
    (path.parent / f"worker-{os.getpid()}").touch()
    return _REAL(path, wanted, gs)


def _card(path: Path, trimmed: bool) -> Path:
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(198, 270))
    if trimmed:
        page.obj.TrimBox = pikepdf.Array([9, 9, 189, 261])
        page.obj.BleedBox = pikepdf.Array([0, 0, 198, 270])
    pdf.save(path)
    return path


def test_files_are_preflighted_by_two_workers_with_one_worker_s_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wanted = Requirements(bleed=9.0, trim=(180.0, 252.0))
    files = [(_card(tmp_path / "plain.pdf", False), wanted), (_card(tmp_path / "trimmed.pdf", True), wanted)]
    alone = preflight_files(files, workers=1)
    assert [r.ok for r in alone] == [False, True]  # the files' own verdicts, in their order

    monkeypatch.setattr(run, "check", _meeting)
    spread = preflight_files(files, workers=2)

    assert spread == alone
    workers = {p.name for p in tmp_path.glob("worker-*")}
    assert len(workers) == 2 and f"worker-{os.getpid()}" not in workers

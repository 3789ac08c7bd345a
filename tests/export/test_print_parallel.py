"""A print export writes its parts' files on forked workers, each opening
the laid-out faces it draws on, with the bytes a one-worker run writes."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from pnp.loading.loader import load_game
from pnp.output import printpdf, stage
from pnp.output.profiles import profile
from pnp.output.request import Request
from tests.conftest import MINI

_MET = multiprocessing.get_context("fork").Barrier(2)
_REAL = printpdf._part_file
_SEEN: Path | None = None


def _meeting(*args: object) -> object:
    """A part's file, written only once two processes are writing one at
    once; leaves a file named by its process id in ``_SEEN``."""
    _MET.wait(timeout=20)  # one process alone never gets past: BrokenBarrierError
    assert _SEEN is not None
    (_SEEN / f"worker-{os.getpid()}").touch()
    return _REAL(*args)  # type: ignore[arg-type]


def _export(out: Path) -> dict[str, bytes]:
    stage.build(load_game(MINI), ["a4"], out, Request(profile("factory")))
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted((out / "factory").rglob("*")) if p.is_file()}


def test_parts_are_written_by_two_workers_with_one_worker_s_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global _SEEN
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    alone = _export(tmp_path / "alone")
    assert sorted(alone) == ["factory/index.json", "factory/mini-cards.pdf", "factory/mini-sleeves.pdf"]  # two parts: one pair, see _meeting

    _SEEN = tmp_path
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(printpdf, "_part_file", _meeting)
    spread = _export(tmp_path / "spread")

    assert spread == alone
    workers = {p.name for p in tmp_path.glob("worker-*")}
    assert len(workers) == 2 and f"worker-{os.getpid()}" not in workers

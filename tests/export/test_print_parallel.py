"""A print export writes its parts' files on forked workers, each opening
and converting the laid-out faces it draws on, with the bytes a one-worker
run writes; each worker measures the ink of the files it wrote."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from pnp.loading.loader import load_game
from pnp.output import printpdf, stage
from pnp.output.profiles import profile
from pnp.output.request import Request
from pnp.output.workqueue import Queue
from tests.conftest import MINI
from tests.export.gslog import logged_gs

_MET = multiprocessing.get_context("fork").Barrier(2)
_REAL = printpdf.part_file
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


def _export_by_two_writers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The factory export of the mini game into ``tmp_path/out`` on two
    workers, each writing one of its two parts; the writers' process ids."""
    global _SEEN
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(printpdf, "part_file", _meeting)  # each of the two workers writes one of the two parts
    _SEEN = tmp_path
    _export(tmp_path / "out")
    writers = {int(p.name.removeprefix("worker-")) for p in tmp_path.glob("worker-*")}
    assert len(writers) == 2
    return writers


def test_parts_are_written_by_two_workers_with_one_worker_s_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global _SEEN
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    alone = _export(tmp_path / "alone")
    assert sorted(alone) == ["factory/index.json", "factory/mini-cards.pdf", "factory/mini-sleeves.pdf"]  # two parts: one pair, see _meeting

    _SEEN = tmp_path
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(printpdf, "part_file", _meeting)
    spread = _export(tmp_path / "spread")

    assert spread == alone
    workers = {p.name for p in tmp_path.glob("worker-*")}
    assert len(workers) == 2 and f"worker-{os.getpid()}" not in workers


def test_each_worker_measures_the_ink_of_the_files_it_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No Ghostscript run waits for every file to be written: the worker
    that wrote a file renders it for the ink check as soon as it has no
    other file to write, while the others go on writing."""
    log = logged_gs(tmp_path, monkeypatch, "$PPID")  # who started each run
    writers = _export_by_two_writers(tmp_path, monkeypatch)
    assert sorted(int(line) for line in log.read_text().split()) == sorted(writers)  # one run each, by the writers
    index = json.loads((tmp_path / "out" / "factory" / "index.json").read_text())
    assert all(f["preflight"]["max_ink"] > 0 for f in index["files"])  # measured, by those runs


def test_each_worker_converts_the_documents_its_files_draw_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No pass over every laid-out document holds up the first file: the
    worker writing a file converts the documents it draws on to CMYK."""
    from pnp.colour import convert

    log = tmp_path / "converted.log"
    real = convert.convert_pdf

    def logged(*args: object) -> object:
        with log.open("a") as file:
            file.write(f"{os.getpid()}\n")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(convert, "convert_pdf", logged)
    writers = _export_by_two_writers(tmp_path, monkeypatch)
    assert {int(line) for line in log.read_text().split()} == writers


def test_the_writing_bar_counts_files_and_a_file_no_worker_measured_is_measured_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One job a file, so the bar moves as each is written (a job a worker
    would hold it still to the end); a worker that saw a file left to take
    that the other took leaves its ink to the parent, with the same result."""
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PNP_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    shown = Terminal()
    monkeypatch.setattr(sys, "stderr", shown)
    alone = _export(tmp_path / "alone")
    assert "writing [" in shown.getvalue() and "2/2" in shown.getvalue()

    monkeypatch.setattr(Queue, "left", lambda self: True)  # no worker ever measures
    assert _export(tmp_path / "after") == alone

"""CMYK conversion of an export's rendered PDFs is spread over forked
workers, and gives the bytes a one-worker run gives, in order."""

from __future__ import annotations

import io
import multiprocessing
import os
from collections.abc import Mapping
from pathlib import Path

import pikepdf
import pytest

from pnp.colour import convert
from pnp.colour.convert import Converter, convert_documents
from pnp.colour.icc import DEFAULT_PROFILE
from pnp.model import Swatch
from tests.pdftools import filled_pdf

_MET = multiprocessing.get_context("fork").Barrier(2)
_REAL = convert.convert_pdf
_SEEN: Path | None = None


def _meeting(pdf: pikepdf.Pdf, palette: Mapping[str, Swatch], profile: Path = DEFAULT_PROFILE) -> Converter:
    """convert_pdf that returns only once two processes are in it at once,
    and leaves a file named by its process id in ``_SEEN``."""
    _MET.wait(timeout=20)  # one process alone never gets past: BrokenBarrierError
    assert _SEEN is not None
    (_SEEN / f"worker-{os.getpid()}").touch()
    return _REAL(pdf, palette, profile)


def _fills(data: bytes) -> list[list[float]]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [[float(v) for v in i.operands] for i in pikepdf.parse_content_stream(pdf.pages[0]) if str(i.operator) in ("k", "K")]


def test_documents_are_converted_by_two_workers_with_one_worker_s_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global _SEEN
    documents = [filled_pdf(rgb, line=True) for rgb in ("1 0 0", "0 0 1", "0.2 0.6 0.2", "0.9 0.8 0.1")]  # two pairs: see _meeting
    alone = convert_documents(documents, {}, DEFAULT_PROFILE, workers=1)
    assert [_fills(d)[1] for d in alone] == [[0, 0, 0, 0.5]] * 4  # gray stroke: black ink alone
    assert len({tuple(_fills(d)[0]) for d in alone}) == 4  # each its own colour, in order

    _SEEN = tmp_path
    monkeypatch.setattr(convert, "convert_pdf", _meeting)
    spread = convert_documents(documents, {}, DEFAULT_PROFILE, workers=2)

    assert spread == alone
    workers = {p.name for p in tmp_path.glob("worker-*")}
    assert len(workers) == 2 and f"worker-{os.getpid()}" not in workers


def test_a_document_converted_in_another_second_gives_the_same_bytes() -> None:
    """qpdf makes a saved file's /ID from its clock unless told otherwise, so
    a worker converting a second later wrote other bytes (the suite caught it
    on a loaded machine): the ID now comes from the content."""
    import time

    document = filled_pdf("0.3 0.1 0.7", line=True)
    first = convert_documents([document], {}, DEFAULT_PROFILE, workers=1)
    time.sleep(1.1)  # into qpdf's next second: its clock-based IDs differ
    assert convert_documents([document], {}, DEFAULT_PROFILE, workers=1) == first

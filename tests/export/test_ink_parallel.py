"""The ink check renders a file's pages with several Ghostscript runs at
once, each a consecutive part of the pages, and finds what one run finds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest

from pnp.preflight.ink import PAGES_PER_RUN, ink_failures
from tests.conftest import tool


def _pages(path: Path, count: int) -> Path:
    """``count`` pages, each a different ink: page n has n % cyan over 100 % black."""
    pdf = pikepdf.new()
    for number in range(1, count + 1):
        page = pdf.add_blank_page(page_size=(72, 72))
        page.Contents = pdf.make_stream(f"{number / 100:.2f} 0 0 1 k 0 0 72 72 re f\n".encode())
    pdf.save(path)
    return path


def test_pages_are_split_over_two_ghostscript_runs_with_one_run_s_findings(tmp_path: Path) -> None:
    tool("gs")
    gs = shutil.which("gs")
    assert gs is not None
    log = tmp_path / "runs.log"
    wrapper = tmp_path / "gs"  # records each run's page list, then is Ghostscript
    wrapper.write_text(f'#!/bin/sh\nfor a; do case "$a" in -sPageList=*) echo "$$ $a" >> {log};; esac; done\nexec {gs} "$@"\n')
    wrapper.chmod(0o755)
    count = 2 * PAGES_PER_RUN
    path = _pages(tmp_path / "inks.pdf", count)

    with pikepdf.open(path) as pdf:
        alone = ink_failures(str(wrapper), path, pdf, 110, 72, workers=1)
        log.unlink()
        split = ink_failures(str(wrapper), path, pdf, 110, 72, workers=2)

    runs = [line.split() for line in log.read_text().splitlines()]
    first, second = range(1, PAGES_PER_RUN + 1), range(PAGES_PER_RUN + 1, count + 1)
    assert len({pid for pid, _ in runs}) == 2  # two processes, each with half the pages
    assert sorted(p for _, p in runs) == sorted(f"-sPageList={','.join(map(str, part))}" for part in (first, second))
    assert split == alone
    assert alone[0] == pytest.approx(100 + count, abs=1)  # the last page's, found by the second run
    assert [f.page for f in alone[1]] == list(range(11, count + 1))  # above 110 %: cyan past 10 %

"""The ink check renders a file's pages with several Ghostscript runs at
once, each a consecutive part of the pages, and finds what one run finds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest

from pnp.preflight.ink import PAGES_PER_RUN, ink_failures
from tests.conftest import tool
from tests.export.gslog import logged_gs


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


def test_an_export_s_files_share_one_ghostscript_run_with_each_file_s_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting Ghostscript costs as much as rendering several pages: the
    files of one preflight go through as many runs as there are workers,
    not one (or more) each."""
    from pnp.preflight import Requirements, preflight, preflight_files

    log = logged_gs(tmp_path, monkeypatch, "$$ $*")
    wanted = Requirements(boxes=False, max_ink=105)
    files = [(_pages(tmp_path / f"file{n}.pdf", count), wanted) for n, count in enumerate((3, 1, 7))]
    alone = [preflight(path, wanted) for path, wanted in files]
    assert len(log.read_text().splitlines()) == 3  # one run a file
    log.unlink()

    together = preflight_files(files, workers=1)

    runs = log.read_text().splitlines()
    assert len(runs) == 1 and all(str(path) in runs[0] for path, _ in files)
    assert together == alone
    assert [report.max_ink for report in together] == pytest.approx([103, 101, 107], abs=1)
    assert [[f.page for f in report.failures] for report in together] == [[], [], [6, 7]]


def test_the_ink_check_keeps_no_page_image_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's separations are measured as Ghostscript sends them: a
    deck of thousands of distinct faces would otherwise leave a gigabyte
    of images in the temporary folder until the last page is rendered."""
    import tempfile

    tool("gs")
    gs = shutil.which("gs")
    assert gs is not None
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    log = tmp_path / "files.log"
    wrapper = tmp_path / "gs"  # Ghostscript, then what lies in the temporary folder as it ends
    wrapper.write_text(f'#!/bin/sh\n{gs} "$@"\nstatus=$?\nfind {scratch} -type f >> {log}\nexit $status\n')
    wrapper.chmod(0o755)
    path = _pages(tmp_path / "inks.pdf", 2 * PAGES_PER_RUN)

    with pikepdf.open(path) as pdf:
        most, failures = ink_failures(str(wrapper), path, pdf, 110, 72, workers=2)

    assert log.read_text() == ""
    assert most == pytest.approx(100 + 2 * PAGES_PER_RUN, abs=1) and [f.page for f in failures] == list(range(11, 2 * PAGES_PER_RUN + 1))

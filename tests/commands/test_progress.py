"""The progress bar: drawn on a terminal, silent in pipes and CI logs."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.progress import Progress
from tests.conftest import MINI, ROOT, run_pnp
from tests.pdftools import filled_pdf


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bar_draws_on_a_terminal_and_clears_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PNP_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = _Terminal()
    with Progress("laying out", 4, out) as bar:
        for _ in range(4):
            bar.advance()
    text = out.getvalue()
    assert "laying out [" in text and "4/4" in text and "2/4" in text
    assert text.endswith("\r\x1b[K")


def test_bar_says_how_long_is_left_at_the_pace_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PNP_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    ticks = iter([100.0, 104.0, 108.0])  # started; 1 of 4 done after 4 s; 2 of 4 after 8 s
    monkeypatch.setattr("pnp.progress.time.perf_counter", lambda: next(ticks))
    out = _Terminal()
    bar = Progress("playing heuristic", 4, out)
    bar.advance()
    assert out.getvalue().endswith("1/4 4.0 s, about 12 s left\x1b[K")
    bar.advance()
    assert out.getvalue().endswith("2/4 8.0 s, about 8 s left\x1b[K")


@pytest.mark.parametrize("env", [{"CI": "true"}, {"TERM": "dumb"}, {"PNP_NO_PROGRESS": "1"}])
def test_bar_is_silent_in_ci_or_when_asked(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    for key in ("CI", "PNP_NO_PROGRESS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    out = _Terminal()
    with Progress("x", 5, out) as bar:
        bar.advance(5)
    assert out.getvalue() == ""


def test_a_build_in_a_pipe_prints_no_bar(tmp_path: Path) -> None:
    result = run_pnp("build", str(MINI), "--out", str(tmp_path), "--paper", "a4")
    assert result.returncode == 0, result.stderr
    assert "\r" not in result.stderr and "laying out" not in result.stderr


def test_a_build_on_a_terminal_shows_the_bar(tmp_path: Path) -> None:
    """A real pseudo-terminal: the bar is drawn on stderr and cleared at the end."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PNP_NO_PROGRESS")}
    env["TERM"] = "xterm"
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "pnp", "build", str(MINI), "--out", str(tmp_path), "--paper", "a4,letter"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=terminal, cwd=ROOT, env=env,
    )
    os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert process.wait(timeout=120) == 0
    os.close(controller)
    assert b"laying out [" in seen and b"\r\x1b[K" in seen



def _draws(number: int) -> tuple[int, bool]:
    """A job with a bar of its own: whether it would be drawn where the job runs."""
    with Progress("inside", 3) as bar:
        return number * 2, bar.enabled


def test_work_on_forked_workers_counts_on_one_bar_drawn_by_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.parallel import fork_iter, fork_map

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PNP_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = _Terminal()
    monkeypatch.setattr(sys, "stderr", out)
    results = fork_map(_draws, [(n,) for n in range(4)], 2, label="converting")
    assert [doubled for doubled, _ in results] == [0, 2, 4, 6]
    assert not any(drawn for _, drawn in results)  # a worker shares the terminal, not the bar: it stays quiet
    text = out.getvalue()
    assert "converting [" in text and "2/4" in text and "4/4" in text and text.endswith("\r\x1b[K")

    out.seek(0)
    out.truncate()
    assert [n for n, _ in fork_iter(_draws, [(n,) for n in range(3)], 1, label="writing")] == [0, 2, 4]  # one worker: here
    assert "writing [" in out.getvalue() and "3/3" in out.getvalue()


def _checking(tmp_path: Path) -> None:
    from pnp.preflight import Requirements, preflight_files

    files = []
    for number in range(2):
        (tmp_path / f"{number}.pdf").write_bytes(filled_pdf("0 0 1"))
        files.append((tmp_path / f"{number}.pdf", Requirements(boxes=False)))
    preflight_files(files, workers=1)


def _rasterising(tmp_path: Path) -> None:
    from pnp.output.raster import raster_pages

    raster_pages([(filled_pdf("1 0 0"), ["a"]), (filled_pdf("0 1 0"), ["b"])], lambda key: (10, 10), workers=1)


def _writing_images(tmp_path: Path) -> None:
    from PIL import Image

    from pnp.output.raster import pngs

    list(pngs(lambda colour: Image.new("RGB", (4, 4), colour), [(255, 0, 0), (0, 0, 255)], 72, workers=1))


def _imposing(tmp_path: Path) -> None:
    from pnp.pdf.place import write_imposed

    write_imposed([], [(filled_pdf("1 0 0"), [], "A4", tmp_path / "a4.pdf"), (filled_pdf("0 1 0"), [], "Letter", tmp_path / "letter.pdf")], workers=1)


@pytest.mark.parametrize(
    "label, stage",
    [("checking", _checking), ("rasterising", _rasterising), ("writing images", _writing_images), ("imposing", _imposing)],
)
def test_the_long_stages_after_layout_show_a_bar(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, label: str, stage: Callable[[Path], None]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PNP_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = _Terminal()
    monkeypatch.setattr(sys, "stderr", out)
    stage(tmp_path)
    assert f"{label} [" in out.getvalue() and "2/2" in out.getvalue() and out.getvalue().endswith("\r\x1b[K")

"""Ghostscript, watched: for tests that count its runs and who started them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pnp.testing import tool


def logged_gs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str) -> Path:
    """Put a ``gs`` first on PATH that appends ``line`` (shell words, such as
    ``"$PPID"`` or ``"$$ $*"``) to a log, then runs the real Ghostscript;
    the log's path (it exists once gs has run)."""
    tool("gs")
    gs = shutil.which("gs")
    assert gs is not None
    log = tmp_path / "runs.log"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gs").write_text(f'#!/bin/sh\necho "{line}" >> {log}\nexec {gs} "$@"\n')
    (bin_dir / "gs").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    return log

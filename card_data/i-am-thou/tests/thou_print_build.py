"""The printed game built once per paper per test run, shared by this
folder's print tests (a module cache, as tests/conftest.py keeps the shipped
games' builds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.testing import run_pnp

PAPERS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}
"""Each paper's page size in points."""

_BUILT: dict[tuple[str, tuple[str, ...]], tuple[Path, str]] = {}


def built(factory: pytest.TempPathFactory, paper: str, *options: str) -> tuple[Path, str]:
    """The output folder of `pnp build i-am-thou --strict --paper PAPER
    [OPTIONS]` and everything the command printed (one paper at a time:
    builds are slow)."""
    key = (paper, options)
    if key not in _BUILT:
        out = factory.mktemp(f"out-i-am-thou-{paper}")
        result = run_pnp("build", "i-am-thou", "--strict", "--paper", paper, *options, "--out", str(out))
        assert result.returncode == 0, result.stderr
        _BUILT[key] = (out / "i-am-thou", result.stdout + result.stderr)
    return _BUILT[key]

"""A normal install (a wheel, not a checkout) builds a game folder anywhere:
pnp's own resources (the instructions template, its default font, its font
configuration) are package data, and a shipped game copied alone (with the
folders it shares) gives the very bytes it gives in the project.

Cost: 45 s measured on a busy two-core machine (the wheel, a venv without
pip, one A4 build of Persuasion B04); the project's build it compares with is
the session's shared one (b04_build)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pnp.testing import copy_game
from tests.conftest import ROOT, tool
from tests.pdftools import pdftotext


@pytest.mark.wheel
def test_a_wheel_install_builds_a_copied_game_to_the_same_bytes(b04_build: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: building a wheel writes pnp.egg-info/ and build/ beside the sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "pnp", source / "pnp", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "wheels"
    subprocess.run(  # no build isolation: setuptools comes from this environment, nothing is downloaded
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(source)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    [wheel] = wheels.glob("pnp-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for resource in (
        "pnp/resources/templates/pnp/instructions.html",
        "pnp/resources/templates/pnp/instructions.css",
        "pnp/resources/fonts/ebgaramond/EBGaramond12-Regular.ttf",
        "pnp/resources/fonts/ebgaramond/OFL.txt",
        "pnp/resources/fonts/pnp-floor.ttf",
        "pnp/resources/fontconfig.conf",
        "pnp/presets/layouts/poker-9up.yaml",
        "pnp/resources/starters/poker/art/emblem.svg",
        "pnp/resources/starters/engine/rules.py",
        "pnp/resources/starters/project/pnp.toml",
        "pnp/testing/__init__.py",
    ):
        assert resource in names, f"{resource} is not in the wheel"
    # A fresh venv that sees this environment's packages (pnp's dependencies,
    # nothing downloaded) with the wheel installed in it: its pnp, not the
    # editable checkout's, is the one imported.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    work = tmp_path / "elsewhere"
    game = copy_game(ROOT / "card_data" / "persuasion-b04", work / "persuasion-b04", ("tests", "__pycache__"))
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "SOURCE_DATE_EPOCH": "1767225600"}
    where = subprocess.run([python, "-c", "import pnp, pnp.paths; print(pnp.__file__); print(pnp.paths.HOME)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True).stdout.split()
    installed = next((venv / "lib").glob("python3*/site-packages/pnp"))
    assert where == [str(installed / "__init__.py"), str(installed / "resources")]
    built = subprocess.run([python, "-m", "pnp", "build", "persuasion-b04", "--paper", "a4"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    assert built.stderr.splitlines()[0] == f"game folder {game}; no project (no pnp.toml in {work} or above it): pnp's own resources only"
    pdfs = sorted((work / "output" / "persuasion-b04").glob("*.pdf"))
    assert [p.name for p in pdfs] == ["persuasion-b04-home-a4.pdf", "persuasion-b04-rulebook-a4.pdf", "registration-test-a4.pdf"]
    for pdf in pdfs:
        assert pdf.read_bytes() == (b04_build / pdf.name).read_bytes(), f"{pdf.name} differs from the project's build"
    assert "Before you print" in pdftotext(pdfs[0], 1)  # pnp's own instructions page
    fonts = subprocess.run([tool("pdffonts"), str(pdfs[0])], capture_output=True, text=True, check=True).stdout
    assert "EB-Garamond" in fonts

"""A normal install (a wheel, not a checkout) builds a game folder anywhere:
pnp's own resources (the instructions template, its default font, its font
configuration) are package data."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import MINI, ROOT, tool
from tests.pdftools import pdftotext


def test_a_wheel_install_builds_a_game_folder_outside_the_repository(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "pnp", source / "pnp", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", str(wheels), str(source)],
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
    ):
        assert resource in names, f"{resource} is not in the wheel"
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    # A game folder far from any checkout, built from a folder of its own, by
    # the installed package (its dependencies are this environment's).
    work = tmp_path / "elsewhere"
    shutil.copytree(MINI, work / "my-game")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "HOME": str(tmp_path), "SOURCE_DATE_EPOCH": "1767225600"}
    where = subprocess.run([sys.executable, "-c", "import pnp, pnp.paths; print(pnp.__file__); print(pnp.paths.HOME)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert where == [str(site / "pnp" / "__init__.py"), str(site / "pnp" / "resources")]
    built = subprocess.run([sys.executable, "-m", "pnp", "build", "my-game", "--paper", "a4"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    assert built.stderr.splitlines()[0] == f"game folder {work / 'my-game'}; no project (no pnp.toml in {work} or above it): pnp's own resources only"
    pdf = work / "output" / "my-game" / "my-game-home-a4.pdf"
    assert "Before you print" in pdftotext(pdf, 1)  # pnp's own instructions page
    fonts = subprocess.run([tool("pdffonts"), str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "EB-Garamond" in fonts

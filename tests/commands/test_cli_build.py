"""The build command as a user runs it: where results go, reruns, failures."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import json
from pathlib import Path

from tests.conftest import MINI, ROOT, run_pnp


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_game_path_anywhere_builds_under_current_directory(tmp_path: Path) -> None:
    result = run_pnp("build", str(MINI), "--paper", "letter", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "output" / "mini"
    assert (out / "mini-home-letter.pdf").is_file()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["files"] == [
        {"path": "mini-home-letter.pdf", "profile": "home", "paper": "letter", "pages": 1 + 2 + 1},
        {"path": "registration-test-letter.pdf", "profile": "home", "paper": "letter", "pages": 2},
    ]
    assert [(c["id"], c["copies"], c["faces"]) for c in manifest["components"]] == [("cards", 4, 4), ("sleeves", 4, 1)]


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    for name in ("one", "two"):
        assert run_pnp("build", str(MINI), "--out", str(tmp_path / name)).returncode == 0
    for file in ("mini-home-a4.pdf", "mini-home-letter.pdf", "manifest.json"):
        assert _digest(tmp_path / "one" / "mini" / file) == _digest(tmp_path / "two" / "mini" / file), file


def test_a_failed_build_keeps_the_previous_output(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4").returncode == 0
    before = {p.name: _digest(p) for p in (out / "mini").iterdir() if p.is_file()}
    (mini_copy / "templates" / "mini" / "card.html").write_text("{{ card.nope }}")
    failed = run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4")
    assert failed.returncode == 2
    assert {p.name: _digest(p) for p in (out / "mini").iterdir() if p.is_file()} == before


def test_only_builds_a_subset_and_rejects_unknown_components(tmp_path: Path) -> None:
    result = run_pnp("build", str(MINI), "--only", "sleeves", "--paper", "a4", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "mini" / "manifest.json").read_text())
    assert [c["id"] for c in manifest["components"]] == ["sleeves"]
    bad = run_pnp("build", str(MINI), "--only", "dice", "--out", str(tmp_path))
    assert bad.returncode == 2 and "unknown component 'dice'" in bad.stderr


def test_unknown_paper_is_refused() -> None:
    result = run_pnp("build", str(MINI), "--paper", "a5")
    assert result.returncode == 2 and "unknown paper a5" in result.stderr


def test_build_with_no_game_builds_every_shipped_game(tmp_path: Path) -> None:
    result = run_pnp("build", "--paper", "a4", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "persuasion-b04" / "persuasion-b04-home-a4.pdf").is_file()


def test_source_date_epoch_fixes_the_build_date(mini_copy: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT
    from tests.pdftools import pdftotext

    (mini_copy / "templates/mini/card.html").write_text("<p>Printed {{ build.date }}</p>\n")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "946684800"}  # 2000-01-01
    for name in ("one", "two"):
        done = subprocess.run(
            [sys.executable, "-m", "pnp", "build", str(mini_copy), "--paper", "a4", "--out", str(tmp_path / name)],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )
        assert done.returncode == 0, done.stderr
    one, two = (tmp_path / n / "mini" / "mini-home-a4.pdf" for n in ("one", "two"))
    assert _digest(one) == _digest(two)
    assert "Printed 2000-01-01" in pdftotext(one)


def test_a_build_leaves_nothing_in_the_temporary_folder_but_compiled_templates(tmp_path: Path) -> None:
    """WeasyPrint copies each font into a temporary folder that its workers,
    exiting at once, never removed: every build used to leave megabytes behind."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    result = subprocess.run(
        [sys.executable, "-m", "pnp", "build", str(MINI), "--out", str(tmp_path / "out")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "mini" / "mini-home-a4.pdf").is_file()
    left = sorted(p.name for p in scratch.iterdir())
    assert all(name.startswith("_jinja2-cache") for name in left), left

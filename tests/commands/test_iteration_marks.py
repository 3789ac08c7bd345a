"""The designer's loop: build stamps, and overflow / safe-zone warnings."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tests.conftest import MINI, run_pnp
from tests.pdftools import pdftotext

OVERLONG = "A very long line of flavour text that keeps going. " * 40


def _with_card_template(mini: Path, body: str) -> None:
    (mini / "templates" / "mini" / "card.html").write_text(
        '<div class="bleed" style="background: #fff"></div>\n'
        '<div class="safe" style="font-family: \'EB Garamond\'">\n'
        "  <h1>{{ card.title }}</h1>\n" + body + "\n</div>\n"
    )


def test_overlong_text_is_a_warning_naming_the_card_and_element(mini_copy: Path, tmp_path: Path) -> None:
    _with_card_template(
        mini_copy,
        '<div class="flavour" style="height: 20mm; overflow: hidden; font-size: 9pt">'
        "{% if card.id == 'two' %}" + OVERLONG + "{% else %}Short.{% endif %}</div>",
    )
    out = tmp_path / "out"
    result = run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "overflows" in line]
    assert len(lines) == 1, result.stderr
    assert "cards.yaml:" in lines[0] and "warning:" in lines[0]
    assert "cards/two front: div.flavour: text overflows its box by" in lines[0]
    assert (out / "mini" / "mini-home-a4.pdf").is_file()
    # A warm build (faces from the cache) reports it just the same.
    again = run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4")
    assert "laid out 0 documents" in again.stdout
    assert [line for line in again.stderr.splitlines() if "overflows" in line] == lines


def test_strict_makes_overflow_an_error_and_writes_nothing(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4").returncode == 0
    before = hashlib.sha256((out / "mini" / "mini-home-a4.pdf").read_bytes()).hexdigest()
    _with_card_template(mini_copy, '<p class="rules" style="font-size: 14pt">' + OVERLONG + "</p>")
    result = run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4", "--strict")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "p.rules" in result.stderr and "error" in result.stderr.lower()
    assert hashlib.sha256((out / "mini" / "mini-home-a4.pdf").read_bytes()).hexdigest() == before


def test_text_outside_the_safe_zone_is_reported(mini_copy: Path, tmp_path: Path) -> None:
    # A label pinned 1 mm from the trim edge: poker cards have a 3 mm safe inset by default.
    (mini_copy / "templates" / "mini" / "back.html").write_text(
        '<div class="bleed" style="background: #fff"></div>\n'
        '<div class="trim"><span class="edge-note" style="position: absolute; left: 1mm; top: 40mm; '
        "font-family: 'EB Garamond'; font-size: 8pt\">Edge</span></div>\n"
    )
    result = run_pnp("build", str(mini_copy), "--out", str(tmp_path / "out"), "--paper", "a4")
    assert result.returncode == 0, result.stderr
    found = [line for line in result.stderr.splitlines() if "safe zone" in line]
    assert found and all("span.edge-note" in line for line in found)
    assert any("cards/one back" in line for line in found)


def test_home_builds_carry_a_stamp_and_no_stamp_removes_it(tmp_path: Path) -> None:
    stamped = run_pnp("build", str(MINI), "--out", str(tmp_path / "a"), "--paper", "a4")
    plain = run_pnp("build", str(MINI), "--out", str(tmp_path / "b"), "--paper", "a4", "--no-stamp")
    assert stamped.returncode == 0 and plain.returncode == 0, stamped.stderr + plain.stderr
    date = os.environ["SOURCE_DATE_EPOCH"]
    assert date == "1767225600"  # conftest: 2026-01-01
    text = pdftotext(tmp_path / "a" / "mini" / "mini-home-a4.pdf")
    manifest = json.loads((tmp_path / "a" / "mini" / "manifest.json").read_text())
    one = next(c for c in manifest["components"][0]["cards"] if c["id"] == "one")
    # version, date and the first characters of the card's content hash
    assert f"v1 \u00b7 2026-01-01 \u00b7 {one['front'][:6]}" in text
    assert "2026-01-01" not in pdftotext(tmp_path / "b" / "mini" / "mini-home-a4.pdf")
    # The manifest's keys are the unstamped content: the same with and without the stamp.
    other = json.loads((tmp_path / "b" / "mini" / "manifest.json").read_text())
    def keys(data: dict) -> list[list[tuple[str, str, str]]]:
        return [[(c["id"], c["front"], c["back"]) for c in comp["cards"]] for comp in data["components"]]

    assert keys(manifest) == keys(other)


def test_a_new_date_alone_changes_no_card(tmp_path: Path) -> None:
    env_a = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    env_b = {**os.environ, "SOURCE_DATE_EPOCH": "1767312000"}  # the next day
    import subprocess
    import sys

    from tests.conftest import ROOT

    for env, name in ((env_a, "a"), (env_b, "b")):
        subprocess.run([sys.executable, "-m", "pnp", "build", str(MINI), "--out", str(tmp_path / name), "--paper", "a4"], env=env, cwd=ROOT, check=True, capture_output=True)
    diff = run_pnp("diff", str(tmp_path / "a" / "mini"), str(tmp_path / "b" / "mini"))
    assert diff.returncode == 0, diff.stderr
    assert diff.stdout.startswith("0 added, 0 removed, 0 changed"), diff.stdout

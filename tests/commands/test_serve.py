"""`pnp serve` in a real browser: Debian's chromium, headless, driven by
playwright, loads the preview, sees every face, and after a card file is
saved sees the new face appear without the page being reloaded."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture
def served(mini_copy: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``pnp serve`` on a copy of the mini game, on a free port: its address and the game."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pnp", "serve", str(mini_copy), "--port", "0", "--out", str(tmp_path / "out")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy(),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, (line, process.stderr.read() if process.poll() is not None else "")
        yield match.group(0), mini_copy
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def test_the_preview_shows_every_face_and_updates_itself_after_a_save(served: tuple[str, Path], tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    url, game = served
    assert Path(CHROMIUM).is_file(), "chromium is installed by scripts/system-deps.sh test"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(url)
            page.wait_for_function("document.querySelectorAll('.card img').length === 5")
            # Every face image has loaded (3 cards and 2 sleeves, fronts on the tiles).
            page.wait_for_function("[...document.querySelectorAll('.card img')].every(i => i.complete && i.naturalWidth > 0)")
            assert page.locator("[data-card='cards/one'] .id").text_content() == "one"
            before = page.get_attribute("[data-card='cards/one'] img", "src")
            assert (page.text_content("#check-summary") or "").startswith("pnp check: OK, 0 errors, ")
            page.evaluate("window.notReloaded = true")
            cards = game / "cards.yaml"
            cards.write_text(cards.read_text().replace("title: One", "title: Uno"))
            page.wait_for_function(
                "document.querySelector(\"[data-card='cards/one'] .meta\").textContent.startsWith('Uno')", timeout=15_000
            )
            after = page.get_attribute("[data-card='cards/one'] img", "src")
            assert after != before  # a new face, at a new address
            page.wait_for_function("[...document.querySelectorAll('.card img')].every(i => i.complete && i.naturalWidth > 0)")
            assert page.evaluate("window.notReloaded === true")  # updated in place, no reload
            page.click("[data-card='cards/one']")
            assert "defined at" in (page.text_content("#detail-source") or "") and "cards.yaml:2:5" in (page.text_content("#detail-source") or "")
            assert '"sun": 1' in (page.text_content("#detail-data") or "")
            page.wait_for_function("document.fonts.check('15px pnp')")  # the page's own type, not the machine's
            page.screenshot(path=str(tmp_path / "preview.png"))
            # Bad input: the problem is shown, the last faces stay.
            cards.write_text(cards.read_text().replace("copies: 2", "copies: two"))
            page.wait_for_function("!document.getElementById('problems').hidden", timeout=15_000)
            assert "copies" in (page.text_content("#problems") or "")
            assert page.locator(".card img").count() == 5
        finally:
            browser.close()


def test_the_preview_answers_only_at_its_own_address(served: tuple[str, Path]) -> None:
    url, _ = served
    with urllib.request.urlopen(url + "state.json") as response:
        assert response.status == 200
    request = urllib.request.Request(url + "state.json", headers={"Host": "attacker.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 403
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(url + "face/../../etc/passwd")
    assert missing.value.code == 404

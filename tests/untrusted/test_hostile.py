"""Game folders are untrusted: sandboxed templates, no network, no files from
outside, no image bombs, and builds that fail or die lose nothing."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

from typing import Any

import pytest

from tests.conftest import ROOT, run_pnp


def _build(game: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return run_pnp("build", str(game), "--paper", "a4", "--out", str(out))


def _refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, f"{word!r} not in:\n{result.stderr}"


def test_templates_run_in_the_sandbox(mini_copy: Path, tmp_path: Path) -> None:
    (mini_copy / "templates/mini/card.html").write_text("{{ card.__class__.__mro__[1].__subclasses__() }}\n")
    _refused(_build(mini_copy, tmp_path / "out"), "templates/mini/card.html:1:", "card cards/one front", "unsafe")


@pytest.mark.parametrize(
    "src, words",
    [
        ("http://127.0.0.1:9/x.png", ["only local files", "fetches nothing from the network"]),
        ("https://example.com/x.svg", ["only local files"]),
        ("file:///etc/passwd", ["outside the game folder"]),
    ],
)
def test_templates_cannot_reach_the_network_or_outside_files(mini_copy: Path, tmp_path: Path, src: str, words: list[str]) -> None:
    (mini_copy / "templates/mini/card.html").write_text(f'<img src="{src}">\n')
    _refused(_build(mini_copy, tmp_path / "out"), "refused to read", *words)


@pytest.mark.parametrize("how", ["img", "stylesheet", "import", "font", "svg"])
def test_no_connection_reaches_a_listener_on_this_machine(mini_copy: Path, tmp_path: Path, how: str) -> None:
    """A real listener on 127.0.0.1: whatever way a game names its address
    (an image, a stylesheet url(), an @import, a font, a link inside the SVG
    art the card template already shows),
    the build is refused and the listener never sees a connection."""
    import socket

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.setblocking(False)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/x"
        card = mini_copy / "templates/mini/card.html"
        if how == "img":
            card.write_text(f'<img src="{url}.png">\n')
        elif how == "svg":
            (mini_copy / "art/dot.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="{url}.png" width="10" height="10"/></svg>\n')
        else:
            rule = {"stylesheet": f"body {{ background: url({url}.png); }}", "import": f"@import url('{url}.css');",
                    "font": f"@font-face {{ font-family: Far; src: url({url}.ttf); }} body {{ font-family: Far; }}"}[how]
            (mini_copy / "templates/mini/net.css").write_text(rule + "\n")
            text = (mini_copy / "game.yaml").read_text().replace("    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/net.css]\n", 1)
            (mini_copy / "game.yaml").write_text(text)
        result = _build(mini_copy, tmp_path / "out")
        with pytest.raises(BlockingIOError):
            listener.accept()
    _refused(result, "refused to read", "fetches nothing from the network")


@pytest.mark.parametrize("where", ["outside", "inside"])
def test_a_fifo_named_by_a_template_is_refused_never_opened(mini_copy: Path, tmp_path: Path, where: str) -> None:
    """Opening a FIFO waits for a writer forever: nothing that hashes or reads
    files for a build may open one, inside the game folder or out of it."""
    fifo = (tmp_path if where == "outside" else mini_copy / "art") / "pipe.png"
    os.mkfifo(fifo)
    (mini_copy / "templates/mini/card.html").write_text(f'<img src="{fifo.as_uri()}">\n')
    result = run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(tmp_path / "out"), timeout=120)
    _refused(result, "refused to read", "pipe.png")


def test_a_stylesheet_url_to_a_device_is_refused_never_read(mini_copy: Path, tmp_path: Path) -> None:
    (mini_copy / "templates/mini/zero.css").write_text("body { background: url(/dev/zero); }\n")
    text = (mini_copy / "game.yaml").read_text().replace("    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/zero.css]\n", 1)
    (mini_copy / "game.yaml").write_text(text)
    result = run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(tmp_path / "out"), timeout=120)
    _refused(result, "refused to read", "/dev/zero")


def _secret(tmp_path: Path) -> Path:
    """A file outside the game folder whose text must never reach a build."""
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-7d1f outside the game\n")
    return secret


def test_a_template_linked_to_a_file_outside_is_refused(mini_copy: Path, tmp_path: Path) -> None:
    (mini_copy / "templates/mini/leak.html").symlink_to(_secret(tmp_path))
    (mini_copy / "templates/mini/card.html").write_text("<h1>{{ card.title }}</h1>\n{% include 'mini/leak.html' %}\n")
    result = _build(mini_copy, tmp_path / "out")
    _refused(result, "templates/mini/card.html:2:", "'mini/leak.html' lies outside", "card cards/one front")
    assert "SECRET-7d1f" not in result.stderr + result.stdout


def test_a_linked_template_folder_is_refused(mini_copy: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "page.html").write_text("SECRET-7d1f\n")
    (mini_copy / "templates/mini/linked").symlink_to(elsewhere, target_is_directory=True)
    (mini_copy / "templates/mini/card.html").write_text("{% include 'mini/linked/page.html' %}\n")
    result = _build(mini_copy, tmp_path / "out")
    _refused(result, "'mini/linked/page.html' lies outside")
    assert "SECRET-7d1f" not in result.stderr + result.stdout


@pytest.mark.parametrize("linked", ["game.yaml", "layouts/poker-9up.yaml"])
def test_a_game_file_linked_outside_is_refused_unread(mini_copy: Path, tmp_path: Path, linked: str) -> None:
    secret = _secret(tmp_path)
    secret.write_text("id: [SECRET-7d1f\n")  # would be quoted back in a syntax error if it were read
    target = mini_copy / linked
    target.parent.mkdir(exist_ok=True)
    target.unlink(missing_ok=True)
    target.symlink_to(secret)
    result = _build(mini_copy, tmp_path / "out")
    _refused(result, linked, f"refused: {linked} is a link to {secret.resolve()}, outside mini/")
    assert "SECRET-7d1f" not in result.stderr + result.stdout


def test_folders_linked_to_others_inside_the_game_are_read(mini_copy: Path, tmp_path: Path) -> None:
    """A link that stays inside the game folder widens nothing, so it is
    followed: templates/ and art/ linked to other folders of the game build
    the same cards the plain folder builds (only the build stamps differ:
    they hash each face's HTML, which names the folder the art really is in)."""
    plain = _build(mini_copy, tmp_path / "plain")
    assert plain.returncode == 0, plain.stderr
    for name, target in (("templates", "shared-templates"), ("art", "pictures")):
        (mini_copy / name).rename(mini_copy / target)
        (mini_copy / name).symlink_to(target, target_is_directory=True)
    linked = _build(mini_copy, tmp_path / "linked")
    assert linked.returncode == 0, linked.stderr
    from tests.pdftools import pdftotext

    stamp = re.compile(r"v1 · \d{4}-\d\d-\d\d · [0-9a-f]{6}")
    texts = [stamp.sub("", pdftotext(tmp_path / out / "mini/mini-home-a4.pdf")) for out in ("plain", "linked")]
    assert texts[0] == texts[1] and "Three" in texts[0]


def test_stylesheets_cannot_climb_out(mini_copy: Path, tmp_path: Path) -> None:
    (mini_copy / "templates/mini/evil.css").write_text('@import url("../../../../../../etc/passwd");\n')
    text = (mini_copy / "game.yaml").read_text().replace("    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/evil.css]\n", 1)
    (mini_copy / "game.yaml").write_text(text)
    _refused(_build(mini_copy, tmp_path / "out"), "refused to read", "outside the game folder")


def test_paths_in_the_data_cannot_climb_out(mini_copy: Path, tmp_path: Path) -> None:
    text = (mini_copy / "game.yaml").read_text().replace("art: art/dot.svg}", "art: ../../../../etc/passwd}", 1)
    (mini_copy / "game.yaml").write_text(text)
    _refused(_build(mini_copy, tmp_path / "out"), "game.yaml:11:", "art file '../../../../etc/passwd' refused: the path climbs out of mini/ with '..'")


def test_asset_helper_cannot_climb_out(mini_copy: Path, tmp_path: Path) -> None:
    (mini_copy / "templates/mini/card.html").write_text("<img src=\"{{ asset('../../../../etc/passwd') }}\">\n")
    _refused(_build(mini_copy, tmp_path / "out"), "templates/mini/card.html:1:", "asset '../../../../etc/passwd' refused: the path climbs out of mini/")


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header claims ``width`` x ``height``: a bomb if decoded."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 16)) + chunk(b"IEND", b""))


def test_a_decompression_bomb_is_refused(mini_copy: Path, tmp_path: Path) -> None:
    _png_header_only(mini_copy / "art/bomb.png", 100_000, 100_000)
    text = (mini_copy / "game.yaml").read_text().replace("art: art/dot.svg}", "art: art/bomb.png}", 1)
    (mini_copy / "game.yaml").write_text(text)
    _refused(_build(mini_copy, tmp_path / "out"), "game.yaml:11:", "refused", "decompression bomb")


def test_a_20000_px_image_is_refused_before_decoding(mini_copy: Path, tmp_path: Path) -> None:
    from PIL import Image

    Image.new("1", (20_000, 20_000)).save(mini_copy / "art/huge.png")
    text = (mini_copy / "game.yaml").read_text().replace("art: art/dot.svg}", "art: art/huge.png}", 1)
    (mini_copy / "game.yaml").write_text(text)
    _refused(_build(mini_copy, tmp_path / "out"), "game.yaml:11:", "refused")


def test_a_corrupt_image_is_refused(mini_copy: Path, tmp_path: Path) -> None:
    (mini_copy / "art/broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(200))
    text = (mini_copy / "game.yaml").read_text().replace("art: art/dot.svg}", "art: art/broken.png}", 1)
    (mini_copy / "game.yaml").write_text(text)
    _refused(_build(mini_copy, tmp_path / "out"), "game.yaml:11:", "not a readable image")


def test_an_image_a_template_loads_is_checked_too(mini_copy: Path, tmp_path: Path) -> None:
    _png_header_only(mini_copy / "art/bomb.png", 100_000, 100_000)
    (mini_copy / "templates/mini/card.html").write_text("<img src=\"{{ asset('art/bomb.png') }}\">\n")
    _refused(_build(mini_copy, tmp_path / "out"), "refused to read", "bomb.png")


def test_a_bomb_under_another_name_is_refused(mini_copy: Path, tmp_path: Path) -> None:
    """What an image is decides, not what its name says."""
    _png_header_only(mini_copy / "art/harmless.dat", 100_000, 100_000)
    (mini_copy / "templates/mini/card.html").write_text("<img src=\"{{ asset('art/harmless.dat') }}\">\n")
    _refused(_build(mini_copy, tmp_path / "out"), "refused to read", "harmless.dat", "decompression bomb")


def test_a_bomb_in_a_data_uri_is_refused(mini_copy: Path, tmp_path: Path) -> None:
    import base64

    _png_header_only(tmp_path / "bomb.png", 100_000, 100_000)
    data = base64.b64encode((tmp_path / "bomb.png").read_bytes()).decode()
    (mini_copy / "templates/mini/card.html").write_text(f'<img src="data:image/png;base64,{data}">\n')
    _refused(_build(mini_copy, tmp_path / "out"), "refused to read", "data:image/png", "decompression bomb")


def test_a_truncated_jpeg_is_refused(mini_copy: Path, tmp_path: Path) -> None:
    from PIL import Image

    whole = tmp_path / "whole.jpg"
    Image.new("RGB", (400, 300), (200, 40, 40)).save(whole, quality=90)
    (mini_copy / "art/cut.jpg").write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    text = (mini_copy / "game.yaml").read_text().replace("art: art/dot.svg}", "art: art/cut.jpg}", 1)
    (mini_copy / "game.yaml").write_text(text)
    _refused(_build(mini_copy, tmp_path / "out"), "game.yaml:11:", "not a readable image", "truncated")


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_build_leaves_a_consistent_output(mini_copy: Path, tmp_path: Path, how: signal.Signals) -> None:
    """Kill a rebuild at many moments: each time the folder holds the old build
    or the new one, never a mix, and SIGTERM leaves no staged files behind."""
    out = tmp_path / "out"
    assert _build(mini_copy, out).returncode == 0
    saved = tmp_path / "saved"
    shutil.copytree(out, saved)
    old = _digests(out / "mini")
    (mini_copy / "templates/mini/card.html").write_text("<h1>Changed {{ card.title }}</h1>\n")
    # The new build as it comes out of this folder (its render cache included:
    # which faces come from the cache decides how they are grouped, and so the bytes).
    shutil.copytree(saved, tmp_path / "fresh")
    assert _build(mini_copy, tmp_path / "fresh").returncode == 0
    new = _digests(tmp_path / "fresh" / "mini")
    assert old != new
    outcomes = set()
    # Killed at once (it cannot have built anything: the old build), at moments
    # along the way, and after it ended by itself (None: the new build), so the
    # outcomes below never depend on how fast this machine is.
    for delay in (0.0, 0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0, None):
        shutil.rmtree(out)
        shutil.copytree(saved, out)
        process = subprocess.Popen(
            [sys.executable, "-m", "pnp", "build", str(mini_copy), "--paper", "a4", "--out", str(out)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        if delay is None:
            assert process.wait(timeout=120) == 0
        else:
            time.sleep(delay)
            process.send_signal(how)
            process.wait(timeout=60)
        now = {k: v for k, v in _digests(out / "mini").items() if not k.startswith(".pnp-staged-")}
        assert now in (old, new), f"mixed output after a kill at {delay} s"
        outcomes.add("old" if now == old else "new")
        if how == signal.SIGTERM:
            assert not list((out / "mini").glob(".pnp-staged-*"))
    # The first kill interrupted the build before it wrote anything; the last run finished.
    assert outcomes == {"old", "new"}


def test_staged_files_are_dropped_when_a_build_fails_late(tmp_path: Path) -> None:
    from pnp.commit import Outputs

    target = tmp_path / "keep.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with Outputs() as outputs:
            outputs.data(b"new", target)
            raise RuntimeError("late failure")
    assert target.read_text() == "old"
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "No space left on device"), (errno.EROFS, "Read-only file system"), (errno.EACCES, "Permission denied")])
def test_a_disk_that_refuses_a_write_is_one_line_and_loses_nothing(mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: str) -> None:
    """A full disk, a read-only folder or a folder without permission, met
    while the PDFs are written (in the workers) or the manifest is: one line
    naming the file, exit status 3, and the previous build's files as they were."""
    from click.testing import CliRunner

    import pnp.pdf.place as place
    from pnp.cli import main

    out = tmp_path / "out"
    runner = CliRunner()
    first = runner.invoke(main, ["build", str(mini_copy), "--out", str(out), "--paper", "a4"])
    assert first.exit_code == 0, first.output
    before = {p.name: p.read_bytes() for p in (out / "mini").iterdir() if p.is_file()}
    (mini_copy / "cards.yaml").write_text((mini_copy / "cards.yaml").read_text().replace("title: One", "title: Uno"))
    real_save, real_write = place.save_pdf, Path.write_bytes

    def refuse(path: Path) -> None:
        raise OSError(code, os.strerror(code), str(path))

    for where in ("pdf", "manifest"):
        with monkeypatch.context() as patch:
            if where == "pdf":
                patch.setattr(place, "save_pdf", lambda pdf, path, *a: refuse(Path(path)))
            else:
                patch.setattr(Path, "write_bytes", lambda self, data: refuse(self) if self.name.startswith(".pnp-staged-manifest") else real_write(self, data))
            result = runner.invoke(main, ["build", str(mini_copy), "--out", str(out), "--paper", "a4"])
        assert result.exit_code == 3, (where, result.output, result.exception)
        assert words in result.output and ".pnp-staged-" in result.output and "nothing already built was changed" in result.output, result.output
        assert "Traceback" not in result.output
        assert {p.name: p.read_bytes() for p in (out / "mini").iterdir() if p.is_file()} == before, where
    assert real_save is place.save_pdf


def test_a_second_build_of_the_same_folder_waits_for_the_first(mini_copy: Path, tmp_path: Path) -> None:
    """While one build holds the output folder, another says it is waiting and
    writes nothing; once the first lets go it builds, and the files are whole."""
    import fcntl

    out = tmp_path / "out"
    assert run_pnp("build", str(mini_copy), "--out", str(out), "--paper", "a4").returncode == 0
    before = (out / "mini" / "manifest.json").read_bytes()
    (mini_copy / "cards.yaml").write_text((mini_copy / "cards.yaml").read_text().replace("title: One", "title: Uno"))
    held = os.open(out / "mini", os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a build in progress does
        second = subprocess.Popen(
            [sys.executable, "-m", "pnp", "build", str(mini_copy), "--out", str(out), "--paper", "a4"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )
        assert second.stderr is not None
        assert second.stderr.readline().startswith("game folder ")
        said = second.stderr.readline()  # blocks until the second build says something more
        assert "waiting for another build writing to" in said, said
        assert second.poll() is None and (out / "mini" / "manifest.json").read_bytes() == before
        assert not list((out / "mini").glob(".pnp-staged-*"))
    finally:
        os.close(held)
    rest, errors = second.communicate(timeout=300)
    assert second.returncode == 0, errors
    assert (out / "mini" / "manifest.json").read_bytes() != before
    subprocess.run(["qpdf", "--check", str(out / "mini" / "mini-home-a4.pdf")], check=True, capture_output=True)


def test_two_builds_started_together_both_finish_whole(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [sys.executable, "-m", "pnp", "build", str(mini_copy), "--out", str(out), "--paper", "a4,letter"]
    builds = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT) for _ in range(3)]
    for build in builds:
        _, errors = build.communicate(timeout=300)
        assert build.returncode == 0 and "Traceback" not in errors, errors
    for pdf in (out / "mini").glob("*.pdf"):
        subprocess.run(["qpdf", "--check", str(pdf)], check=True, capture_output=True)
    assert not list((out / "mini").glob(".pnp-staged-*"))


def test_a_build_killed_between_its_moves_is_completed_by_the_next(mini_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the system cannot swap two folders, the moves into place are
    written down first (one rename commits the build); a build killed after
    one move leaves the journal, and the next build to hold the folder
    finishes the moves before anything else: the folder then holds exactly
    what the killed build made, never half of it."""
    import pnp.commit as place
    from pnp.output.stage import build
    from pnp.loading.loader import load_game

    out, calm = tmp_path / "out", tmp_path / "calm"
    for folder in (out, calm):
        build(load_game(mini_copy), ["a4", "letter"], folder)
    (mini_copy / "cards.yaml").write_text((mini_copy / "cards.yaml").read_text().replace("title: One", "title: Uno"))
    edited = load_game(mini_copy)
    build(edited, ["a4", "letter"], calm)  # the same edit, not interrupted
    clean = {p.name: p.read_bytes() for p in calm.iterdir() if p.is_file() and not p.name.startswith(".")}

    class Killed(BaseException):
        pass

    real_replace, moves, parent = os.replace, [], os.getpid()

    def replace_then_die(source: Any, target: Any) -> None:
        if os.getpid() != parent or Path(target).parent != out or Path(target).name.startswith(".pnp-staged-"):
            return real_replace(source, target)  # a worker saving a staged file, or the render cache
        moves.append(Path(target).name)
        if len(moves) == 3:  # the journal, one file, then kill -9
            raise Killed
        real_replace(source, target)

    monkeypatch.setattr(place, "can_swap", lambda folder: False)
    with monkeypatch.context() as patch:
        patch.setattr(place.os, "replace", replace_then_die)
        patch.setattr(place.Outputs, "discard", lambda self: None)  # a killed process cleans nothing up
        with pytest.raises(Killed):
            build(edited, ["a4", "letter"], out)
    assert moves[0] == ".pnp-commit" and (out / ".pnp-commit").exists()
    half = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and not p.name.startswith(".")}
    assert half != clean  # a mix of new and old: what the journal is for
    with place.claimed(out):  # what the next build (any pnp command writing here) does first
        pass
    assert not (out / ".pnp-commit").exists() and not list(out.glob(".pnp-staged-*"))
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and not p.name.startswith(".")} == clean


def test_ctrl_c_while_the_command_line_is_still_importing_is_quiet() -> None:
    """Ctrl-C in the first tenth of a second lands in an import: pnp's entry
    point (the `pnp` command and `python -m pnp`) ends it as click ends an
    interrupted command, without a traceback."""
    script = (
        "import builtins\n"
        "real = builtins.__import__\n"
        "def interrupted(name, *args, **kwargs):\n"
        "    if name == 'pnp.cli':\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *args, **kwargs)\n"
        "builtins.__import__ = interrupted\n"
        "from pnp.__main__ import run\n"
        "run()\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 1 and result.stderr == "Aborted!\n", (result.returncode, result.stderr)


def test_the_pnp_command_starts_through_the_quiet_entry_point() -> None:
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"pnp": "pnp.__main__:run"}

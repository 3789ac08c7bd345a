"""No file outside the allowed places is ever opened, proven with Python's
audit hooks (PEP 578) rather than by reading error messages.

Each build below runs in a fresh process whose audit hook writes down every
path opened, listed or scanned, by pnp and by every library it calls from
Python, in the parent and in the forked workers. The hostile game folders try
every way the game format offers to reach a file outside: links, ``file://``
URLs, stylesheet URLs, paths that climb, a FIFO. Whatever the build's outcome,
the file outside must not appear, and nothing may be opened outside the game
folder, the output folder, the project's shared folders, pnp and Python
themselves, the temporary folder and the system's MIME tables.
"""

from __future__ import annotations

import mimetypes
import os
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT

BOOT = """
import os, sys
log = os.open(os.environ["PNP_AUDIT_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
def hook(event, args):
    if event in ("open", "os.listdir", "os.scandir", "shutil.copyfile") and args and isinstance(args[0], (str, bytes, os.PathLike)):
        os.write(log, (os.fsdecode(args[0]) + "\\n").encode("utf-8", "surrogateescape"))
sys.addaudithook(hook)
sys.argv = ["pnp", *sys.argv[1:]]
from pnp.__main__ import run
run()
"""

SECRET = "SECRET-7d1f outside the game\n"


def _audited_build(game: Path, out: Path, log: Path) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    env = dict(os.environ, PNP_AUDIT_LOG=str(log))
    result = subprocess.run(
        [sys.executable, "-c", BOOT, "build", str(game), "--out", str(out), "--paper", "a4"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )
    opened = sorted(set(log.read_text(errors="replace").splitlines())) if log.exists() else []
    return result, opened


def _allowed(game: Path, out: Path) -> list[Path]:
    places = [game, out, *(ROOT / name for name in ("pnp", "templates", "fonts", "art")), Path(tempfile.gettempdir())]
    places += [Path(sys.prefix), Path(sys.base_prefix), *(Path(p) for p in sysconfig.get_paths().values())]
    return [p.resolve() for p in places]


def _outside(opened: list[str], allowed: list[Path]) -> list[str]:
    system = {"/dev/null", *mimetypes.knownfiles, str(ROOT)}  # the import system lists its working folder
    bad = []
    for name in opened:
        if "/" not in name or name in system:  # a name relative to a folder already held (rmtree)
            continue
        path = Path(name) if name.startswith("/") else ROOT / name
        real = Path(os.path.realpath(path))
        if not any(real == root or root in real.parents for root in allowed):
            bad.append(name)
    return bad


def _link_template(game: Path, secret: Path) -> None:
    (game / "templates/mini/leak.html").symlink_to(secret)
    (game / "templates/mini/card.html").write_text("<h1>{{ card.title }}</h1>\n{% include 'mini/leak.html' %}\n")


def _link_template_folder(game: Path, secret: Path) -> None:
    (game / "templates/mini/linked").symlink_to(secret.parent, target_is_directory=True)
    (game / "templates/mini/card.html").write_text(f"{{% include 'mini/linked/{secret.name}' %}}\n")


def _file_url(game: Path, secret: Path) -> None:
    (game / "templates/mini/card.html").write_text(f'<img src="{secret.as_uri()}">\n')


def _stylesheet_url(game: Path, secret: Path) -> None:
    (game / "templates/mini/evil.css").write_text(f"body {{ background: url({secret}); }}\n@import url('{secret.as_uri()}');\n")
    text = (game / "game.yaml").read_text().replace("    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/evil.css]\n", 1)
    (game / "game.yaml").write_text(text)


def _climbing_art(game: Path, secret: Path) -> None:
    climb = os.path.relpath(secret, game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("art: art/dot.svg}", f"art: {climb}}}", 1))


def _linked_art(game: Path, secret: Path) -> None:
    (game / "art/dot.svg").unlink()
    (game / "art/dot.svg").symlink_to(secret)


def _linked_game_file(game: Path, secret: Path) -> None:
    (game / "cards.yaml").unlink()
    (game / "cards.yaml").symlink_to(secret)


def _asset_climb(game: Path, secret: Path) -> None:
    climb = os.path.relpath(secret, game)
    (game / "templates/mini/card.html").write_text(f"<img src=\"{{{{ asset('{climb}') }}}}\">\n")


def _fifo_outside(game: Path, secret: Path) -> None:
    fifo = secret.parent / "pipe.png"
    os.mkfifo(fifo)
    (game / "templates/mini/card.html").write_text(f'<img src="{fifo.as_uri()}">\n')


ATTEMPTS: list[Callable[[Path, Path], None]] = [
    _link_template, _link_template_folder, _file_url, _stylesheet_url, _climbing_art, _linked_art, _linked_game_file, _asset_climb, _fifo_outside,
]


def test_a_sound_build_opens_only_allowed_places(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result, opened = _audited_build(mini_copy, out, tmp_path / "audit.log")
    assert result.returncode == 0, result.stderr
    assert any(name.startswith(str(mini_copy)) for name in opened)  # the hook sees the build's own reads
    assert _outside(opened, _allowed(mini_copy, out)) == []


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=[a.__name__.strip("_") for a in ATTEMPTS])
def test_no_way_in_the_game_format_opens_a_file_outside(mini_copy: Path, tmp_path: Path, attempt: Callable[[Path, Path], None]) -> None:
    secrets = tmp_path / "elsewhere"
    secrets.mkdir()
    secret = secrets / "secret.txt"
    secret.write_text(SECRET)
    attempt(mini_copy, secret)
    out = tmp_path / "out"
    result, opened = _audited_build(mini_copy, out, tmp_path / "audit.log")
    assert result.returncode == 2 and "Traceback" not in result.stderr, (result.returncode, result.stderr)
    assert "SECRET-7d1f" not in result.stdout + result.stderr
    allowed = [p for p in _allowed(mini_copy, out) if p != secrets.resolve() and secrets.resolve() not in p.parents]
    touched = [name for name in opened if "/" in name and secrets.resolve() in Path(os.path.realpath(name)).parents]
    assert touched == [], f"opened outside the game folder: {touched}"
    assert _outside(opened, allowed) == []

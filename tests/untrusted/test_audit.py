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

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.audit import Audited, allowed_for, audited, outside
from tests.conftest import ROOT

SECRET = "SECRET-7d1f outside the game\n"


def _audited_build(game: Path, out: Path, log: Path) -> tuple[Audited, list[str]]:
    """The build, and what it opened outside the places its arguments name."""
    args = ["build", str(game), "--out", str(out), "--paper", "a4"]
    allowed = allowed_for(args, ROOT)  # before the build makes its output folder
    seen = audited(args, ROOT, log, timeout=300)
    assert seen.connected == ()
    return seen, outside(seen.opened, allowed, ROOT)


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


def _linked_templates_folder(game: Path, secret: Path) -> None:
    """The game's own ``templates`` is a link out (``templates -> /etc`` with
    ``front: hostname``): issue 35."""
    shutil.rmtree(game / "templates")
    (game / "templates").symlink_to(secret.parent, target_is_directory=True)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("mini/card.html", secret.name).replace("mini/back.html", secret.name))


def _linked_layouts_folder(game: Path, secret: Path) -> None:
    """Listing a linked ``layouts`` would show what lies elsewhere."""
    shutil.copy(secret, secret.parent / "poker-9up.yaml")
    (game / "layouts").symlink_to(secret.parent, target_is_directory=True)


ATTEMPTS: list[Callable[[Path, Path], None]] = [
    _link_template, _link_template_folder, _file_url, _stylesheet_url, _climbing_art, _linked_art, _linked_game_file, _asset_climb, _fifo_outside,
    _linked_templates_folder, _linked_layouts_folder,
]


def test_a_sound_build_opens_only_allowed_places(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    seen, strays = _audited_build(mini_copy, out, tmp_path / "audit.log")
    assert seen.result.returncode == 0, seen.result.stderr
    assert any(name.startswith(str(mini_copy)) for name in seen.opened)  # the hook sees the build's own reads
    assert strays == []


def test_the_audit_sees_a_file_read_outside(mini_copy: Path, tmp_path: Path) -> None:
    """The harness itself can fail: a folder beside the game that the build
    is told to read (here as the output folder's parent, listed by a stray
    read) is reported when it is not among the allowed places."""
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET)
    allowed = allowed_for(["build", str(mini_copy), "--out", str(tmp_path / "out")], ROOT)
    assert outside((str(secret), str(mini_copy / "game.yaml"), str(tmp_path)), allowed, ROOT) == [str(secret)]


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=[a.__name__.strip("_") for a in ATTEMPTS])
def test_no_way_in_the_game_format_opens_a_file_outside(mini_copy: Path, tmp_path: Path, attempt: Callable[[Path, Path], None]) -> None:
    secrets = tmp_path / "elsewhere"
    secrets.mkdir()
    secret = secrets / "secret.txt"
    secret.write_text(SECRET)
    attempt(mini_copy, secret)
    seen, strays = _audited_build(mini_copy, tmp_path / "out", tmp_path / "audit.log")
    result = seen.result
    assert result.returncode == 2 and "Traceback" not in result.stderr, (result.returncode, result.stderr)
    assert "SECRET-7d1f" not in result.stdout + result.stderr
    touched = [name for name in seen.opened if "/" in name and secrets.resolve() in Path(os.path.realpath(name)).parents]
    assert touched == [], f"opened outside the game folder: {touched}"
    assert strays == []

"""What `pnp build` loads, and when: a small build pays for little besides
laying its faces out (issue 41). Each test runs the real command line in a
fresh process and reads that process's modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import MINI, ROOT

SCRIPT = textwrap.dedent("""
    import json, os, sys

    forks, sent, main = [], [], os.getpid()

    def forking():
        forks.append(sorted(sys.modules))
        if os.getpid() != main:  # the renderer, forking its workers: what they start with
            parsed = sys.modules["pnp.render.sheets"]._MEMO.get() if "pnp.render.sheets" in sys.modules else None
            with open(os.environ["PNP_TEST_FORKS"], "a") as log:
                log.write(json.dumps([*sorted(sys.modules), f"parsed stylesheets: {len(parsed or ())}"]) + "\\n")
    os.register_at_fork(before=forking)
    from pnp.render.service import Renderer

    send = Renderer.render_each
    def render_each(self, *args):
        sent.append(sorted(sys.modules))
        return send(self, *args)
    Renderer.render_each = render_each
    from pnp.__main__ import run
    sys.argv, code = ["pnp", *sys.argv[1:]], None
    try:
        run()
    except SystemExit as exit:
        code = exit.code
    print(json.dumps({
        "code": code, "first_fork": forks[0] if forks else None, "sent": sent[0] if sent else None, "modules": sorted(sys.modules),
    }))
""")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], list[list[str]]]:
    """One `pnp build MINI --paper a4`: its exit status and the modules loaded
    when it first forked, when it first sent the renderer work and when it
    ended; and the modules loaded in the renderer as it forked each worker."""
    tmp_path = tmp_path_factory.mktemp("startup")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "build", str(MINI), "--paper", "a4", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, "PNP_TEST_FORKS": str(tmp_path / "forks.jsonl")},
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    assert found["code"] in (0, None), done.stderr
    log = tmp_path / "forks.jsonl"  # none when the build laid out in its own process (one core)
    return found, [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _renderer_forks(built: tuple[dict[str, object], list[list[str]]]) -> list[list[str]]:
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("with one core the build lays out in its own process")
    assert built[1], "the renderer forked no workers"
    return built[1]


def test_the_renderer_is_forked_before_the_command_line_and_pikepdf_load(built: tuple[dict[str, object], list[list[str]]]) -> None:
    first = built[0]["first_fork"]
    assert isinstance(first, list)
    assert "pnp.render.service" in first
    assert not {"pnp.cli", "pikepdf", "pnp.commands.build", "pnp.model"} & set(first)


NEVER_IN_A_HOME_BUILD = {
    "numpy",  # the exact odds of `pnp check` (pnp.rules.odds), for games with odds rules
    *(f"pnp.commands.{name}" for name in ("cards", "check", "diff", "list_cards", "new", "preflight", "proof", "score", "serve", "simulate", "sweep", "watch")),
    *(f"pnp.output.{name}" for name in ("printpdf", "pngfaces", "raster", "tts", "ttsobjects")),
}
"""What the build process of `pnp build --paper a4` (a home build of a game
without odds rules) has no use for: other commands, other formats, numpy."""


def test_a_home_build_loads_no_other_command_format_or_numpy(built: tuple[dict[str, object], list[list[str]]]) -> None:
    modules = built[0]["modules"]
    assert isinstance(modules, list)
    assert "pnp.commands.build" in modules and "pnp.output.home.run" in modules
    assert sorted(NEVER_IN_A_HOME_BUILD & set(modules)) == []


def test_every_command_loads_under_its_name() -> None:
    import click

    from pnp.cli import COMMANDS, main

    with click.Context(main) as ctx:
        loaded = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    assert list(loaded) == sorted(COMMANDS)
    assert all(isinstance(command, click.Command) and command.name == name for name, command in loaded.items())


def test_what_the_build_needs_after_the_layout_is_loaded_before_it(built: tuple[dict[str, object], list[list[str]]]) -> None:
    """The build waits for the renderer; once the faces are laid out, it
    imposes and writes them at once, loading nothing more (pypdfium2, which
    reads the text near paper edges, loads while WeasyPrint does)."""
    _renderer_forks(built)
    sent, modules = built[0]["sent"], built[0]["modules"]
    assert isinstance(sent, list) and isinstance(modules, list)
    assert sorted(set(modules) - set(sent)) == []


def test_the_renderers_workers_start_with_pillows_formats_loaded(built: tuple[dict[str, object], list[list[str]]]) -> None:
    """Every file a layout fetches is checked with Pillow (pnp.images), and
    the first that is not an image (a font) loads all of Pillow's formats:
    the renderer loads them once, before it forks its workers."""
    forks = _renderer_forks(built)
    assert all({"PIL.Image", "PIL.PngImagePlugin", "PIL.WebPImagePlugin", "PIL.TgaImagePlugin"} <= set(modules) for modules in forks)


def test_the_renderer_loads_no_templating(built: tuple[dict[str, object], list[list[str]]]) -> None:
    """The renderer lays out HTML the build made from the templates: loading
    Jinja2 too (through the modules naming faces in their annotations) would
    delay every cold build's first layout."""
    forks = _renderer_forks(built)
    assert all(not {"jinja2", "pnp.render.faces", "pnp.render.templating"} & set(modules) for modules in forks)


def test_a_build_that_ends_before_its_renderer_is_used_does_not_wait_for_it() -> None:
    """The renderer forked first thing is stopped when the command ends
    without using it (a usage error, --help): without that, the process
    would wait at exit for a renderer that waits for work."""
    for args, code in ((["--paper", "xx"], 2), (["--help"], 0)):
        done = subprocess.run(
            [sys.executable, "-m", "pnp", "build", str(MINI), *args], capture_output=True, text=True, cwd=ROOT, timeout=60,
        )
        assert done.returncode == code, done.stderr


def test_the_renderers_workers_start_with_the_documents_stylesheets_parsed(built: tuple[dict[str, object], list[list[str]]]) -> None:
    """The renderer lays out the last (shortest) document itself before it
    forks its workers, so they start with what a first layout sets up, the
    stylesheets parsed among it, instead of each setting it up again."""
    forks = _renderer_forks(built)
    assert all(modules[-1] != "parsed stylesheets: 0" for modules in forks), [modules[-1] for modules in forks]

"""Every shipped game builds with both print-and-cut profiles (issue 42):
exit status 0, and a cut file for every front sheet that carries the
machine's registration marks, none for any other page. One paper per
profile (Silhouette on Letter, Cricut on A4, the tighter area); the two
builds of a game share one output folder, so its faces are laid out once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.imposition.cutmarks import registration
from pnp.loading.loader import shipped_games
from pnp.loading.presets import load_papers
from pnp.output.profiles import load_profiles
from tests.conftest import run_pnp
from tests.output.test_print_and_cut import registration_drawn
from tests.pdftools import pdfinfo_pages

_OUT: dict[str, Path] = {}


@pytest.mark.parametrize("profile, paper", [("cut-silhouette", "letter"), ("cut-cricut", "a4")])
@pytest.mark.parametrize("game", shipped_games())
def test_every_shipped_game_builds_for_the_cutting_machines(game: str, profile: str, paper: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    out = _OUT.setdefault(game, tmp_path_factory.mktemp(f"cut-{game}"))
    done = run_pnp("build", game, "--profile", profile, "--paper", paper, "--out", str(out))
    assert done.returncode == 0, done.stderr
    folder = out / game
    marks = registration(load_profiles()[profile].cut, load_papers()[paper])  # type: ignore[arg-type]
    pdfs = sorted(folder.glob(f"*-{profile}-{paper}.pdf"))
    assert pdfs
    for pdf in pdfs:
        cut = folder / (pdf.stem + "-cut")
        machine = {page for page in range(2, len(pdfinfo_pages(pdf)) + 1) if registration_drawn(pdf, page, marks)}
        svgs = {int(m.group(1)) for f in cut.glob("page-*.svg") if (m := re.fullmatch(r"page-(\d+)\.svg", f.name))}
        dxfs = {int(m.group(1)) for f in cut.glob("page-*.dxf") if (m := re.fullmatch(r"page-(\d+)\.dxf", f.name))}
        assert machine and svgs == dxfs == machine, pdf.name
        for page in machine:
            assert '<path d="M ' in (cut / f"page-{page:02d}.svg").read_text()
    by_hand = re.findall(r"components\.([\w-]+)\.layout: .*cut by hand", done.stderr)
    assert by_hand == (["letterboxes"] if (game, profile) == ("persuasion-b04", "cut-cricut") else [])

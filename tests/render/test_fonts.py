"""Same PDF on every machine: glyphs come only from font files the project or
the game ships, whatever fonts the machine has (issue 15).

The bad-input side (undeclared family, missing character, a file that is no
font) is in tests/test_bad_input.py's corpus.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops

from pnp.paths import OWN
from tests.conftest import ROOT, tool
from tests.glyphs import EB_GARAMOND_SC, drawn_glyphs, source_of

def test_every_glyph_of_the_shipped_games_comes_from_a_shipped_font_file(b04_build: Path, d01_build: Path) -> None:
    pdfs = sorted([*b04_build.glob("*.pdf"), *d01_build.glob("*.pdf")])
    assert len(pdfs) >= 8
    used: set[Path] = set()
    for path in pdfs:
        listing = subprocess.run([tool("pdffonts"), str(path)], capture_output=True, text=True, check=True).stdout
        rows = listing.splitlines()[2:]
        assert rows, f"{path.name}: no fonts"
        for row in rows:
            # name, type (two words), encoding, emb, sub, uni, object id
            assert row.split()[-5:-2] == ["yes", "yes", "yes"], f"{path.name}: not embedded as a subset: {row}"
        with pikepdf.open(path) as pdf:
            drawn = drawn_glyphs(pdf)
            assert drawn, f"{path.name}: no text found"
            for font, gids in drawn.values():
                assert font.Subtype == "/Type0", f"{path.name}: {font.BaseFont}"
                program = font.DescendantFonts[0].FontDescriptor.get("/FontFile2")
                assert program is not None, f"{path.name}: {font.BaseFont} is not an embedded TrueType program"
                used.add(source_of(program.read_bytes(), gids))
    assert used == {EB_GARAMOND_SC, OWN / "fonts/ebgaramond/EBGaramond12-Regular.ttf", OWN / "fonts/ebgaramond/EBGaramond12-Italic.ttf"}


def _decoy(source: Path, family: str, target: Path) -> None:
    """``source``'s outlines under another family name, as an upright regular
    face: what fontconfig would take for that family's regular font."""
    font = TTFont(source)
    for record in font["name"].names:
        if record.nameID in (1, 16):
            record.string = family
        elif record.nameID in (2, 17):
            record.string = "Regular"
        elif record.nameID == 4:
            record.string = f"{family} Regular"
        elif record.nameID == 6:
            record.string = family.replace(" ", "") + "-Regular"
    font["OS/2"].fsSelection = (font["OS/2"].fsSelection & ~0b1) | 0b1000000
    font["head"].macStyle = 0
    font["post"].italicAngle = 0
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(target)


@pytest.fixture
def decoy_home(tmp_path: Path) -> Path:
    """A home folder whose user fonts claim both families the shipped games
    use, drawn with the italic's outlines, so a substitution shows at once."""
    home = tmp_path / "decoy-home"
    italic = OWN / "fonts/ebgaramond/EBGaramond12-Italic.ttf"
    _decoy(italic, "EB Garamond", home / ".local/share/fonts/decoy-regular.ttf")
    _decoy(italic, "EB Garamond EB_GARAMOND_SC", home / ".fonts/decoy-sc.ttf")
    return home


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}  # the machine's usual configuration
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local/share"), XDG_CACHE_HOME=str(home / ".cache"))
    return env


def _pixels(pdf: Path, page: int) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        return document[page].render(scale=150 / 72).to_pil().convert("RGB")
    finally:
        document.close()


_PLAIN_WEASYPRINT = textwrap.dedent(
    """
    import sys, weasyprint
    sc, regular, out = sys.argv[1:]
    html = f'''<style>@page {{ size: 80mm 30mm; margin: 0 }}
    @font-face {{ font-family: "EB Garamond EB_GARAMOND_SC"; src: url(file://{sc}) }}
    @font-face {{ font-family: "EB Garamond"; src: url(file://{regular}) }}
    h1 {{ font-family: "EB Garamond EB_GARAMOND_SC"; font-weight: normal }} p {{ font-family: "EB Garamond" }}</style>
    <h1>Extravagant</h1><p>Plain text</p>'''
    open(out, "wb").write(weasyprint.HTML(string=html).write_pdf())
    """
)


def test_the_decoy_fonts_would_win_without_pnps_font_configuration(decoy_home: Path, tmp_path: Path) -> None:
    """The control for the test below: WeasyPrint on its own, with the
    machine's usual fontconfig, draws the user's decoy instead of the font
    the document declares (the defect behind issue 15)."""
    regular = OWN / "fonts/ebgaramond/EBGaramond12-Regular.ttf"
    pdfs = []
    for home in (tmp_path / "empty-home", decoy_home):
        out = tmp_path / f"{home.name}.pdf"
        subprocess.run([sys.executable, "-c", _PLAIN_WEASYPRINT, str(EB_GARAMOND_SC), str(regular), str(out)], env=_env(home), check=True, capture_output=True)
        pdfs.append(out)
    assert ImageChops.difference(_pixels(pdfs[0], 0), _pixels(pdfs[1], 0)).getbbox() is not None


def test_fonts_installed_on_the_machine_change_no_pixel(mini_copy: Path, decoy_home: Path, tmp_path: Path) -> None:
    (mini_copy / "fonts/ebgaramond").mkdir(parents=True)
    shutil.copy(EB_GARAMOND_SC, mini_copy / "fonts/ebgaramond")
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace(
        "fonts:\n", "fonts:\n  - {family: EB Garamond EB_GARAMOND_SC, file: fonts/ebgaramond/EBGaramondSC12-Regular.ttf}\n", 1
    ))
    card = mini_copy / "templates/mini/card.html"
    card.write_text(card.read_text().replace("<h1>", "<h1 style=\"font-family: 'EB Garamond EB_GARAMOND_SC'\">"))
    built = []
    for home in (tmp_path / "empty-home", decoy_home):
        out = tmp_path / f"out-{home.name}"
        result = subprocess.run(
            [sys.executable, "-m", "pnp", "build", str(mini_copy), "--paper", "a4", "--out", str(out)],
            env=_env(home), cwd=ROOT, capture_output=True, text=True, timeout=300,
        )
        assert result.returncode == 0, result.stderr
        built.append(out / "mini" / "mini-home-a4.pdf")
    assert built[0].read_bytes() == built[1].read_bytes()
    for page in (1, 2):  # the card fronts (titles in the EB_GARAMOND_SC font) and their backs
        assert ImageChops.difference(_pixels(built[0], page), _pixels(built[1], page)).getbbox() is None


def test_the_glyph_check_catches_a_glyph_from_an_unshipped_font(tmp_path: Path) -> None:
    """The check above can fail: a font whose 'e' was redrawn (any font not
    shipped) is found out by the one glyph it draws differently."""
    from pnp.model import FontFace
    from pnp.render.scope import Scope
    from pnp.render.dispatch import render_pdf

    font = TTFont(OWN / "fonts/ebgaramond/EBGaramond12-Regular.ttf")
    glyph = font["glyf"]["e"]
    glyph.coordinates.translate((0, 7))
    altered = tmp_path / "Altered.ttf"
    font.save(altered)
    family = "@font-face { font-family: Altered; src: url(%s) } html { font-family: Altered }" % altered.as_uri()
    shown = [("Ab", True), ("Abe", False)]
    for text, passes in shown:
        data = render_pdf(f"<style>{family}</style><p>{text}</p>", Scope((tmp_path,), (FontFace("Altered", altered, "normal", 400),)), "altered")
        with pikepdf.open(io.BytesIO(data)) as pdf:
            [(embedded, gids)] = drawn_glyphs(pdf).values()
            program = embedded.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()
            if passes:
                assert source_of(program, gids) == OWN / "fonts/ebgaramond/EBGaramond12-Regular.ttf"
            else:
                with pytest.raises(AssertionError, match="match none of the font files"):
                    source_of(program, gids)

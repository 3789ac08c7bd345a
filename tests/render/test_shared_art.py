"""Each picture and each font once per PDF: a deck of a few hundred distinct
faces, every one showing the same SVG picture and the same raster image,
holds one form for the picture, one image and one file per font, and every
face still shows its own text."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pikepdf
from PIL import Image

from tests.conftest import run_pnp, tool
from tests.pdftools import pdftotext

CARDS = 240

GRADIENT_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">'
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#a00"/><stop offset="1" stop-color="#00a"/></linearGradient></defs>'
    '<circle cx="5" cy="5" r="4" fill="url(#g)" opacity="0.6"/><rect x="1" y="1" width="3" height="3" fill="#333"/></svg>'
)


def _big_deck(mini: Path) -> Path:
    (mini / "art" / "sun.svg").write_text(GRADIENT_SVG)
    Image.new("RGB", (24, 24), (40, 120, 200)).save(mini / "art" / "moon.png")
    game = mini / "game.yaml"
    game.write_text(
        game.read_text()
        .replace("{id: sun, name: Sun, art: art/dot.svg}", "{id: sun, name: Sun, art: art/sun.svg}")
        .replace("{id: moon, name: Moon, art: art/dot.svg}", "{id: moon, name: Moon, art: art/moon.png}")
    )
    cards = [f"  - id: c{n}\n    title: Card{n:03d}\n    symbols: {{sun: 1, moon: -1}}\n" for n in range(CARDS)]
    (mini / "cards.yaml").write_text("cards:\n" + "".join(cards))
    return mini


def test_each_picture_is_one_object_per_pdf_and_each_face_keeps_its_text(mini_copy: Path, tmp_path: Path) -> None:
    """Issue 41's test. Each art file is one object in the PDF however many
    faces show it (moon.png one image, sun.svg one form with the groups
    inside it), each face placed once is drawn in its sheet's stream (the
    PDF's forms do not grow with the deck: the faces compress together),
    each font is one file and one dictionary, and every face renders its own text."""
    out = tmp_path / "out"
    result = run_pnp("build", str(_big_deck(mini_copy)), "--paper", "a4", "--out", str(out))
    assert result.returncode == 0, result.stderr
    home = next(out.rglob("*-home-a4.pdf"))
    with pikepdf.open(home) as pdf:
        drawn = {(str(o.Subtype), o.objgen) for page in pdf.pages for o in page.Resources.get("/XObject", {}).values()}
        assert sorted(kind for kind, _ in drawn) == ["/Form", "/Form", "/Image"]  # sun.svg's form, the one back's, moon.png
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        forms = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        assert len(images) == 1
        assert len(forms) <= 4  # the back's, and the picture's form and the groups inside it, once
        descriptors = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"]
        fonts = {str(d.FontName).split("+", 1)[-1] for d in descriptors}
        assert len({d.FontFile2.objgen for d in descriptors}) == len(fonts)  # each font embedded once...
        assert len(descriptors) == len(_fonts_drawn(pdf)) == len(fonts)  # ...with one dictionary, though laid out in several documents
    text = pdftotext(home)
    for n in range(CARDS):
        assert f"Card{n:03d}" in text


def test_a_print_shop_export_holds_each_picture_and_font_once(mini_copy: Path, tmp_path: Path) -> None:
    """The export of the same deck for a print shop (one PDF of card pages)
    keeps each picture and each font's file once, as the home build does."""
    out = tmp_path / "out"
    deck = _big_deck(mini_copy)
    Image.new("RGB", (128, 128), (40, 120, 200)).save(deck / "art" / "moon.png")  # 300 ppi and more where it is drawn: a shop's least
    result = run_pnp("build", str(deck), "--profile", "drivethrucards", "--out", str(out))
    assert result.returncode == 0, result.stderr
    export = next(p for p in out.rglob("*.pdf") if "cards" in p.name)
    with pikepdf.open(export) as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert len(images) == 1  # moon.png, on every face
        descriptors = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"]
        fonts = {str(d.FontName).split("+", 1)[-1] for d in descriptors}
        assert len({d.FontFile2.objgen for d in descriptors}) == len(fonts)
    text = pdftotext(export)
    for n in range(CARDS):
        assert f"Card{n:03d}" in text


def test_a_shared_picture_too_coarse_for_a_shop_is_one_problem_told_once(mini_copy: Path, tmp_path: Path) -> None:
    """The same low-resolution picture on all 240 faces is one problem: the
    refusal says it once, with how often it was found."""
    result = run_pnp("build", str(_big_deck(mini_copy)), "--profile", "drivethrucards", "--out", str(tmp_path / "out"))
    assert result.returncode != 0
    assert "preflight found 1 problem;" in result.stderr, result.stderr
    coarse = [line for line in result.stderr.splitlines() if "[ppi]" in line]
    assert len(coarse) == 1 and coarse[0].endswith(f"({CARDS} times)"), coarse


def _document(text: str) -> bytes:
    from pnp.render.fontconfig import FLOOR_FONT
    from pnp.render.weasy import lay_out

    garamond = FLOOR_FONT.parent / "ebgaramond" / "EBGaramond12-Regular.ttf"
    style = f"@font-face {{ font-family: G; src: url({garamond.as_uri()}); }} p {{ font: 30pt G; break-after: page }}"
    pages = "".join(f"<p>{line}</p>" for line in text.split("/"))
    data = lay_out(f"<style>{style}</style>{pages}").write_pdf()
    assert isinstance(data, bytes)
    return data


def _pages(path: Path) -> list[bytes]:
    subprocess.run([tool("pdftoppm"), "-r", "100", str(path), str(path.with_suffix(""))], check=True)
    return [p.read_bytes() for p in sorted(path.parent.glob(f"{path.stem}-*.ppm"))]


def test_one_font_file_per_font_draws_every_page_as_each_subset_did(tmp_path: Path) -> None:
    """Documents with different text embed different subsets of one font;
    merged, the PDF holds one font file, and every page draws and reads as before."""
    from pnp.pdf.fonts import merge_font_files

    parts = [pikepdf.open(io.BytesIO(_document(text))) for text in ("Quiet zebra/jumps", "Vexing fjords!", "Hamburg 1234")]
    for merged in (False, True):
        out = pikepdf.new()
        for part in parts:
            out.pages.extend(part.pages)
        if merged:
            assert merge_font_files(out) == 3
        out.save(tmp_path / f"{merged}.pdf")
    with pikepdf.open(tmp_path / "True.pdf") as pdf:
        files = {o.FontFile2.objgen for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"}
        assert len(files) == 1
    assert _pages(tmp_path / "True.pdf") == _pages(tmp_path / "False.pdf")
    assert pdftotext(tmp_path / "True.pdf") == pdftotext(tmp_path / "False.pdf")


def _fonts_drawn(pdf: pikepdf.Pdf) -> set[tuple[int, int]]:
    """The font dictionaries every page and the forms it draws name."""
    found = set()
    for page in pdf.pages:
        for form in page.Resources.get("/XObject", {}).values():
            found |= {font.objgen for font in form.get("/Resources", {}).get("/Font", {}).values()}
        found |= {font.objgen for font in page.Resources.get("/Font", {}).values()}
    return found


def test_one_font_dictionary_per_font_reads_and_draws_every_page_as_before(tmp_path: Path) -> None:
    """The documents' font dictionaries of one font file become one, holding
    all their widths and text maps: one /ToUnicode stream, and every page
    draws and reads as before."""
    from pnp.pdf.fontdicts import merge_font_dicts
    from pnp.pdf.fonts import merge_font_files

    parts = [pikepdf.open(io.BytesIO(_document(text))) for text in ("Quiet zebra/jumps", "Vexing fjords!", "Hamburg 1234")]
    for merged in (False, True):
        out = pikepdf.new()
        for part in parts:
            out.pages.extend(part.pages)
        merge_font_files(out)
        if merged:
            assert merge_font_dicts(out) == 3
        out.save(tmp_path / f"{merged}.pdf")
    with pikepdf.open(tmp_path / "True.pdf") as pdf:
        assert len(_fonts_drawn(pdf)) == 1
        maps = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and b"begincmap" in o.read_bytes()]
        assert len(maps) == 1
    assert _pages(tmp_path / "True.pdf") == _pages(tmp_path / "False.pdf")
    assert pdftotext(tmp_path / "True.pdf") == pdftotext(tmp_path / "False.pdf")


def test_font_dictionaries_that_disagree_on_a_code_stay_apart() -> None:
    """Two documents whose maps give one code different text keep their own dictionaries."""
    from pnp.pdf.fontdicts import merge_font_dicts
    from pnp.pdf.fonts import merge_font_files

    parts = [pikepdf.open(io.BytesIO(_document(text))) for text in ("Quiet", "Quiet")]
    out = pikepdf.new()
    for part in parts:
        out.pages.extend(part.pages)
    merge_font_files(out)
    font = next(iter(out.pages[1].Resources.Font.values()))
    font.ToUnicode.write(font.ToUnicode.read_bytes().replace(b"<0051>", b"<0052>", 1))  # Q read as R
    assert merge_font_dicts(out) == 0
    assert len(_fonts_drawn(out)) == 2

"""CMYK print exports (drivethrucards, factory) opened with independent tools."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image

from tests.conftest import ROOT, run_pnp, tool
from tests.pdftools import pdffonts, pdftotext, qpdf_check

ICC = ROOT / "pnp" / "presets" / "icc" / "pnp-fogra39-tac240.icc"
INCH = 72.0
MM = 72 / 25.4


@pytest.fixture(scope="module")
def dtc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dtc")
    result = run_pnp("build", "persuasion-b04", "--profile", "drivethrucards", "--only", "traits,reference,letterboxes", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "skipped letterboxes: size custom" in result.stderr  # DriveThruCards prints cards, not boards
    return out / "persuasion-b04" / "drivethrucards"


def _boxes(pdf: Path) -> list[dict[str, list[float]]]:
    out = subprocess.run([tool("pdfinfo"), "-box", "-f", "1", "-l", "100000", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages: dict[int, dict[str, list[float]]] = {}
    for number, box, values in re.findall(r"Page\s+(\d+) (MediaBox|TrimBox|BleedBox):\s+([\d.\s]+)\n", out):
        pages.setdefault(int(number), {})[box] = [float(v) for v in values.split()]
    return [pages[k] for k in sorted(pages)]


def _operators(pdf: pikepdf.Pdf) -> set[str]:
    """Every operator in every page and (nested) form of the file."""
    seen: set[str] = set()
    done: set[tuple[int, int]] = set()

    def walk(stream: pikepdf.Object, resources: pikepdf.Object | None) -> None:
        for instruction in pikepdf.parse_content_stream(stream):
            seen.add(str(instruction.operator))
            if str(instruction.operator) == "Do" and resources is not None:
                xobject = resources.XObject[instruction.operands[0]]
                if xobject.get("/Subtype") == "/Form" and xobject.objgen not in done:
                    done.add(xobject.objgen)
                    walk(xobject, xobject.get("/Resources", resources))

    for page in pdf.pages:
        walk(page.obj, page.obj.get("/Resources"))
    return seen


def test_drivethrucards_pages_boxes_and_order(dtc: Path) -> None:
    index = json.loads((dtc / "index.json").read_text())
    assert [f["component"] for f in index["files"]] == ["traits", "reference"]
    assert any(s.startswith("letterboxes:") for s in index["skipped"])
    traits = dtc / "persuasion-b04-traits.pdf"
    assert qpdf_check(traits).returncode == 0
    boxes = _boxes(traits)
    assert len(boxes) == 120  # 60 cards, back and front each
    for page in boxes:
        # 2.75 x 3.75 in with 1/8 in of bleed around the 2.5 x 3.5 in trim
        assert page["MediaBox"] == pytest.approx([0, 0, 2.75 * INCH, 3.75 * INCH], abs=0.01)
        assert page["BleedBox"] == pytest.approx(page["MediaBox"], abs=0.01)
        assert page["TrimBox"] == pytest.approx([9, 9, 2.625 * INCH, 3.625 * INCH], abs=0.05)
    # back1, front1, back2, front2 ...: every odd page is the back, every even one a card
    back, first, second = pdftotext(traits, 1, 1), pdftotext(traits, 2, 2), pdftotext(traits, 4, 4)
    assert "B04" in back and "Fortune" not in back
    assert "Fortune" in first and "Fortune" in second and first != second
    assert pdftotext(traits, 3, 3) == back
    assert all(f["emb"] == "yes" for f in pdffonts(traits))


def test_drivethrucards_is_cmyk_pdfx4_with_the_shipped_profile(dtc: Path) -> None:
    traits = dtc / "persuasion-b04-traits.pdf"
    with pikepdf.open(traits) as pdf:
        assert pdf.pdf_version == "1.6"
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert intent.DestOutputProfile.N == 4
        assert intent.DestOutputProfile.read_bytes() == ICC.read_bytes()
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4" and pdf.docinfo["/Trapped"] == "/False"
        assert pdf.open_metadata()["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
        operators = _operators(pdf)
        assert {"k", "K"} & operators and not {"rg", "RG", "g", "G", "sc", "SC"} & operators
        for obj in pdf.objects:  # no RGB colour space left anywhere in the file
            assert "/DeviceRGB" not in repr(obj) if isinstance(obj, (pikepdf.Dictionary, pikepdf.Array)) else True
        # The palette's `ink` has a print value, [0, 15, 25, 95]: card text uses it exactly.
        text = b"".join(pikepdf.unparse_content_stream(pikepdf.parse_content_stream(x)) for x in _forms(pdf))
        assert b"0 .15 .25 .95 k" in text or b"0 0.15 0.25 0.95 k" in text


def _forms(pdf: pikepdf.Pdf) -> list[pikepdf.Object]:
    return [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"]


def test_total_ink_measured_on_separations_stays_under_240(dtc: Path, tmp_path: Path) -> None:
    """Ghostscript renders the CMYK separations of a back and a front; the
    highest C+M+Y+K of any pixel is the total ink."""
    traits = dtc / "persuasion-b04-traits.pdf"
    subprocess.run(
        [tool("gs"), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", "-r100", "-dFirstPage=1", "-dLastPage=2",
         "-o", str(tmp_path / "p%d.tif"), str(traits)],
        check=True,
    )
    worst = []
    for page in (1, 2):
        pixels = np.asarray(Image.open(tmp_path / f"p{page}.tif").convert("CMYK"), dtype=np.uint16)
        worst.append(pixels.sum(axis=2).max() / 255 * 100)
    assert max(worst) <= 240.5
    assert worst[0] > 150  # the dark back really is printed in ink (not left white)


def test_factory_is_one_file_per_component_fronts_first_with_3mm_bleed(tmp_path: Path) -> None:
    result = run_pnp("build", "persuasion-b04", "--profile", "factory", "--only", "traits,letterboxes", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "persuasion-b04" / "factory"
    traits, boards = folder / "persuasion-b04-traits.pdf", folder / "persuasion-b04-letterboxes.pdf"
    bleed = 3 * MM
    page = _boxes(traits)[0]
    assert page["MediaBox"] == pytest.approx([0, 0, 63.5 * MM + 2 * bleed, 88.9 * MM + 2 * bleed], abs=0.02)
    assert page["TrimBox"] == pytest.approx([bleed, bleed, 63.5 * MM + bleed, 88.9 * MM + bleed], abs=0.05)
    assert "Fortune" in pdftotext(traits, 1, 1) + pdftotext(traits, 3, 3)  # fronts first
    assert "Fortune" not in pdftotext(traits, 2, 2)
    board = _boxes(boards)[0]
    assert board["MediaBox"] == pytest.approx([0, 0, 238 * MM, 134 * MM], abs=0.05)
    assert len(_boxes(boards)) == 16  # eight one-sided letterboxes, each followed by a plain back
    assert "Ashford" in pdftotext(boards, 1, 1) and pdftotext(boards, 2, 2).strip() == ""
    with pikepdf.open(boards) as pdf:
        assert not {"rg", "RG"} & _operators(pdf)


def test_preflight_stops_an_export_over_the_ink_limit(mini_copy: Path, tmp_path: Path) -> None:
    game = mini_copy / "game.yaml"
    text = game.read_text().replace(
        "sets:\n", 'palette:\n  heavy: {screen: "#aa0000", print: [100, 100, 100, 100]}\nsets:\n', 1
    )
    game.write_text(text.replace('color: "#aa0000"', "color: heavy"))
    (mini_copy / "templates" / "mini" / "back.html").write_text(
        '<div class="bleed" style="background: {{ card.entry.color if card.entry else \'#ffffff\' }}"></div>\n'
    )
    out = tmp_path / "out"
    result = run_pnp("build", str(mini_copy), "--profile", "drivethrucards", "--out", str(out))
    assert result.returncode == 1, result.stderr
    assert "[ink] total ink reaches 400.0 %" in result.stderr and "nothing was written" in result.stderr
    assert "Traceback" not in result.stderr
    assert not list((out / "mini" / "drivethrucards").glob("*.pdf")) if (out / "mini" / "drivethrucards").exists() else True
    forced = run_pnp("build", str(mini_copy), "--profile", "drivethrucards", "--out", str(out), "--force")
    assert forced.returncode == 0, forced.stderr
    said = re.search(r"(\d+) (problems?), written with --force", forced.stdout)
    assert said and said[2] == ("problem" if said[1] == "1" else "problems"), forced.stdout


def test_low_resolution_art_is_converted_and_caught(mini_copy: Path, tmp_path: Path) -> None:
    Image.new("RGB", (40, 40), (30, 120, 200)).save(mini_copy / "art" / "photo.png")  # 40 px over 25 mm: 41 ppi
    (mini_copy / "templates" / "mini" / "back.html").write_text(
        '<div class="bleed" style="background: #ffffff"></div>\n'
        "<div class=\"safe\"><img src=\"{{ asset('art/photo.png') }}\" style=\"width: 25mm; height: 25mm\"></div>\n"
    )
    out = tmp_path / "out"
    result = run_pnp("build", str(mini_copy), "--profile", "factory", "--out", str(out), "--force")
    assert result.returncode == 0, result.stderr
    index = json.loads((out / "mini" / "factory" / "index.json").read_text())
    cards = next(f for f in index["files"] if f["component"] == "cards")
    assert not cards["preflight"]["passed"]
    assert cards["preflight"]["min_ppi"] == pytest.approx(40 / (25 / 25.4), abs=1)
    assert any("ppi" in message for message in cards["preflight"]["failures"])
    with pikepdf.open(out / "mini" / "factory" / "mini-cards.pdf") as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert images and all(i.ColorSpace == "/DeviceCMYK" for i in images if i.get("/SMask") is not None or i.ColorSpace != "/DeviceGray")
        # poppler reads the same colour space and resolution
        listing = subprocess.run([tool("pdfimages"), "-list", str(out / "mini" / "factory" / "mini-cards.pdf")], capture_output=True, text=True, check=True).stdout
        assert "cmyk" in listing


def test_preflight_command_passes_the_export_and_fails_a_home_pdf(dtc: Path, b04_build: Path) -> None:
    good = run_pnp("preflight", str(dtc / "persuasion-b04-reference.pdf"), "--profile", "drivethrucards")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "passed" in good.stdout and "max ink" in good.stdout
    home = run_pnp("preflight", str(b04_build / "persuasion-b04-home-a4.pdf"), "--profile", "drivethrucards")
    assert home.returncode == 1
    assert "[colour]" in home.stdout and "[pdfx]" in home.stdout and "[boxes]" in home.stdout
    assert "Traceback" not in home.stderr

"""`--pdfx 1a` (issue 42): print PDFs flattened by Ghostscript into PDF/X-1a,
read back with pikepdf, qpdf, pdfinfo and pdftotext rather than pnp's preflight."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Name

from tests.conftest import MINI, run_pnp
from tests.pdftools import pdftotext, qpdf_check

CIE = {"/ICCBased", "/CalRGB", "/CalGray", "/Lab", "/DeviceRGB"}


def _transparent(mini: Path) -> None:
    """The mini game's card titles at half opacity: transparency on every front."""
    card = mini / "templates" / "mini" / "card.html"
    card.write_text(card.read_text().replace("<h1>", '<h1 style="opacity: 0.5">', 1))


def _forbidden(pdf: pikepdf.Pdf) -> list[str]:
    """Everything in the file, used or not, that PDF/X-1a forbids: every object, direct ones too."""
    found: list[str] = []

    def look(obj: object, depth: int) -> None:
        if depth > 12:
            return
        if isinstance(obj, pikepdf.Array):
            if len(obj) and str(obj[0]) in CIE:
                found.append(f"colour space {obj[0]}")
            for item in obj:
                if isinstance(item, pikepdf.Object) and not item.is_indirect:
                    look(item, depth + 1)
        elif isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            group = obj.get("/Group")
            if isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency":
                found.append("transparency group")
            if obj.get("/SMask") not in (None, Name("/None")):
                found.append("soft mask")
            found.extend(f"{key} {obj[key]}" for key in ("/ca", "/CA") if key in obj and float(obj[key]) < 1)
            if obj.get("/ColorSpace") == Name.DeviceRGB:
                found.append("RGB image")
            for key in obj.keys():
                value = obj[key]
                if isinstance(value, pikepdf.Object) and not value.is_indirect:
                    look(value, depth + 1)

    for obj in pdf.objects:
        look(obj, 0)
    return found


@pytest.fixture(scope="module")
def x1a(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The transparent mini game's cards for DriveThruCards as X-4 (the default) and as X-1a."""
    mini = tmp_path_factory.mktemp("game") / "mini"
    shutil.copytree(MINI, mini)
    _transparent(mini)
    out = tmp_path_factory.mktemp("out")
    for name, extra in (("x4", ()), ("x1a", ("--pdfx", "1a"))):
        done = run_pnp("build", str(mini), "--profile", "drivethrucards", "--only", "cards", "--out", str(out / name), *extra)
        assert done.returncode == 0, done.stderr
    return out, done.stderr


def test_the_default_stays_pdfx4_with_its_transparency(x1a: tuple[Path, str]) -> None:
    out, _ = x1a
    with pikepdf.open(out / "x4" / "mini" / "drivethrucards" / "mini-cards.pdf") as pdf:
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
        assert {"transparency group", "/ca 0.5"} <= set(_forbidden(pdf))


def test_pdfx_1a_is_flat_cmyk_with_an_output_intent_and_boxes(x1a: tuple[Path, str]) -> None:
    out, _ = x1a
    path = out / "x1a" / "mini" / "drivethrucards" / "mini-cards.pdf"
    assert qpdf_check(path).returncode == 0
    with pikepdf.open(path) as pdf, pikepdf.open(out / "x4" / "mini" / "drivethrucards" / "mini-cards.pdf") as x4:
        assert pdf.pdf_version == "1.4"
        assert _forbidden(pdf) == []
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == Name.GTS_PDFX and str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert intent.DestOutputProfile.N == 4 and intent.DestOutputProfile.read_bytes()[16:20] == b"CMYK"
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003" and pdf.docinfo["/Trapped"] == "/False"
        assert pdf.open_metadata()["pdfxid:GTS_PDFXVersion"] == "PDF/X-1a:2003"
        assert Name.OCProperties not in pdf.Root
        assert len(pdf.pages) == len(x4.pages) == 8  # 4 cards, back first
        for flat, live in zip(pdf.pages, x4.pages):
            for box in ("/MediaBox", "/TrimBox", "/BleedBox"):
                assert [float(v) for v in flat.obj[box]] == pytest.approx([float(v) for v in live.obj[box]], abs=0.01)
    # the backs had no transparency: their text is still text
    assert pdftotext(path, 1, 1) == pdftotext(out / "x4" / "mini" / "drivethrucards" / "mini-cards.pdf", 1, 1)


def test_the_user_is_told_which_pages_were_flattened(x1a: tuple[Path, str]) -> None:
    out, stderr = x1a
    index = json.loads((out / "x1a" / "mini" / "drivethrucards" / "index.json").read_text())
    (entry,) = index["files"]
    assert entry["flattened"] == [2, 4, 6, 8]  # the fronts, after their backs
    assert entry["preflight"]["passed"] is True
    assert "mini-cards.pdf: flattened the transparency of 4 pages (pages 2, 4, 6, 8)" in stderr
    assert index["warnings"] == [line.split("warning: ", 1)[1] for line in stderr.splitlines() if "warning: " in line]


def test_pdfx_1a_2001_names_its_version_and_conformance(mini_copy: Path, tmp_path: Path) -> None:
    done = run_pnp("build", str(mini_copy), "--profile", "drivethrucards", "--only", "cards", "--pdfx", "1a:2001", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    with pikepdf.open(tmp_path / "mini" / "drivethrucards" / "mini-cards.pdf") as pdf:
        assert pdf.pdf_version == "1.3"
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2001"
        assert str(pdf.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2001"
        assert _forbidden(pdf) == []


def test_a_die_line_stays_a_spot_colour_without_its_layer(mini_copy: Path, tmp_path: Path) -> None:
    game = mini_copy / "game.yaml"
    game.write_text(game.read_text().replace("    each: crests\n", "    each: crests\n    die_line: circle\n", 1))
    done = run_pnp("build", str(mini_copy), "--profile", "factory", "--only", "sleeves", "--pdfx", "1a", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "mini-sleeves.pdf: PDF/X-1a has no layers: Die line now on the page itself (spot colours kept)" in done.stderr
    with pikepdf.open(tmp_path / "mini" / "factory" / "mini-sleeves.pdf") as pdf:
        assert Name.OCProperties not in pdf.Root
        for page in pdf.pages:
            spots = [s for s in page.obj.Resources.ColorSpace.values() if s[0] == Name.Separation]
            assert [str(s[1]) for s in spots] == ["/CutContour"] and spots[0][2] == Name.DeviceCMYK


@pytest.mark.parametrize(("args", "message"), [
    (("--pdfx", "1a"), "--pdfx: profile home does not write CMYK print PDFs"),
    (("--profile", "drivethrucards", "--pdfx", "3"), "--pdfx: '3' is not a PDF/X pnp writes; expected one of 4, 1a, 1a:2003, 1a:2001"),
])
def test_pdfx_where_it_does_not_apply_is_a_usage_error(mini_copy: Path, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    done = run_pnp("build", str(mini_copy), *args, "--out", str(tmp_path))
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr

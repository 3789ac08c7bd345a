"""Preflight: each check passes a clean print file and names the page of each failure.

Fixture PDFs are written here with pikepdf: one poker card (2.5 x 3.5 in trim, 1/8 in bleed)
that meets every requirement, and variants that break exactly one.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from pnp.errors import BuildError
from pnp.paths import OWN
from pnp.preflight import Failure, Report, Requirements, format_report, preflight
from tests.conftest import tool

TRIM = (180.0, 252.0)
BLEED = 9.0
MEDIA = (198.0, 270.0)
FONT = OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf"
EVERYTHING = Requirements(
    boxes=True, bleed=BLEED, trim=TRIM, fonts_embedded=True, cmyk=True, output_intent=True,
    pdfx="PDF/X-4", min_ppi=300, max_ink=240,
)
NO_INK = Requirements(
    boxes=True, bleed=BLEED, trim=TRIM, fonts_embedded=True, cmyk=True, output_intent=True, pdfx="PDF/X-4", min_ppi=300,
)

CARD = (
    b"q 0.2 0.1 0 0.05 k 0 0 198 270 re f Q\n"
    b"q 28.8 0 0 28.8 20 20 cm /Im0 Do Q\n"  # 150 px in 0.4 in: 375 ppi
    b"q 0 0 0 1 k BT /F0 12 Tf 30 200 Td (Hello) Tj ET Q\n"
)
"""A light CMYK background, a 150 x 150 px CMYK image at 0.4 in, and text in an embedded font."""


def gs_profile(name: str = "default_cmyk.icc") -> Path:
    """One of Ghostscript's own ICC profiles, installed with it (scripts/system-deps.sh)."""
    tool("gs")
    for folder in (Path("/usr/share/color/icc/ghostscript"), *Path("/usr/share/ghostscript").glob("*/iccprofiles")):
        if (folder / name).is_file():
            return folder / name
    raise AssertionError(f"Ghostscript's {name} is not installed: run scripts/system-deps.sh test")


def image(pdf: pikepdf.Pdf, size: int, pixel: bytes = bytes((128, 102, 77, 51)), space: str = "/DeviceCMYK") -> pikepdf.Object:
    return pdf.make_stream(
        pixel * (size * size), Type=Name.XObject, Subtype=Name.Image, Width=size, Height=size,
        ColorSpace=Name(space), BitsPerComponent=8,
    )


def embedded_font(pdf: pikepdf.Pdf) -> pikepdf.Object:
    descriptor = Dictionary(
        Type=Name.FontDescriptor, FontName=Name("/EBGaramond12-Regular"), Flags=32, FontBBox=Array([0, -300, 1000, 900]),
        ItalicAngle=0, Ascent=900, Descent=-300, CapHeight=650, StemV=80, FontFile2=pdf.make_stream(FONT.read_bytes()),
    )
    return pdf.make_indirect(Dictionary(
        Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/EBGaramond12-Regular"), FirstChar=32, LastChar=126,
        Widths=Array([500] * 95), Encoding=Name.WinAnsiEncoding, FontDescriptor=pdf.make_indirect(descriptor),
    ))


def add_card(pdf: pikepdf.Pdf, content: bytes = CARD, resources: Dictionary | None = None) -> pikepdf.Object:
    """A page with the card's boxes; ``resources`` default to the clean card's."""
    pdf.add_blank_page(page_size=MEDIA)
    page = pdf.pages[-1].obj
    page.TrimBox = Array([BLEED, BLEED, MEDIA[0] - BLEED, MEDIA[1] - BLEED])
    page.BleedBox = Array([0, 0, *MEDIA])
    page.Contents = pdf.make_stream(content)
    if resources is None:
        resources = Dictionary(XObject=Dictionary(Im0=image(pdf, 150)), Font=Dictionary(F0=embedded_font(pdf)))
    page.Resources = resources
    return page


def identify(pdf: pikepdf.Pdf) -> None:
    """The PDF/X-4 parts: a CMYK output intent, Info and XMP version, Info /Trapped."""
    profile = pdf.make_stream(gs_profile().read_bytes(), N=4)
    pdf.Root.OutputIntents = Array([pdf.make_indirect(Dictionary(
        Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier="CGATS TR 001", DestOutputProfile=profile,
    ))])
    with pdf.open_metadata() as meta:
        meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
    pdf.docinfo[Name.GTS_PDFXVersion] = "PDF/X-4"
    pdf.docinfo[Name.Trapped] = Name("/False")


def card_pdf(path: Path, pages: int = 1, edit: Callable[[pikepdf.Pdf], None] | None = None) -> Path:
    """``pages`` clean cards with identification, changed by ``edit`` before saving."""
    pdf = pikepdf.new()
    for _ in range(pages):
        add_card(pdf)
    identify(pdf)
    if edit:
        edit(pdf)
    pdf.save(path)
    return path


def checks(report: Report) -> list[tuple[str, int | None]]:
    return [(f.check, f.page) for f in report.failures]


def only(report: Report, check: str, page: int | None) -> Failure:
    """The report's single failure, which must be ``check`` on ``page``."""
    assert checks(report) == [(check, page)], format_report(report)
    return report.failures[0]


def test_a_clean_cmyk_card_passes_every_check(tmp_path: Path) -> None:
    report = preflight(card_pdf(tmp_path / "clean.pdf"), EVERYTHING)
    assert report.ok, format_report(report)
    assert report.pages == 1
    assert report.fonts == 1
    assert report.min_ppi == pytest.approx(375)
    # Background 20+10+0+5 %, text solid K, the image's pixel 128+102+77+51 of 255 each: 140.4 %.
    assert report.max_ink == pytest.approx(358 / 255 * 100, abs=0.1)
    text = format_report(report)
    assert text.splitlines()[0].endswith("clean.pdf: 1 page, 1 font, max ink 140.4 %, min ppi 375")
    assert text.splitlines()[-1] == "passed"


def append(content: bytes, page_number: int = 1, alone: bool = False, **resources: object) -> Callable[[pikepdf.Pdf], None]:
    """An edit that adds ``content`` to a page (``alone``: instead of its content) and adds ``resources``
    (named Category_Key; a callable is given the PDF) to its resource dictionaries."""

    def edit(pdf: pikepdf.Pdf) -> None:
        page = pdf.pages[page_number - 1].obj
        page.Contents = pdf.make_stream((b"" if alone else page.Contents.read_bytes()) + content)
        for name, value in resources.items():
            category, key = name.split("_", 1)
            group = page.Resources.get(Name("/" + category))
            if group is None:
                group = page.Resources[Name("/" + category)] = Dictionary()
            group[Name("/" + key)] = value(pdf) if callable(value) else value

    return edit


def rgb_shading(pdf: pikepdf.Pdf) -> pikepdf.Object:
    function = Dictionary(FunctionType=2, Domain=Array([0, 1]), C0=Array([1, 0, 0]), C1=Array([0, 0, 1]), N=1)
    return pdf.make_indirect(Dictionary(
        ShadingType=2, ColorSpace=Name.DeviceRGB, Coords=Array([0, 0, 100, 0]), Function=function, Extend=Array([True, True]),
    ))


def form(pdf: pikepdf.Pdf, content: bytes, resources: Dictionary, **extra: object) -> pikepdf.Object:
    return pdf.make_stream(
        content, Type=Name.XObject, Subtype=Name.Form, BBox=Array([0, 0, 198, 270]), Resources=resources, **extra
    )


def type3_font(pdf: pikepdf.Pdf) -> pikepdf.Object:
    glyph = pdf.make_stream(b"1 0 d0 1 0 0 rg 0 0 1 1 re f")
    return pdf.make_indirect(Dictionary(
        Type=Name.Font, Subtype=Name.Type3, FontBBox=Array([0, 0, 1, 1]), FontMatrix=Array([1, 0, 0, 1, 0, 0]),
        FirstChar=97, LastChar=97, Widths=Array([1]), CharProcs=Dictionary(a=glyph),
        Encoding=Dictionary(Type=Name.Encoding, Differences=Array([97, Name.a])),
    ))


COLOUR_CASES: dict[str, tuple[bytes, dict[str, object], str]] = {
    "rg": (b"1 0 0 rg 10 10 20 20 re f\n", {}, "the rg operator sets a DeviceRGB fill colour"),
    "RG": (b"0 1 0 RG 10 10 m 20 20 l S\n", {}, "the RG operator sets a DeviceRGB stroke colour"),
    "cs": (b"/DeviceRGB cs 1 0 0 sc 10 10 20 20 re f\n", {}, "the cs operator selects DeviceRGB"),
    "rgb image": (
        b"q 20 0 0 20 50 50 cm /Im1 Do Q\n",
        {"XObject_Im1": lambda pdf: image(pdf, 4, b"\xff\x00\x00", "/DeviceRGB")},
        "image /Im1 is DeviceRGB",
    ),
    "indexed rgb image": (
        b"q 20 0 0 20 50 50 cm /Im1 Do Q\n",
        {"XObject_Im1": lambda pdf: pdf.make_stream(
            b"\x00" * 16, Type=Name.XObject, Subtype=Name.Image, Width=4, Height=4, BitsPerComponent=8,
            ColorSpace=Array([Name.Indexed, Name.DeviceRGB, 0, pikepdf.String(b"\xff\x00\x00")]),
        )},
        "image /Im1 is Indexed on DeviceRGB",
    ),
    "inline rgb image": (
        b"q 20 0 0 20 50 50 cm BI /W 1 /H 1 /CS /RGB /BPC 8 ID \xff\x00\x00 EI Q\n", {}, "an inline image is DeviceRGB",
    ),
    "rgb shading in a pattern": (
        b"q /Pattern cs /P0 scn 0 0 100 100 re f Q\n",
        {"Pattern_P0": lambda pdf: pdf.make_indirect(Dictionary(Type=Name.Pattern, PatternType=2, Shading=rgb_shading(pdf)))},
        "pattern /P0 has a DeviceRGB shading",
    ),
    "rgb shading in a tiling pattern": (
        b"q /Pattern cs /P1 scn 0 0 100 100 re f Q\n",
        {"Pattern_P1": lambda pdf: pdf.make_stream(
            b"/Sh0 sh", Type=Name.Pattern, PatternType=1, PaintType=1, TilingType=1, BBox=Array([0, 0, 10, 10]),
            XStep=10, YStep=10, Resources=Dictionary(Shading=Dictionary(Sh0=rgb_shading(pdf))),
        )},
        "shading /Sh0 is DeviceRGB (in pattern /P1)",
    ),
    "icc rgb colour space": (
        b"/CS0 cs 0.5 0.5 0.5 sc 10 10 20 20 re f\n",
        {"ColorSpace_CS0": lambda pdf: Array([Name.ICCBased, pdf.make_stream(b"not read", N=3)])},
        "colour space /CS0 is ICCBased RGB (/N 3)",
    ),
    "lab colour space": (
        b"/CS1 cs 50 0 0 sc 10 10 20 20 re f\n",
        {"ColorSpace_CS1": Array([Name.Lab, Dictionary(WhitePoint=Array([0.95, 1, 1.09]))])},
        "colour space /CS1 is Lab",
    ),
    "rgb transparency group": (
        b"/Fm1 Do\n",
        {"XObject_Fm1": lambda pdf: form(
            pdf, b"0 0 0 1 k 0 0 5 5 re f", Dictionary(), Group=Dictionary(S=Name.Transparency, CS=Name.DeviceRGB),
        )},
        "form /Fm1 has a DeviceRGB transparency group",
    ),
    "rgb in a nested form": (
        b"/Fm1 Do\n",
        {"XObject_Fm1": lambda pdf: form(
            pdf, b"/Fm2 Do", Dictionary(XObject=Dictionary(Fm2=form(pdf, b"0 0 1 rg 0 0 5 5 re f", Dictionary()))),
        )},
        "the rg operator sets a DeviceRGB fill colour (in form /Fm1 > form /Fm2)",
    ),
    "rgb soft mask group": (
        b"q /GS1 gs 0 0 0 1 k 0 0 50 50 re f Q\n",
        {"ExtGState_GS1": lambda pdf: Dictionary(SMask=Dictionary(S=Name.Luminosity, G=form(
            pdf, b"1 g 0 0 50 50 re f", Dictionary(), Group=Dictionary(S=Name.Transparency, CS=Name.DeviceRGB),
        )))},
        "the soft mask of /GS1 has a DeviceRGB group",
    ),
    "rgb in a type3 glyph": (
        b"BT /T3 10 Tf 50 50 Td (a) Tj ET\n", {"Font_T3": type3_font},
        "the rg operator sets a DeviceRGB fill colour (in Type3 font /T3)",
    ),
}


@pytest.mark.parametrize("case", COLOUR_CASES)
def test_rgb_anywhere_is_a_colour_failure_on_its_page(tmp_path: Path, case: str) -> None:
    content, resources, message = COLOUR_CASES[case]
    path = card_pdf(tmp_path / "rgb.pdf", pages=3, edit=append(content, 2, **resources))
    requirements = replace(NO_INK, min_ppi=None)  # the RGB images here are a few pixels
    failure = only(preflight(path, requirements), "colour", 2)
    assert failure.message == message
    # Without the cmyk requirement the same file passes.
    assert preflight(path, replace(requirements, cmyk=False)).ok


def test_colour_counts_where_it_is_used_not_where_it_is_listed(tmp_path: Path) -> None:
    """WeasyPrint shares one resource dictionary among all pages, listing every image of the
    document and two Lab colour spaces that may never be used: only the drawing page fails."""
    pdf = pikepdf.new()
    shared = pdf.make_indirect(Dictionary(
        XObject=Dictionary(Im0=image(pdf, 150), Im1=image(pdf, 150, b"\xff\x00\x00", "/DeviceRGB")),
        Font=Dictionary(F0=embedded_font(pdf)),
        ColorSpace=Dictionary(Lab0=Array([Name.Lab, Dictionary(WhitePoint=Array([0.95, 1, 1.09]))])),
    ))
    for content in (CARD, CARD + b"q 28.8 0 0 28.8 100 100 cm /Im1 Do Q\n", CARD):
        add_card(pdf, content, shared)
    identify(pdf)
    pdf.save(tmp_path / "shared.pdf")
    assert only(preflight(tmp_path / "shared.pdf", NO_INK), "colour", 2).message == "image /Im1 is DeviceRGB"


def test_a_missing_trimbox_is_reported_on_its_page(tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf) -> None:
        del pdf.pages[1].obj.TrimBox

    failure = only(preflight(card_pdf(tmp_path / "notrim.pdf", pages=3, edit=edit), NO_INK), "boxes", 2)
    assert failure.message == "no TrimBox"


def test_a_trimbox_outside_the_bleedbox_is_a_box_failure(tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf) -> None:
        pdf.pages[0].obj.TrimBox = Array([-1, 9, 189, 261])

    report = preflight(card_pdf(tmp_path / "outside.pdf", edit=edit), Requirements())
    assert only(report, "boxes", 1).message == "TrimBox [-1 9 189 261] is not inside BleedBox [0 0 198 270]"


def test_a_wrong_bleed_is_reported_with_every_side(tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf) -> None:
        pdf.pages[1].obj.BleedBox = Array([2, 0, 198, 270])

    failure = only(preflight(card_pdf(tmp_path / "bleed.pdf", pages=2, edit=edit), NO_INK), "bleed", 2)
    assert failure.message == "bleed is left 7, bottom 9, right 9, top 9 pt; expected 9 pt on each side"


def test_a_wrong_trim_size_is_reported(tmp_path: Path) -> None:
    report = preflight(card_pdf(tmp_path / "trim.pdf"), Requirements(trim=(162, 252)))  # bridge width
    assert only(report, "trim", 1).message == "TrimBox is 180 x 252 pt; expected 162 x 252 pt"


def test_a_font_without_a_font_file_is_not_embedded(tmp_path: Path) -> None:
    helvetica = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica, Encoding=Name.WinAnsiEncoding)
    edit = append(b"BT /F9 8 Tf 30 100 Td (Base) Tj ET\n", Font_F9=helvetica)
    report = preflight(card_pdf(tmp_path / "helvetica.pdf", edit=edit), NO_INK)
    assert only(report, "fonts", 1).message == "font /F9 (Helvetica, Type1) is not embedded"
    assert report.fonts == 2
    fonts = subprocess.run([tool("pdffonts"), str(report.path)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Helvetica\s+Type 1\s+WinAnsi\s+no", fonts, re.MULTILINE), fonts  # poppler agrees


def test_image_resolution_is_measured_at_its_drawn_size(tmp_path: Path) -> None:
    at_one_inch = append(b"q 72 0 0 72 100 100 cm /Im0 Do Q\n", 2)
    report = preflight(card_pdf(tmp_path / "ppi.pdf", pages=2, edit=at_one_inch), NO_INK)
    failure = only(report, "ppi", 2)
    assert failure.message == "image /Im0 is 150 x 150 ppi at its drawn size; at least 300 needed"
    assert report.min_ppi == pytest.approx(150)
    # The same image at 0.4 inch (the clean card) passes: 375 ppi.
    assert preflight(card_pdf(tmp_path / "small.pdf"), NO_INK).min_ppi == pytest.approx(375)


def test_resolution_through_scaled_forms_matches_poppler(tmp_path: Path) -> None:
    """An image in a form in a form, each scaled, one rotated: pdfimages computes the same ppi."""

    def edit(pdf: pikepdf.Pdf) -> None:
        inner = form(pdf, b"q 40 0 0 60 0 0 cm /Im0 Do Q", Dictionary(XObject=Dictionary(Im0=image(pdf, 150))),
                     Matrix=Array([0.5, 0, 0, 1, 0, 0]))
        outer = form(pdf, b"q 0 1.5 -1.5 0 100 0 cm /Fm2 Do Q", Dictionary(XObject=Dictionary(Fm2=inner)))
        append(b"q 1 0 0 1 20 20 cm /Fm1 Do Q\n", XObject_Fm1=outer)(pdf)

    path = card_pdf(tmp_path / "nested.pdf", edit=edit)
    report = preflight(path, NO_INK)
    failure = only(report, "ppi", 1)
    # 150 px over 40 x 0.5 x 1.5 = 30 pt across and 60 x 1.5 = 90 pt down.
    assert failure.message == "image /Im0 (in form /Fm1 > form /Fm2) is 360 x 120 ppi at its drawn size; at least 300 needed"
    listing = subprocess.run([tool("pdfimages"), "-list", str(path)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in listing.splitlines()[2:]]
    poppler = sorted((float(row[12]), float(row[13])) for row in rows)  # x-ppi, y-ppi of each drawn image
    assert poppler == [(360, 120), (375, 375)]
    assert report.min_ppi == pytest.approx(min(min(p) for p in poppler), abs=0.5)


def test_missing_output_intent_and_pdfx_identification(tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf) -> None:
        del pdf.Root.OutputIntents
        pdf.docinfo[Name.GTS_PDFXVersion] = "PDF/X-1a:2001"
        del pdf.docinfo[Name.Trapped]
        with pdf.open_metadata(update_docinfo=False) as meta:
            del meta["pdfxid:GTS_PDFXVersion"]

    report = preflight(card_pdf(tmp_path / "unidentified.pdf", edit=edit), NO_INK)
    assert checks(report) == [("output-intent", None), ("pdfx", None), ("pdfx", None), ("pdfx", None)]
    assert [f.message for f in report.failures] == [
        "the catalog has no /OutputIntents",
        "the Info dictionary has /GTS_PDFXVersion 'PDF/X-1a:2001'; expected 'PDF/X-4'",
        "the XMP metadata has no pdfxid:GTS_PDFXVersion; expected 'PDF/X-4'",
        "the Info dictionary /Trapped is missing; /True or /False is needed",
    ]


def test_an_rgb_output_profile_is_not_a_cmyk_output_intent(tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf) -> None:
        pdf.Root.OutputIntents[0].DestOutputProfile.N = 3

    report = preflight(card_pdf(tmp_path / "rgbintent.pdf", edit=edit), NO_INK)
    assert only(report, "output-intent", None).message == "the /GTS_PDFX output profile has /N 3; a CMYK profile (/N 4) is needed"


def test_total_ink_is_measured_from_separations(tmp_path: Path) -> None:
    """100/100/100/100 reads back as 400 %: Ghostscript passes DeviceCMYK through unchanged."""
    edit = append(b"q 1 1 1 1 k 60 60 40 40 re f Q\n", 3)
    report = preflight(card_pdf(tmp_path / "ink.pdf", pages=3, edit=edit), EVERYTHING)
    failure = only(report, "ink", 3)
    assert report.max_ink == pytest.approx(400, abs=1)
    assert failure.message.startswith("total ink reaches 400.0 % (C 100 M 100 Y 100 K 100, ")
    assert failure.message.endswith("; at most 240 % allowed")
    # An uneven mix comes back within 1 % on each channel; 239 % is within a 240 % limit.
    odd = card_pdf(tmp_path / "odd.pdf", edit=append(b"0.53 0.51 0.40 0.95 k 0 0 198 270 re f\n", alone=True))
    assert preflight(odd, EVERYTHING).ok
    dark = preflight(odd, replace(EVERYTHING, max_ink=200))
    assert dark.max_ink == pytest.approx(53 + 51 + 40 + 95, abs=1)
    assert only(dark, "ink", 1).message.startswith("total ink reaches 238.8 % (C 53 M 51 Y 40 K 95, ")


def test_an_rgb_output_intent_listed_first_does_not_change_cmyk_ink(tmp_path: Path) -> None:
    """Ghostscript is told to print through the CMYK intent, never through an RGB one."""

    def edit(pdf: pikepdf.Pdf) -> None:
        append(b"0.53 0.51 0.40 0.95 k 0 0 198 270 re f\n", alone=True)(pdf)
        srgb = pdf.make_stream(gs_profile("srgb.icc").read_bytes(), N=3)
        pdfa = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFA1, OutputConditionIdentifier="sRGB", DestOutputProfile=srgb)
        pdf.Root.OutputIntents.insert(0, pdf.make_indirect(pdfa))

    report = preflight(card_pdf(tmp_path / "two-intents.pdf", edit=edit), EVERYTHING)
    assert report.ok, format_report(report)
    assert report.max_ink == pytest.approx(53 + 51 + 40 + 95, abs=1)


def test_icc_cmyk_in_the_output_intent_profile_is_measured_as_written(tmp_path: Path) -> None:
    """Ghostscript would convert ICCBased CMYK to its own default CMYK; printing through the
    output intent keeps the numbers of colour already in the printing condition."""

    def edit(pdf: pikepdf.Pdf) -> None:
        profile = pdf.make_stream(gs_profile("ps_cmyk.icc").read_bytes(), N=4)
        pdf.Root.OutputIntents[0].DestOutputProfile = profile
        append(b"/CS0 cs 0.53 0.51 0.40 0.95 sc 0 0 198 270 re f\n", alone=True,
               ColorSpace_CS0=Array([Name.ICCBased, profile]))(pdf)

    report = preflight(card_pdf(tmp_path / "icc.pdf", edit=edit), EVERYTHING)
    assert report.ok, format_report(report)
    assert report.max_ink == pytest.approx(53 + 51 + 40 + 95, abs=1)


def test_ink_dedupe_keeps_the_page_numbers_of_a_reused_face(tmp_path: Path) -> None:
    """Every page's content is the same "/Fm0 Do"; only the form behind /Fm0 differs. The light
    face is reused on pages 1, 2, 4 and 6, the heavy one on 5 and 8; 3 and 7 are distinct."""
    pdf = pikepdf.new()
    def face(k: bytes) -> pikepdf.Object:
        return form(pdf, k + b" k 0 0 198 270 re f", Dictionary())

    light, heavy = face(b"0.1 0.1 0.1 0.1"), face(b"0.8 0.8 0.8 0.8")
    faces = {1: light, 2: light, 3: face(b"0.5 0 0 0"), 4: light, 5: heavy, 6: light, 7: face(b"0.6 0.6 0.6 0.6"), 8: heavy}
    for number in range(1, 9):
        add_card(pdf, b"q /Fm0 Do Q", Dictionary(XObject=Dictionary(Fm0=faces[number])))
    identify(pdf)
    pdf.save(tmp_path / "faces.pdf")
    report = preflight(tmp_path / "faces.pdf", Requirements(max_ink=240, bleed=BLEED))
    assert checks(report) == [("ink", 5), ("ink", 8)], format_report(report)
    assert all(f.message.startswith("total ink reaches 320.0 % (C 80 M 80 Y 80 K 80") for f in report.failures)
    assert report.max_ink == pytest.approx(320, abs=0.1)
    # Page 7 sits at 240 % exactly (4 x 60 %) and is allowed.
    assert checks(preflight(tmp_path / "faces.pdf", Requirements(max_ink=239, bleed=BLEED))) == [("ink", 5), ("ink", 7), ("ink", 8)]


def test_every_failure_is_reported_not_just_the_first(tmp_path: Path) -> None:
    helvetica = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)

    def edit(pdf: pikepdf.Pdf) -> None:
        append(b"1 0 0 rg BT /F9 8 Tf (x) Tj ET q 72 0 0 72 0 0 cm /Im0 Do Q\n", Font_F9=helvetica)(pdf)
        del pdf.pages[1].obj.BleedBox

    report = preflight(card_pdf(tmp_path / "many.pdf", pages=2, edit=edit), NO_INK)
    assert checks(report) == [("fonts", 1), ("colour", 1), ("ppi", 1), ("boxes", 2)]
    lines = format_report(report).splitlines()
    assert re.fullmatch(r".*many\.pdf: page 2: \[boxes\] no BleedBox", lines[4])
    assert lines[-1] == "4 failures"


def test_a_file_that_is_not_a_pdf_is_a_file_failure(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("just text\n")
    report = preflight(path, Requirements())
    assert checks(report) == [("file", None)]
    assert report.failures[0].message.startswith("cannot be opened as a PDF")
    assert preflight(tmp_path / "absent.pdf", Requirements()).failures[0].check == "file"


def test_ink_without_ghostscript_asks_for_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = card_pdf(tmp_path / "clean.pdf")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(BuildError, match=r"install ghostscript \(scripts/system-deps.sh build\)"):
        preflight(path, Requirements(max_ink=240))
    assert preflight(path, NO_INK).ok  # everything else needs no external tool


def test_pdfx1a_flat_check_names_transparency_and_icc_colour_in_every_resource(tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf) -> None:
        page = pdf.pages[0].obj
        icc = pdf.make_stream(gs_profile().read_bytes(), N=4)
        page.Resources.ExtGState = Dictionary(GS0=Dictionary(ca=0.5), GS1=Dictionary(BM=Name.Multiply))
        page.Resources.ColorSpace = Dictionary(CS0=Array([Name.ICCBased, icc]))
        form = pdf.make_stream(b"", Type=Name.XObject, Subtype=Name.Form, BBox=Array([0, 0, 10, 10]),
                               Group=Dictionary(S=Name.Transparency, CS=Name.DeviceCMYK))
        form.Resources = Dictionary(XObject=Dictionary(Im1=image(pdf, 4)))
        form.Resources.XObject.Im1.SMask = image(pdf, 4, bytes((0,)), "/DeviceGray")
        page.Resources.XObject.Fm0 = form  # listed, never drawn: X-1a validators reject it all the same

    path = card_pdf(tmp_path / "transparent.pdf", edit=edit)
    assert preflight(path, NO_INK).ok  # PDF/X-4 allows every one of them
    report = preflight(path, replace(NO_INK, flat=True, pdfx=None, output_intent=False))
    assert [(f.check, f.page, f.message) for f in report.failures] == [
        ("flat", 1, "opacity 0.5 in graphics state /GS0"),
        ("flat", 1, "blend mode /Multiply in graphics state /GS1"),
        ("flat", 1, "colour space /CS0 is ICC-based"),
        ("flat", 1, "transparency group on /Fm0"),
        ("flat", 1, "soft mask on image /Fm0 > /Im1"),
    ]


def test_pdfx1_2001_needs_its_conformance_level(tmp_path: Path) -> None:
    def edit(pdf: pikepdf.Pdf) -> None:
        pdf.docinfo[Name.GTS_PDFXVersion] = "PDF/X-1:2001"
        with pdf.open_metadata(update_docinfo=False) as meta:
            meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-1:2001"

    wanted = replace(NO_INK, pdfx="PDF/X-1:2001", pdfx_conformance="PDF/X-1a:2001")
    failure = only(preflight(card_pdf(tmp_path / "x1.pdf", edit=edit), wanted), "pdfx", None)
    assert failure.message == "the Info dictionary has no /GTS_PDFXConformance; expected 'PDF/X-1a:2001'"

"""Print and export profiles as data: a new printer is a new YAML file."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, InputError, UsageError
from pnp.imposition.cutmarks import CutMarks
from pnp.schema.scalars import SLUG, Boolean, Choice, Integer, Length, Text
from pnp.schema.spec import INVALID, Checker, Field, ListOf, MapOf, ModelRecord, Record
from pnp.loading.yamlsrc import load_yaml
from pnp.paths import PRESETS

PROFILE = Record(
    (
        Field("kind", Choice(("home", "print-pdf", "png-faces", "tts")), "What the profile makes: home, print-pdf, png-faces or tts."),
        Field("description", Text(max_length=200), "What it is for."),
        Field("bleed", Length(0, 10), "The bleed every face is rendered with, replacing the game's.", None),
        Field("dpi", Integer(50, 1200), "Pixels per inch for raster exports.", 300),
        Field("sizes", MapOf(SLUG, ListOf(Integer(1, 20000), 2, 2)), "png-faces: exact pixels (with bleed) per named card size.", {}),
        Field("columns", Integer(2, 10), "tts: most cards across a sheet (TTS takes at most 10).", 10),
        Field("rows", Integer(1, 7), "tts: most cards down a sheet (TTS takes at most 7).", 7),
        Field("max_px", Integer(256, 16384), "tts: the most pixels a sheet may have on a side.", 4096),
        Field("order", Choice(("back-front", "front-back")), "print-pdf: which side of each card comes first.", "front-back"),
        Field("accepts", ListOf(SLUG), "print-pdf: the card size names the printer takes (none listed: every size).", ()),
        Field("colour", Choice(("rgb", "cmyk")), "print-pdf: rgb as laid out, or cmyk converted with the ICC profile.", "rgb"),
        Field("icc", Text(r"[A-Za-z0-9._-]+\.icc", "an .icc file name in pnp/presets/icc/"), "print-pdf: the CMYK profile.", "pnp-fogra39-tac240.icc"),
        Field("output_condition", Text(max_length=40), "print-pdf: the registered printing condition the profile describes.", "FOGRA39"),
        Field(
            "pdfx", Choice(("none", "PDF/X-4", "PDF/X-1a:2003", "PDF/X-1a:2001")),
            "print-pdf: the PDF/X standard the file meets; the X-1a ones flatten transparency with Ghostscript.", "none",
        ),
        Field("max_ink", Integer(100, 400), "Preflight: the most total ink allowed, in percent.", None),
        Field("min_ppi", Integer(50, 2400), "Preflight: the least resolution of any raster image at its printed size.", None),
        Field("stamp", Boolean(), "Print the build stamp (version, date, card hash) on each card.", False),
        Field(
            "back_offset", ListOf(Length(-10, 10), 2, 2),
            "home: how far to move every back sheet, [right, up] as the back is seen (read off the registration test).",
            [0.0, 0.0],
        ),
        Field("die_line", Text(r"[A-Za-z][A-Za-z0-9_-]*", "a spot colour name like CutContour", 40), "print-pdf: the spot colour of die lines for die-cut components; none without it.", None),
        Field("printable_margin", Length(0, 30), "home: the strip along each paper edge the printer leaves blank; text and marks there are reported.", None),
        Field(
            "share_sheets", Boolean(),
            "home: a component starts in the free slots of the last sheet of the one before it of the same stock, size and sidedness when that saves it a sheet.",
            False,
        ),
        Field(
            "cut", ModelRecord.of(CutMarks, "print-and-cut marks {machine, inset, weight, clear, length, square, area, corner}"),
            "home: print-and-cut for a cutting machine: its registration marks on every front sheet, the pieces inside the area it reads, and cut files beside the PDF.",
            None,
        ),
    ),
    "a profile",
)


@dataclass(frozen=True)
class Profile:
    id: str
    kind: str
    description: str
    bleed: float | None
    dpi: int
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)
    columns: int = 10
    rows: int = 7
    max_px: int = 4096
    order: str = "front-back"
    accepts: tuple[str, ...] = ()
    colour: str = "rgb"
    icc: Path | None = None
    output_condition: str = "FOGRA39"
    pdfx: str = "none"
    max_ink: int | None = None
    min_ppi: int | None = None
    stamp: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    """home: points every back sheet's content moves, x right and y up as the back page is seen."""
    printable_margin: float | None = None
    """Home: no text or mark may come nearer a paper edge than this (points); None: not checked."""
    share_sheets: bool = False
    """Home: components of one kind may share a sheet (pnp.output.home.plan.runs)."""
    die_line: str | None = None
    """print-pdf: the spot colour die-cut components' die lines are drawn in (pnp.pdf.dieline); None: none drawn."""
    cut: CutMarks | None = None
    """Home: print-and-cut marks, area and cut files (pnp.imposition.cutmarks, pnp.output.cutfiles); None: a plain home build."""


@cache
def load_profiles() -> dict[str, Profile]:
    diagnostics: list[Diagnostic] = []
    out = {}
    for path in sorted((PRESETS / "profiles").glob("*.yaml")):
        doc = load_yaml(path)
        checked: Any = PROFILE.check(doc.data, (), Checker(doc, diagnostics))  # a record's keys (pnp/schema): typed by the Profile they build
        if checked is not INVALID:
            icc = PRESETS / "icc" / checked["icc"]
            if not icc.is_file():
                Checker(doc, diagnostics).error(("icc",), f"no ICC profile {checked['icc']!r} in {PRESETS / 'icc'}")
                continue
            out[path.stem] = Profile(
                path.stem, checked["kind"], checked["description"], checked["bleed"], checked["dpi"],
                {k: (v[0], v[1]) for k, v in checked["sizes"].items()}, checked["columns"], checked["rows"], checked["max_px"],
                checked["order"], tuple(checked["accepts"]), checked["colour"], icc, checked["output_condition"],
                checked["pdfx"], checked["max_ink"], checked["min_ppi"], checked["stamp"],
                (checked["back_offset"][0], checked["back_offset"][1]),
                checked["printable_margin"], checked["share_sheets"], checked["die_line"], checked["cut"],
            )
    if diagnostics:
        raise InputError(diagnostics)
    return out


PDFX_OPTION = {"4": "PDF/X-4", "1a": "PDF/X-1a:2003", "1a:2003": "PDF/X-1a:2003", "1a:2001": "PDF/X-1a:2001"}
"""What ``--pdfx`` takes, and the profile ``pdfx`` each means."""


def with_pdfx(chosen: Profile, value: str | None) -> Profile:
    """``chosen`` with the PDF/X standard ``--pdfx`` asks for (None: as it is)."""
    if value is None:
        return chosen
    if value not in PDFX_OPTION:
        raise UsageError(f"--pdfx: {value!r} is not a PDF/X pnp writes; expected one of {', '.join(PDFX_OPTION)}")
    if chosen.kind != "print-pdf" or chosen.colour != "cmyk":
        raise UsageError(f"--pdfx: profile {chosen.id} does not write CMYK print PDFs; use drivethrucards or factory")
    return replace(chosen, pdfx=PDFX_OPTION[value])


def profile(name: str) -> Profile:
    known = load_profiles()
    if name not in known:
        raise UsageError(f"--profile: unknown profile {name!r}; expected one of {', '.join(known)}")
    return known[name]

"""Print and export profiles as data: a new printer is a new YAML file."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from pnp.errors import Diagnostic, InputError, UsageError
from pnp.imposition.cutmarks import CutMarks
from pnp.schema.scalars import SLUG, Boolean, Choice, Integer, Length, Text
from pnp.schema.spec import INVALID, Checker, ListOf, MapOf, ModelRecord, got, key
from pnp.loading.yamlsrc import load_yaml
from pnp.paths import PRESETS

@dataclass(frozen=True)
class Profile:
    """A print or export profile: one YAML file in pnp/presets/profiles/, its
    keys declared here once (:func:`pnp.schema.spec.key`), checked and built
    by :data:`PROFILE`."""

    id: str
    """The file's name without .yaml (``--profile ID``)."""
    kind: str = key(Choice(("home", "print-pdf", "png-faces", "tts")), "What the profile makes: home, print-pdf, png-faces or tts.")
    description: str = key(Text(max_length=200), "What it is for.")
    bleed: float | None = key(Length(0, 10), "The bleed every face is rendered with, replacing the game's.", None)
    dpi: int = key(Integer(50, 1200), "Pixels per inch for raster exports.", 300)
    sizes: dict[str, tuple[int, int]] = key(
        MapOf(SLUG, ListOf(Integer(1, 20000), 2, 2)), "png-faces: exact pixels (with bleed) per named card size.", {}
    )
    columns: int = key(Integer(2, 10), "tts: most cards across a sheet (TTS takes at most 10).", 10)
    rows: int = key(Integer(1, 7), "tts: most cards down a sheet (TTS takes at most 7).", 7)
    max_px: int = key(Integer(256, 16384), "tts: the most pixels a sheet may have on a side.", 4096)
    order: str = key(Choice(("back-front", "front-back")), "print-pdf: which side of each card comes first.", "front-back")
    accepts: tuple[str, ...] = key(ListOf(SLUG), "print-pdf: the card size names the printer takes (none listed: every size).", ())
    colour: str = key(Choice(("rgb", "cmyk")), "print-pdf: rgb as laid out, or cmyk converted with the ICC profile.", "rgb")
    icc: Path | None = key(
        Text(r"[A-Za-z0-9._-]+\.icc", "an .icc file name in pnp/presets/icc/"), "print-pdf: the CMYK profile.", "pnp-fogra39-tac240.icc"
    )
    """The ICC file (the key names it; the loader makes it a path in pnp/presets/icc/)."""
    output_condition: str = key(Text(max_length=40), "print-pdf: the registered printing condition the profile describes.", "FOGRA39")
    pdfx: str = key(
        Choice(("none", "PDF/X-4", "PDF/X-1a:2003", "PDF/X-1a:2001")),
        "print-pdf: the PDF/X standard the file meets; the X-1a ones flatten transparency with Ghostscript.", "none",
    )
    max_ink: int | None = key(Integer(100, 400), "Preflight: the most total ink allowed, in percent.", None)
    min_ppi: int | None = key(Integer(50, 2400), "Preflight: the least resolution of any raster image at its printed size.", None)
    stamp: bool = key(Boolean(), "Print the build stamp (version, date, card hash) on each card.", False)
    back_offset: tuple[float, float] = key(
        ListOf(Length(-10, 10), 2, 2),
        "home: how far to move every back sheet, [right, up] as the back is seen (read off the registration test).",
        (0.0, 0.0),
    )
    """home: points every back sheet's content moves, x right and y up as the back page is seen."""
    die_line: str | None = key(
        Text(r"[A-Za-z][A-Za-z0-9_-]*", "a spot colour name like CutContour", 40),
        "print-pdf: the spot colour of die lines for die-cut components; none without it.", None,
    )
    """Drawn by pnp.pdf.dieline."""
    printable_margin: float | None = key(
        Length(0, 30), "home: the strip along each paper edge the printer leaves blank; text and marks there are reported.", None
    )
    """Home: no text or mark may come nearer a paper edge than this (points); None: not checked."""
    share_sheets: bool = key(
        Boolean(),
        "home: a component starts in the free slots of the last sheet of the one before it of the same stock, size and sidedness when that saves it a sheet.",
        False,
    )
    """Home: components of one kind may share a sheet (pnp.output.home.plan.runs)."""
    cut: CutMarks | None = key(
        ModelRecord.of(CutMarks, "print-and-cut marks {machine, inset, weight, clear, length, square, area, corner}"),
        "home: print-and-cut for a cutting machine: its registration marks on every front sheet, the pieces inside the area it reads, and cut files beside the PDF.",
        None,
    )
    """Home: print-and-cut marks, area and cut files (pnp.imposition.cutmarks, pnp.output.cutfiles); None: a plain home build."""


PROFILE = ModelRecord.of(Profile, "a profile", by_loader=True)
"""The schema of a profile file, built from :class:`Profile`'s keys."""


@cache
def load_profiles() -> dict[str, Profile]:
    diagnostics: list[Diagnostic] = []
    out = {}
    for path in sorted((PRESETS / "profiles").glob("*.yaml")):
        doc = load_yaml(path)
        checked = PROFILE.checked(doc.data, (), Checker(doc, diagnostics))
        if checked is INVALID:
            continue
        icc = PRESETS / "icc" / got(checked, "icc", str)
        if not icc.is_file():
            Checker(doc, diagnostics).error(("icc",), f"no ICC profile {icc.name!r} in {PRESETS / 'icc'}")
            continue
        sizes = got(checked, "sizes", dict)
        right, up = _items(checked, "back_offset")
        out[path.stem] = PROFILE.build(
            checked, id=path.stem, icc=icc, sizes={name: (size[0], size[1]) for name, size in sizes.items()},
            accepts=_items(checked, "accepts"), back_offset=(right, up),
        )
    if diagnostics:
        raise InputError(diagnostics)
    return out


def _items(checked: dict[str, object], name: str) -> tuple[object, ...]:
    """A list key's checked value (a list read, or the default tuple) as a tuple."""
    value = checked[name]
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{name!r} was checked into {value!r}, not a list")
    return tuple(value)


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

"""One print-ready file of an export: a part's card sides, one page each, in
the profile's order, saved as the profile's PDF/X; and its index entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Required, TypedDict

import pikepdf
from pikepdf import Name

from pnp.commit import save_pdf
from pnp.model import Game
from pnp.output.parts import Part
from pnp.output.profiles import Profile
from pnp.pdf.dieline import add_die_lines, die_shape
from pnp.pdf.fontdicts import merge_font_dicts
from pnp.pdf.fonts import merge_font_files
from pnp.pdf.shared import share_xobjects
from pnp.render.faces import Face, FacePlan

if TYPE_CHECKING:
    from pnp.pdf.flatten import Flattening


class Verdict(TypedDict):
    """A file's preflight, as its index entry tells it."""

    passed: bool
    max_ink: float | None
    min_ppi: float | None
    fonts: int
    failures: list[str]


class FileEntry(TypedDict, total=False):
    """A file's entry in the export's index.json (a card part's or a box's),
    its keys in the order they are written."""

    path: Required[str]
    profile: Required[str]
    component: str
    module: str
    box: str
    inner_mm: list[float]
    cards: int
    pages: int
    order: list[str]
    flattened: list[int]
    """Flattening to PDF/X-1a: the pages whose transparency was flattened,"""
    rasterised: list[int]
    """and those now partly or wholly an image."""
    preflight: Verdict


@dataclass(frozen=True)
class Stamp:
    """What marks every file of an export: its profile and build time."""

    profile: Profile
    when: datetime


def part_file(
    game: Game, part: Part, plan: FacePlan, pages: dict[str, pikepdf.Page], by_key: dict[str, Face], stamp: Stamp,
    where: tuple[Path, Path], out_dir: Path,
) -> tuple[FileEntry, str | None]:
    """Write ``part``'s file (``where``: its staged file, and the target it
    is staged for): one page per card side, in the profile's order. Returns
    its index entry and what flattening it warns of."""
    component = part.component
    profile = stamp.profile
    sides = ("back", "front") if profile.order == "back-front" else ("front", "back")
    order = []
    for front, back in plan.copies[component.id]:
        pair = {"front": front, "back": back}
        order += [(side, pair[side]) for side in sides if pair[side] is not None]
    title = f"{game.title}: {part.name} ({profile.id})"
    pdf = _card_pages(pages, by_key, [key for _, key in order if key is not None], title)
    share_xobjects(pdf)  # each picture once in the file, as the home build keeps it
    merge_font_files(pdf)
    merge_font_dicts(pdf)
    if profile.die_line is not None and (shape := die_shape(game, component)) is not None:
        add_die_lines(pdf, shape, profile.die_line)
    staged, target = where
    entry: FileEntry = {"path": target.relative_to(out_dir).as_posix(), "profile": profile.id, "component": component.id}
    if part.module:
        entry["module"] = part.module.id
    entry["cards"] = sum(card.copies for card in component.cards)
    entry["pages"] = len(pdf.pages)
    entry["order"] = [side for side, _ in order[: len(sides)]]
    return entry, save(pdf, staged, target, title, stamp, entry)


def save(pdf: pikepdf.Pdf, staged: Path, target: Path, title: str, stamp: Stamp, entry: FileEntry) -> str | None:
    """Write ``pdf`` into ``staged`` as the profile's PDF/X; what flattening
    did goes at the end of ``entry``. Returns what flattening warns of."""
    pdf, version, flattening = _identify(pdf, title, stamp.when, stamp.profile)
    save_pdf(pdf, staged, min_version="1.6", version=version)
    if flattening is None:
        return None
    entry["flattened"], entry["rasterised"] = list(flattening.transparent), list(flattening.rasterised)
    return flattening.note(target.name)


def _identify(pdf: pikepdf.Pdf, title: str, when: datetime, profile: Profile) -> tuple[pikepdf.Pdf, str, Flattening | None]:
    """``pdf`` as the profile's PDF/X (flattened first for X-1a), the exact PDF
    version to write it as (empty: 1.6 or later, as it needs), and what flattening did."""
    if profile.pdfx == "none" or profile.icc is None:
        return pdf, "", None
    from pnp.pdf.pdfx import STANDARDS, mark_pdfx, output_intent

    standard = STANDARDS[profile.pdfx]
    flattening = None
    if standard.flat:
        from pnp.pdf.flatten import flatten

        pdf, flattening = flatten(pdf, standard.pdf_version, profile.dpi)
    mark_pdfx(pdf, title, when, output_intent(profile.output_condition, profile.icc), standard)
    return pdf, standard.pdf_version if standard.flat else "", flattening


def _card_pages(pages: dict[str, pikepdf.Page], faces: dict[str, Face], keys: Sequence[str], title: str) -> pikepdf.Pdf:
    """One page per side: the face drawn once as a form, the page its exact size."""
    out = pikepdf.new()
    forms: dict[str, pikepdf.Object] = {}
    for key in keys:
        if key not in forms:
            forms[key] = out.copy_foreign(pages[key].as_form_xobject())
        face = faces[key]
        w, h, b = face.width, face.height, face.bleed
        page = out.add_blank_page(page_size=(w, h))
        page.obj.TrimBox = pikepdf.Array([b, b, w - b, h - b])
        page.obj.BleedBox = pikepdf.Array([0, 0, w, h])
        page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F0=forms[key]))
        page.Contents = out.make_stream(b"q /F0 Do Q\n")
    out.docinfo[Name.Title] = title
    out.docinfo[Name.Creator] = "pnp"
    return out

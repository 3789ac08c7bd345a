"""The print side of the model: papers and the sheet layouts cards are imposed
in (crop marks, label sheets), read from pnp's presets and a game's
``layouts:``. Lengths are float points; each attribute declared once with
:func:`key`, as in :mod:`pnp.model`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pnp.schema.scalars import Boolean, Choice, Length, Text
from pnp.schema.shapes import AutoOrCount
from pnp.schema.spec import ModelRecord, key


@dataclass(frozen=True)
class Paper:
    id: str
    name: str = key(Text(max_length=40), "The paper's name.")
    width: float = key(Length(50, 2000), "Paper width, portrait.")
    height: float = key(Length(50, 2000), "Paper height, portrait.")


PAPER = ModelRecord.of(Paper, "a paper {name, width, height}", by_loader=True)


@dataclass(frozen=True)
class CropMarks:
    length: float = key(Length(0.5, 20), "How long each mark is.")
    offset: float = key(Length(0, 10), "The gap between the card edge and the mark.")
    """Distance between the cards' edge and the start of a mark."""
    weight: float = key(Length(0.05, 3), "The stroke width.", 0.5)
    in_gaps: bool = key(Boolean(), "Also draw cut ticks across the gaps between cards, over the bleed.", False)
    """Also draw cut ticks across the gaps between cards (over the bleed, with a light casing)."""


PaperId = Literal["a4", "letter"]


@dataclass(frozen=True)
class LabelSheet:
    """The fixed geometry of a sheet of sticker labels (a named product)."""

    product: str = key(Text(max_length=120), "The label product, as a buyer would look it up.")
    paper: PaperId = key(Choice(("a4", "letter")), "The paper the product comes on.")
    width: float = key(Length(5, 300), "One label's width.")
    height: float = key(Length(5, 300), "One label's height.")
    left: float = key(Length(0, 100), "Paper's left edge to the first label's left edge.")
    """From the paper's left edge to the first column's left edge."""
    top: float = key(Length(0, 100), "Paper's top edge to the first label's top edge.")
    """From the paper's top edge to the first row's top edge."""
    pitch_x: float = key(Length(5, 300), "Left edge to left edge of neighbouring labels.")
    pitch_y: float = key(Length(5, 300), "Top edge to top edge of neighbouring labels.")


Duplex = Literal["long-edge"]
Rotate = Literal["never", "auto"]
Guides = Literal["circle"]


@dataclass(frozen=True, kw_only=True)
class SheetLayout:
    """How cards of one size sit on a sheet: a Squib-style sprue, as data."""

    id: str
    description: str = key(Text(max_length=200), "What the layout is for.")
    columns: int | None = key(AutoOrCount(), "Cards across, or auto for as many as fit.", None)
    """None: as many as fit."""
    rows: int | None = key(AutoOrCount(), "Cards down, or auto for as many as fit.", None)
    gap: float = key(Length(0, 50), "Space between neighbouring cards.", 0.0)
    min_margin: float = key(Length(0, 50), "The least paper margin around the cards.", 5 * 72 / 25.4)
    crop_marks: CropMarks | None = key(
        ModelRecord.of(CropMarks, "{length, offset, weight}"), "Cut marks in the margins, in line with the card edges.", None
    )
    duplex: Duplex = key(Choice(("long-edge",)), "How the paper flips for the backs.", "long-edge")
    rotate: Rotate = key(Choice(("never", "auto")), "auto: turn items a quarter turn when more fit that way.", "never")
    """"auto": turn items a quarter turn when more of them fit that way."""
    guides: Guides | None = key(Choice(("circle",)), "circle: draw a thin cutting circle on each round item's trim.", None)
    """"circle": a thin cutting circle at each item's trim (round tokens)."""
    labels: LabelSheet | None = key(
        ModelRecord.of(LabelSheet, "a label sheet {product, paper, width, height, left, top, pitch_x, pitch_y}"),
        "A label product's fixed grid (with columns and rows): items are centred in its labels.",
        None,
    )
    """A label product's fixed grid: items are centred in its label cells."""
    butted: str | None = key(Text(r"[a-z0-9][a-z0-9-]*", "a layout id"), "The layout to use with pnp build --butted.", None)
    """The layout to use instead when a build asks for butted cards (``pnp build --butted``)."""
    source: Path


LAYOUT = ModelRecord.of(SheetLayout, "a sheet layout", by_loader=True)

"""Sheet layouts, papers and sizes as data: the YAML presets shipped with pnp,
plus a game's own ``layouts/*.yaml``, checked and read into frozen values."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, InputError, Source
from pnp.loading.scalars import Boolean, Choice, Length, Text
from pnp.loading.spec import INVALID, Checker, Field, Record, Spec
from pnp.loading.yamlsrc import KeyPath, load_yaml
from pnp.model import CropMarks, LabelSheet, Paper, SheetLayout
from pnp.paths import PRESETS, confined, way_out


class _AutoOrCount(Spec):
    def expected(self) -> str:
        return "a whole number from 1 to 50 or 'auto'"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if value == "auto":
            return None
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 50:
            return value
        return self.wrong(value, path, ck)


LABELS = Record(
    (
        Field("product", Text(max_length=120), "The label product, as a buyer would look it up."),
        Field("paper", Choice(("a4", "letter")), "The paper the product comes on."),
        Field("width", Length(5, 300), "One label's width."),
        Field("height", Length(5, 300), "One label's height."),
        Field("left", Length(0, 100), "Paper's left edge to the first label's left edge."),
        Field("top", Length(0, 100), "Paper's top edge to the first label's top edge."),
        Field("pitch_x", Length(5, 300), "Left edge to left edge of neighbouring labels."),
        Field("pitch_y", Length(5, 300), "Top edge to top edge of neighbouring labels."),
    ),
    "a label sheet {product, paper, width, height, left, top, pitch_x, pitch_y}",
)

CROP_MARKS = Record(
    (
        Field("length", Length(0.5, 20), "How long each mark is."),
        Field("offset", Length(0, 10), "The gap between the card edge and the mark."),
        Field("weight", Length(0.05, 3), "The stroke width.", 0.5),
        Field("in_gaps", Boolean(), "Also draw cut ticks across the gaps between cards, over the bleed.", False),
    ),
    "{length, offset, weight}",
)

LAYOUT = Record(
    (
        Field("description", Text(max_length=200), "What the layout is for."),
        Field("columns", _AutoOrCount(), "Cards across, or auto for as many as fit.", None),
        Field("rows", _AutoOrCount(), "Cards down, or auto for as many as fit.", None),
        Field("gap", Length(0, 50), "Space between neighbouring cards.", 0.0),
        Field("min_margin", Length(0, 50), "The least paper margin around the cards.", 5 * 72 / 25.4),
        Field("crop_marks", CROP_MARKS, "Cut marks in the margins, in line with the card edges.", None),
        Field("duplex", Choice(("long-edge",)), "How the paper flips for the backs.", "long-edge"),
        Field("rotate", Choice(("never", "auto")), "auto: turn items a quarter turn when more fit that way.", "never"),
        Field("guides", Choice(("circle",)), "circle: draw a thin cutting circle on each round item's trim.", None),
        Field("labels", LABELS, "A label product's fixed grid (with columns and rows): items are centred in its labels.", None),
        Field("butted", Text(r"[a-z0-9][a-z0-9-]*", "a layout id"), "The layout to use with pnp build --butted.", None),
    ),
    "a sheet layout",
)

PAPER = Record(
    (
        Field("name", Text(max_length=40), "The paper's name."),
        Field("width", Length(50, 2000), "Paper width, portrait."),
        Field("height", Length(50, 2000), "Paper height, portrait."),
    ),
    "a paper {name, width, height}",
)


def _load_layout(path: Path, diagnostics: list[Diagnostic], folder: Path) -> SheetLayout | None:
    doc = load_yaml(path, within=folder)
    checked = LAYOUT.check(doc.data, (), Checker(doc, diagnostics))
    if checked is INVALID:
        return None
    marks = checked["crop_marks"]
    return SheetLayout(
        id=path.stem,
        description=checked["description"],
        columns=checked["columns"],
        rows=checked["rows"],
        gap=checked["gap"],
        min_margin=checked["min_margin"],
        crop_marks=CropMarks(**marks) if marks else None,
        duplex=checked["duplex"],
        source=path,
        rotate=checked["rotate"],
        guides=checked["guides"],
        labels=LabelSheet(**checked["labels"]) if checked["labels"] else None,
        butted=checked["butted"],
    )


def load_layouts(game_root: Path | None = None) -> dict[str, SheetLayout]:
    """Preset layouts, overridden or extended by ``<game>/layouts/*.yaml``."""
    diagnostics: list[Diagnostic] = []
    out: dict[str, SheetLayout] = {}
    for base in [PRESETS, *([game_root] if game_root else [])]:
        folder = base / "layouts"
        if folder.is_dir() and confined(folder, [base]) is None:  # listed, it would show what lies elsewhere
            message = f"refused: {way_out(folder, base) or f'it lies outside {base.name}/'}; expected a folder inside it"
            diagnostics.append(Diagnostic(Source(folder), "", message))
            continue
        for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
            layout = _load_layout(path, diagnostics, base)
            if layout:
                out[layout.id] = layout
    for layout in out.values():
        if layout.butted is not None and layout.butted not in out:
            doc = load_yaml(layout.source, within=layout.source.parent)
            Checker(doc, diagnostics).error(
                ("butted",), f"unknown sheet layout {layout.butted!r}; expected one of {', '.join(sorted(out))}"
            )
    if diagnostics:
        raise InputError(diagnostics)
    return out


def _preset_table(name: str, record: Record) -> dict[str, Any]:
    """A preset file of named entries, each checked against ``record``."""
    doc = load_yaml(PRESETS / name)
    diagnostics: list[Diagnostic] = []
    ck = Checker(doc, diagnostics)
    out = {}
    for key, raw in doc.data.items():
        checked = record.check(raw, (key,), ck)
        if checked is not INVALID:
            out[key] = checked
    if diagnostics:
        raise InputError(diagnostics)
    return out


SIZE = Record((Field("width", Length(1, 2000), "Width."), Field("height", Length(1, 2000), "Height.")))


@cache
def load_papers() -> dict[str, Paper]:
    return {k: Paper(k, v["name"], v["width"], v["height"]) for k, v in _preset_table("papers.yaml", PAPER).items()}


@cache
def load_sizes() -> dict[str, tuple[float, float]]:
    return {k: (v["width"], v["height"]) for k, v in _preset_table("sizes.yaml", SIZE).items()}

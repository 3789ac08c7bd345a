"""The frozen values the stages pass along: a loaded game and its parts.

Lengths are float points (see :mod:`pnp.units`). Nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pnp.errors import Diagnostic, Source


@dataclass(frozen=True)
class Entry:
    """One member of a game's named set: a symbol, a crest, a suit ..."""

    set_name: str
    id: str
    name: str
    art: Path | None
    color: str | None
    text: str | None


@dataclass(frozen=True)
class Swatch:
    """One colour of a game's palette: its sRGB screen value and, when the
    designer gave one, its CMYK print value (percent)."""

    name: str
    screen: str
    print: tuple[float, float, float, float] | None = None

    @property
    def rgb(self) -> tuple[int, int, int]:
        return (int(self.screen[1:3], 16), int(self.screen[3:5], 16), int(self.screen[5:7], 16))


@dataclass(frozen=True)
class Size:
    """A trim size in points."""

    name: str
    width: float
    height: float


@dataclass(frozen=True)
class FontFace:
    family: str
    file: Path
    style: str
    weight: int


@dataclass(frozen=True)
class Card:
    """One card design; ``copies`` of it are printed."""

    id: str
    title: str
    copies: int
    fields: Mapping[str, Any]
    source: Source
    entry: Entry | None = None
    """The set entry the card was made from, for components made with ``each``."""


@dataclass(frozen=True)
class DieNet:
    """A die printed as a fold-and-glue net: each card is a die whose field
    ``faces`` lists its six faces, each drawn by the component's front template
    in a ``face``-sized square (points), with ``tab``-deep glue tabs."""

    faces: str
    face: float
    tab: float


@dataclass(frozen=True)
class Component:
    """A printed part of the game: a deck, a set of boards, a token sheet."""

    id: str
    name: str
    size: Size
    bleed: float
    safe: float
    layout: str
    front: str
    back: str | None
    styles: tuple[Path, ...]
    cards: tuple[Card, ...]
    source: Source
    stock: str = "card stock"
    paper_layouts: Mapping[str, str] = field(default_factory=dict)
    """Layouts for particular papers (label products differ between A4 and Letter)."""
    assembly: str | None = None
    """How a printed piece becomes the piece the rules name, for page 1 and rulebooks."""
    die_line: str | None = None
    """``circle`` or ``rectangle``: the shape a factory die-cuts the pieces to (pnp.pdf.dieline)."""
    blank_back: str | None = None
    """One-sided components: the palette name or ``#rrggbb`` of the plain back
    that exports which need a back give them; None is paper white."""
    cards_file: Path | None = None
    """The YAML or spreadsheet file the cards were read from (None for ``each``)."""
    sheet: str | None = None
    """The workbook sheet the cards were read from, when one was named."""
    card_record: Any = field(default=None, compare=False, repr=False)
    """The schema record every card was checked against
    (:class:`pnp.loading.spec.Record`): what ``pnp cards`` converts by."""
    net: DieNet | None = None
    """Dice printed as cube nets: the piece is the whole net, each face drawn by ``front``."""
    faces_of: str | None = None
    """A component made of the faces of another's dice (a label sheet): each card is one face."""

    def layout_for(self, paper: str) -> str:
        return self.paper_layouts.get(paper, self.layout)

    @property
    def copies(self) -> int:
        return sum(card.copies for card in self.cards)


@dataclass(frozen=True)
class Document:
    """A document printed as ordinary pages: a rulebook."""

    id: str
    name: str
    template: str
    styles: tuple[Path, ...]
    stock: str
    booklet: bool = False
    """Also printed as a saddle-stitched booklet and as reader's spreads (pnp.imposition.booklet)."""


@dataclass(frozen=True)
class TuckBox:
    """A tuck box sized from the deck it holds (pnp.imposition.tuckbox); lengths in points."""

    id: str
    name: str
    holds: tuple[str, ...]
    """The components whose cards it holds, together."""
    stock: float
    """The thickness of one card."""
    sleeves: tuple[float, float, float] | None
    """Sleeve width, height and the thickness a sleeve adds to a card."""
    tolerance: float
    panels: Mapping[str, str]
    """Template names by panel: front, back, side, top (the lids)."""
    styles: tuple[Path, ...]


@dataclass(frozen=True)
class Preparation:
    """Something players get or make besides the printed pages (clear sleeves,
    a punch), how many, and how the printed pieces go together with it."""

    need: str
    count: int | None
    how: str | None


@dataclass(frozen=True)
class Module:
    """Optional cards, printed in a file of their own: the cards of any component
    whose ``field`` holds ``value`` (a content-warning flag, an expansion tag)."""

    id: str
    name: str
    description: str | None
    field: str
    value: Any

    def holds(self, card: Card) -> bool:
        return bool(card.fields.get(self.field) == self.value)


@dataclass(frozen=True)
class Variant:
    """A way to play that the rules offer (a variant), as engine options."""

    name: str
    doc: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class EngineSpec:
    """Which engine plays a game: a module in its folder, or an installed plugin."""

    module: str | None
    """A package (``rules/__init__.py``) or module (``rules.py``) in the game folder."""
    plugin: str | None
    """The name of an installed ``pnp.engines`` entry point."""
    options: Mapping[str, Any]
    """What the engine needs from the data (the engine defines them)."""
    variants: Mapping[str, Variant] = field(default_factory=lambda: MappingProxyType({}))
    """Ways to play the rules offer, by name: each sets some options."""
    rollout: str | None = None
    """The engine's agent that search agents play games out with (None: its heuristic, else random)."""

    def options_for(self, variant: str | None) -> dict[str, Any]:
        """The engine options of ``variant`` (None: the rules as printed)."""
        if variant is None:
            return dict(self.options)
        return {**self.options, **self.variants[variant].options}


@dataclass(frozen=True)
class Game:
    """A whole game folder, loaded and checked."""

    id: str
    name: str
    edition: str | None
    version: str
    description: str | None
    root: Path
    players: tuple[int, int]
    fonts: tuple[FontFace, ...]
    styles: tuple[Path, ...]
    sets: Mapping[str, tuple[Entry, ...]]
    components: tuple[Component, ...]
    source: Source
    rules: Mapping[str, Any] = field(default_factory=dict)
    documents: tuple[Document, ...] = ()
    modules: tuple[Module, ...] = ()
    prepare: tuple[Preparation, ...] = ()
    engine: EngineSpec | None = None
    checks: Mapping[str, Any] = field(default_factory=dict)
    """The validated ``checks:`` section; see :mod:`pnp.loading.checks`."""
    where: Mapping[str, Source] = field(default_factory=dict)
    """The file, line and column of each key path of game.yaml (``checks.supply[0]``), for findings."""
    warnings: tuple[Diagnostic, ...] = ()
    """Problems that did not stop the load (unknown keys ...), for the CLI to show."""
    palette: Mapping[str, Swatch] = field(default_factory=dict)
    """The game's colours by name, declared once (``palette:`` in game.yaml)."""
    language: str = "en"
    """The language of the game's text (BCP 47), set on every document it prints."""
    boxes: tuple[TuckBox, ...] = ()
    """Tuck boxes sized from the decks they hold (``boxes:`` in game.yaml)."""
    layouts: Mapping[str, SheetLayout] = field(default_factory=dict)
    """Every sheet layout the game may use: pnp's presets and the game's own
    ``layouts/*.yaml``, by id, checked once when the game is loaded."""
    shared: tuple[Path, ...] = ()
    """The real locations of the folders beside it the game shares files with
    (``shared:`` in game.yaml, :mod:`pnp.loading.shared`), searched in order
    after the game folder and before the project."""

    def colour(self, value: str | None) -> str | None:
        """A palette name or ``#rrggbb`` as the ``#rrggbb`` screen value."""
        if value is None or value.startswith("#"):
            return value
        return self.palette[value].screen

    @property
    def folder_name(self) -> str:
        return self.root.name

    @property
    def title(self) -> str:
        return f"{self.name} {self.edition}" if self.edition else self.name

    def component(self, component_id: str) -> Component:
        return next(c for c in self.components if c.id == component_id)


# Sheets: how items sit on paper (read from YAML presets by pnp.loading.presets)

@dataclass(frozen=True)
class Paper:
    id: str
    name: str
    width: float
    height: float


@dataclass(frozen=True)
class CropMarks:
    length: float
    offset: float
    """Distance between the cards' edge and the start of a mark."""
    weight: float
    in_gaps: bool = False
    """Also draw cut ticks across the gaps between cards (over the bleed, with a light casing)."""


@dataclass(frozen=True)
class SheetLayout:
    """How cards of one size sit on a sheet: a Squib-style sprue, as data."""

    id: str
    description: str
    columns: int | None
    """None: as many as fit."""
    rows: int | None
    gap: float
    min_margin: float
    crop_marks: CropMarks | None
    duplex: str
    source: Path
    rotate: str = "never"
    """"auto": turn items a quarter turn when more of them fit that way."""
    guides: str | None = None
    """"circle": a thin cutting circle at each item's trim (round tokens)."""
    labels: LabelSheet | None = None
    """A label product's fixed grid: items are centred in its label cells."""
    butted: str | None = None
    """The layout to use instead when a build asks for butted cards (``pnp build --butted``)."""


@dataclass(frozen=True)
class LabelSheet:
    """The fixed geometry of a sheet of sticker labels (a named product)."""

    product: str
    paper: str
    width: float
    height: float
    left: float
    """From the paper's left edge to the first column's left edge."""
    top: float
    """From the paper's top edge to the first row's top edge."""
    pitch_x: float
    pitch_y: float

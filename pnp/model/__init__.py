"""The frozen values the stages pass along: a loaded game and its parts.

Lengths are float points (see :mod:`pnp.units`). Nothing here reads files.
An attribute read from game.yaml is declared once, here, with :func:`key`:
its value type, documentation and default make the card-data schema
(:mod:`pnp.loading.schema`), which builds these values directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pnp.errors import Diagnostic, Source
from pnp.schema.checks import CHECKS, Checks
from pnp.schema.scalars import COLOR, IDENT, SLUG, Boolean, Choice, FileRef, Integer, Length, PaletteColor, Percent, Text
from pnp.schema.shapes import LayoutChoice, PrepareCount, SizeSpec
from pnp.schema.spec import AnyValue, Field, ListOf, MapOf, ModelRecord, Record, key

from pnp.model.sheets import LAYOUT as LAYOUT, PAPER as PAPER, CropMarks as CropMarks, LabelSheet as LabelSheet
from pnp.model.sheets import Paper as Paper, PaperId as PaperId, SheetLayout as SheetLayout

MAX_COPIES = 10_000
"""More copies of one card than anyone prints at home or orders from a printer."""


@dataclass(frozen=True)
class Entry:
    """One member of a game's named set: a symbol, a crest, a suit ..."""

    set_name: str
    id: str = key(SLUG, "The entry's id, used by cards and templates.")
    name: str = key(Text(max_length=80), "The name players read.")
    art: Path | None = key(FileRef("art"), "An SVG or PNG drawing of the entry.", None)
    color: str | None = key(PaletteColor(), "The entry's main colour, for templates: a palette colour name (or '#rrggbb').", None)
    text: str | None = key(Text(), "A short description, for references and rulebooks.", None)


ENTRY = ModelRecord.of(Entry, "a set entry {id, name, art, color, text}", by_loader=True)


@dataclass(frozen=True)
class Swatch:
    """One colour of a game's palette: its sRGB screen value and, when the
    designer gave one, its CMYK print value (percent)."""

    name: str
    screen: str = key(COLOR, "The colour on screen and in home prints, '#rrggbb' (sRGB).")
    print: tuple[float, float, float, float] | None = key(
        ListOf(Percent(), 4, 4),
        "The colour in CMYK exports, [c, m, y, k] in percent; left out, it is converted with the profile's ICC profile.",
        None,
    )
    doc: str | None = key(Text(), "What the colour is for.", None, compare=False, repr=False)

    @property
    def rgb(self) -> tuple[int, int, int]:
        return (int(self.screen[1:3], 16), int(self.screen[3:5], 16), int(self.screen[5:7], 16))


@dataclass(frozen=True)
class Size:
    """A trim size in points."""

    name: str
    width: float
    height: float


FontStyle = Literal["normal", "italic"]
DieLine = Literal["circle", "rectangle"]


@dataclass(frozen=True)
class FontFace:
    family: str = key(Text(max_length=80), "The CSS font-family name templates use.")
    file: Path = key(FileRef("font"), "The font file, under the project's or the game's fonts/.")
    style: FontStyle = key(Choice(("normal", "italic")), "normal or italic.", "normal")
    weight: int = key(Integer(100, 900), "The CSS weight, 400 for regular.", 400)


FONT = ModelRecord.of(FontFace, "a font {family, file, style, weight}")


@dataclass(frozen=True)
class Card:
    """One card design; ``copies`` of it are printed."""

    id: str
    title: str
    copies: int
    fields: Mapping[str, object]
    """The card's own fields, checked against the types its component declares."""
    source: Source
    entry: Entry | None = None
    """The set entry the card was made from, for components made with ``each``."""

    def whole(self, name: str) -> int:
        """The field ``name`` as a whole number (a field declared ``integer``), as
        ``int()`` reads it; a TypeError, as int()'s, for a value that is no number."""
        value = self.fields[name]
        if not isinstance(value, (int, float, str)):
            raise TypeError(f"card {self.id!r}: {name} is {value!r}, not a whole number")
        return int(value)


@dataclass(frozen=True)
class DieNet:
    """A die printed as a fold-and-glue net: each card is a die whose field
    ``faces`` lists its six faces, each drawn by the component's front template
    in a ``face``-sized square (points), with ``tab``-deep glue tabs."""

    faces: str = key(IDENT, "The card field that lists each die's six faces, in net order.")
    face: float = key(Length(5, 60), "The side of one face's square.")
    tab: float = key(Length(1, 20), "How deep the glue tabs are; default three tenths of the face.", None)


NET = ModelRecord.of(DieNet, "a cube net {faces, face, tab}", by_loader=True)
"""The loader works out the tab left out (:mod:`pnp.loading.dice`)."""


@dataclass(frozen=True, kw_only=True)
class Component:
    """A printed part of the game: a deck, a set of boards, a token sheet."""

    id: str = key(SLUG, "The component's id, used by --only and in the manifest.")
    name: str = key(Text(max_length=80), "The name players read in the printing instructions.")
    size: Size = key(SizeSpec(), "The trim size: a preset name (poker, bridge, tarot, mini) or {width, height}; nets work theirs out.", None)
    bleed: float = key(Length(0, 10), "Extra art beyond the trim on every side.", 3.0 * 72 / 25.4)
    safe: float = key(Length(0, 20), "Inset from the trim inside which text and symbols stay.", 4.0 * 72 / 25.4)
    layout: str = key(LayoutChoice(), "The sheet layout id, or one per paper: {a4: avery-l7651, letter: avery-5160}.", None)
    """The sheet layout on papers :attr:`paper_layouts` does not name."""
    front: str = key(FileRef("template"), "The Jinja2 template of each card's front.")
    back: str | None = key(FileRef("template"), "The template of the backs; leave out for one-sided components.", None)
    styles: tuple[Path, ...] = key(ListOf(FileRef("style")), "Stylesheets the templates use, in order.", (), name="style")
    cards_file: Path | None = key(
        FileRef("data"),
        "The file, in the game folder, that lists the cards: YAML ({cards: [...]}) or a spreadsheet "
        "(.csv, .tsv, .xlsx, .ods; docs/card-data.md, Spreadsheets).",
        None,
        name="cards",
    )
    """The YAML or spreadsheet file the cards were read from (None for ``each``)."""
    sheet: str | None = key(
        Text(), "With a .xlsx or .ods cards file: the name of the sheet that lists the cards (default: the first sheet).", None
    )
    """The workbook sheet the cards were read from, when one was named."""
    net: DieNet | None = key(NET, "Print each card as a die: a cube net of its six faces, with fold lines and glue tabs.", None)
    """Dice printed as cube nets: the piece is the whole net, each face drawn by ``front``."""
    faces_of: str | None = key(
        SLUG,
        "Instead of cards: one piece per face of every die of this net component (listed before it), such as labels for blank dice.",
        None,
    )
    """A component made of the faces of another's dice (a label sheet): each card is one face."""
    stock: str = key(Text(max_length=40), "What to print it on, for the printing instructions.", "card stock")
    assembly: str | None = key(
        Text(max_length=600), "How a printed piece becomes the piece the rules name (sleeved, stuck, punched), in players' words.", None
    )
    """How a printed piece becomes the piece the rules name, for page 1 and rulebooks."""
    die_line: DieLine | None = key(
        Choice(("circle", "rectangle")),
        "The shape a factory die-cuts each piece to at its trim (tokens, boards); default circle for layouts with cutting circles.",
        None,
    )
    """The shape a factory die-cuts the pieces to (pnp.pdf.dieline)."""
    corner_radius: float | None = key(
        Length(0, 20),
        "The radius of the pieces' rounded corners, for print-and-cut files (default: the cut profile's, 1/8 in, for cards; square for other rectangles).",
        None,
    )
    """Print-and-cut: the radius the pieces' corners are cut to (pnp.output.cutfiles); None: the profile's for cards."""
    blank_back: str | None = key(
        PaletteColor(),
        "One-sided components: the colour of the plain back that print-shop and Tabletop Simulator exports give them (default paper white).",
        None,
    )
    """One-sided components: the palette name or ``#rrggbb`` of the plain back
    that exports which need a back give them; None is paper white."""
    cards: tuple[Card, ...]
    source: Source
    paper_layouts: Mapping[str, str] = field(default_factory=dict)
    """Layouts for particular papers (label products differ between A4 and Letter)."""
    card_record: Record | None = field(default=None, compare=False, repr=False)
    """The schema record every card was checked against
    (:class:`pnp.schema.spec.Record`): what ``pnp cards`` converts by."""

    def layout_for(self, paper: str) -> str:
        return self.paper_layouts.get(paper, self.layout)

    @property
    def copies(self) -> int:
        return sum(card.copies for card in self.cards)


@dataclass(frozen=True)
class Document:
    """A document printed as ordinary pages: a rulebook."""

    id: str = key(SLUG, "The document's id; its file is <game>-<id>-<paper>.pdf.")
    name: str = key(Text(max_length=80), "The name players read in the printing instructions.")
    template: str = key(FileRef("template"), "The Jinja2 template of the whole document.")
    """The name the template loader knows the template by."""
    styles: tuple[Path, ...] = key(ListOf(FileRef("style")), "Stylesheets the document uses.", (), name="style")
    stock: str = key(Text(max_length=40), "What to print it on.", "plain paper")
    booklet: bool = key(Boolean(), "Also print it as a saddle-stitched booklet and as reader's spreads.", False)
    """Also printed as a saddle-stitched booklet and as reader's spreads (pnp.imposition.booklet)."""


DOCUMENT = ModelRecord.of(Document, "a document {id, name, template, ...}", by_loader=True)


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

    need: str = key(Text(max_length=120), "What to get besides the printed pages, as a player asks for it in a shop.")
    count: int | None = key(
        PrepareCount(), "How many: a number, or {copies_of: [component ids]} to count the pieces that need one.", None
    )
    how: str | None = key(Text(max_length=600), "How the printed pieces become the game's pieces with it.", None)


PREPARE = ModelRecord.of(Preparation, "a preparation step {need, count, how}", by_loader=True)


@dataclass(frozen=True, kw_only=True)
class Module:
    """Optional cards, printed in a file of their own: the cards of any component
    whose ``field`` holds ``value`` (a content-warning flag, an expansion tag)."""

    id: str = key(SLUG, "The module's id; its files are <game>-<id>-home-<paper>.pdf.")
    name: str = key(Text(max_length=120), "The name players read.")
    description: str | None = key(Text(), "What is in it and why it is optional.", None)
    field: str = key(IDENT, "The card field that puts a card in the module.")
    value: object = key(AnyValue(), "The value of that field that does; default true.", True)

    def holds(self, card: Card) -> bool:
        return bool(card.fields.get(self.field) == self.value)


OPTIONS = MapOf(Text(), AnyValue())
"""Engine options: names (the engine defines them) to values of any kind."""


@dataclass(frozen=True)
class Variant:
    """A way to play that the rules offer (a variant), as engine options."""

    name: str
    doc: str = key(Text(max_length=300), "What the variant changes, in players' words.")
    options: Mapping[str, object] = key(OPTIONS, "The engine options it sets, over engine.options.")


VARIANT = ModelRecord.of(Variant, "a variant {doc, options}", by_loader=True)


@dataclass(frozen=True)
class EngineSpec:
    """Which engine plays a game: a module in its folder, or an installed plugin."""

    module: str | None = key(
        IDENT, "The engine in the game folder: a package (rules/__init__.py) or module (rules.py) of this name.", None
    )
    """A package (``rules/__init__.py``) or module (``rules.py``) in the game folder."""
    plugin: str | None = key(SLUG, "Or an installed engine: the name of its `pnp.engines` entry point.", None)
    """The name of an installed ``pnp.engines`` entry point."""
    options: Mapping[str, object] = key(OPTIONS, "What the engine needs from the data: which deck, field, tables; its round cap.", {})
    """What the engine needs from the data (the engine defines them)."""
    variants: Mapping[str, Variant] = key(
        MapOf(SLUG, VARIANT), "Ways to play the rules offer (pnp simulate --variant NAME; pnp check plays each).", {}
    )
    """Ways to play the rules offer, by name: each sets some options."""
    rollout: str | None = key(
        IDENT, "The engine's agent the search agent plays games out with (default: its heuristic, else random play).", None
    )
    """The engine's agent that search agents play games out with (None: its heuristic, else random)."""

    def options_for(self, variant: str | None) -> dict[str, object]:
        """The engine options of ``variant`` (None: the rules as printed)."""
        if variant is None:
            return dict(self.options)
        return {**self.options, **self.variants[variant].options}


ENGINE = ModelRecord.of(EngineSpec, "an engine {module or plugin, options, variants, rollout}", by_loader=True)

SWATCH = ModelRecord.of(Swatch, "a palette colour {screen: '#rrggbb', print: [c, m, y, k]}", by_loader=True)

PLAYERS = Record(
    (
        Field("min", Integer(1, 100), "The fewest players."),
        Field("max", Integer(1, 100), "The most players."),
    ),
    "{min, max}",
)

MODULE = ModelRecord.of(Module, "a module {id, name, field, value}")


@dataclass(frozen=True, kw_only=True)
class Game:
    """A whole game folder, loaded and checked."""

    id: str = key(SLUG, "The game's id; output goes to output/<game folder name>/.")
    name: str = key(Text(max_length=80), "The game's title.")
    edition: str | None = key(Text(max_length=40), "The edition or variant, printed beside the title.", None)
    version: str = key(Text(max_length=40), "The designer's version of the data, printed on builds.", "0.1.0")
    description: str | None = key(Text(), "One or two sentences about the game.", None)
    language: str = key(
        Text(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*", "a language tag like 'en' or 'en-GB'", 35),
        "The language of the game's text (a BCP 47 tag): hyphenation and shaping follow it, never the machine's locale.",
        "en",
    )
    """The language of the game's text (BCP 47), set on every document it prints."""
    players: tuple[int, int] = key(PLAYERS, "The allowed player counts.")
    fonts: tuple[FontFace, ...] = key(ListOf(FONT), "Fonts the templates may use; only these are ever embedded.", ())
    styles: tuple[Path, ...] = key(ListOf(FileRef("style")), "Stylesheets every template of the game uses.", (), name="style")
    palette: Mapping[str, Swatch] = key(
        MapOf(SLUG, SWATCH),
        "The game's colours, declared once: templates use var(--name) in CSS or palette.name; exports convert them.",
        {},
    )
    """The game's colours by name, declared once (``palette:`` in game.yaml)."""
    sets: Mapping[str, tuple[Entry, ...]] = key(MapOf(SLUG, ListOf(ENTRY, 1)), "Named vocabularies cards refer to by id.", {})
    rules: Mapping[str, object] = key(AnyValue(), "Facts of the rules (player tables ...) for templates and checks.", {})
    documents: tuple[Document, ...] = key(ListOf(DOCUMENT), "Rulebooks and other documents printed as pages.", ())
    boxes: tuple[TuckBox, ...] = key(
        ListOf(AnyValue()), "Tuck boxes sized from the decks they hold, printed as die lines with their panels.", ()
    )
    """Tuck boxes sized from the decks they hold (the loader checks each with pnp.loading.boxes.BOX)."""
    modules: tuple[Module, ...] = key(ListOf(MODULE), "Optional cards printed in files of their own.", ())
    prepare: tuple[Preparation, ...] = key(
        ListOf(PREPARE),
        "What players need besides the printed pages, and how the pieces go together: page 1 and rulebooks list it.", (),
    )
    engine: EngineSpec | None = key(ENGINE, "The rules engine that plays the game (`pnp simulate`, `pnp score`).", None)
    checks: Checks = key(CHECKS, "Invariants and odds that `pnp check` verifies before anything is printed.", Checks())
    """The validated ``checks:`` section; see :mod:`pnp.schema.checks`."""
    components: tuple[Component, ...] = key(AnyValue(), "What gets printed.")
    """What gets printed (the loader checks each component on its own)."""
    root: Path
    source: Source
    where: Mapping[str, Source] = field(default_factory=dict)
    """The file, line and column of each key path of game.yaml (``checks.supply[0]``), for findings."""
    warnings: tuple[Diagnostic, ...] = ()
    """Problems that did not stop the load (unknown keys ...), for the CLI to show."""
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

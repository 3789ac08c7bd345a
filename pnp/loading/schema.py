"""The one card-data schema: every key of a game folder's YAML, documented.

``docs/card-data.md`` explains each field; ``tests/loading/test_schema_docs.py`` fails
when a field here is missing there. Types come from :mod:`pnp.loading.spec` and :mod:`pnp.loading.scalars`.
"""

from __future__ import annotations

from typing import Any

from pnp.loading.scalars import COLOR, IDENT, SLUG, Boolean, Choice, FileRef, Integer, Length, Number, PaletteColor, Percent, Ref, Text
from pnp.loading.spec import INVALID, Checker, Field, ListOf, MapOf, Record, Spec, Variant
from pnp.loading.yamlsrc import KeyPath
from pnp.loading.checks import CHECKS
from pnp.loading.boxes import BOX

MAX_COPIES = 10_000
"""More copies of one card than anyone prints at home or orders from a printer."""


class AnyValue(Spec):
    """Any YAML value; checked later by the code that knows what it means."""

    def expected(self) -> str:
        return "a value"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        return value


class SizeSpec(Spec):
    """A named card size (``poker``) or ``{width: 63.5mm, height: 88.9mm}``."""

    def __init__(self, presets: dict[str, tuple[float, float]]):
        self.presets = presets
        self.custom = Record(
            (
                Field("width", Length(5, 600), "Trim width of the card or board."),
                Field("height", Length(5, 600), "Trim height of the card or board."),
            ),
            "a size name or {width, height}",
        )

    def expected(self) -> str:
        return f"a size name ({', '.join(self.presets)}) or {{width: 63.5mm, height: 88.9mm}}"

    def children(self):  # type: ignore[no-untyped-def]
        yield "", self.custom

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, str):
            if value in self.presets:
                width, height = self.presets[value]
                return {"name": value, "width": width, "height": height}
            return self.wrong(value, path, ck)
        checked = self.custom.check(value, path, ck)
        if checked is INVALID:
            return INVALID
        return {"name": "custom", **checked}


class LayoutChoice(Spec):
    """A sheet layout id for every paper, or a mapping of paper ids to layout ids."""

    def expected(self) -> str:
        return "a layout id, or a mapping of paper ids to layout ids"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, str):
            return SLUG.check(value, path, ck)
        if isinstance(value, dict) and value:
            checked = MapOf(SLUG, SLUG).check(value, path, ck)
            return checked
        return self.wrong(value, path, ck)


FIELD_TYPES = ("text", "integer", "number", "boolean", "length", "ref", "list", "map", "record", "variant")

FIELD_TYPE = Record(
    (
        Field("type", Choice(FIELD_TYPES), "The kind of value: text, integer, number, boolean, length, ref, list, map, record or variant."),
        Field("doc", Text(), "What the field means, for the game's designers and players."),
        Field("required", Boolean(), "Whether every card must give the field.", False),
        Field("default", AnyValue(), "The value a card gets when it leaves the field out.", None),
        Field("set", SLUG, "For ref: the name of the set whose ids are allowed (symbols, crests ...).", None),
        Field("choices", ListOf(AnyValue(), 1), "For text and integer: the only values allowed.", None),
        Field("min", Number(), "For integer and number: the smallest value; for list and map: the fewest entries.", None),
        Field("max", Number(), "For integer and number: the largest value; for list and map: the most entries.", None),
        Field("length", Integer(0), "For list and map: the exact number of entries.", None),
        Field("items", AnyValue(), "For list: the field type of each item.", None),
        Field("keys", AnyValue(), "For map: the field type of each key (usually a ref).", None),
        Field("values", AnyValue(), "For map: the field type of each value.", None),
        Field("fields", AnyValue(), "For record: a mapping of key names to field types.", None),
        Field("tag", IDENT, "For variant: the key whose value says which variant a value is.", None),
        Field("variants", AnyValue(), "For variant: a mapping of each tag value to its fields (names to field types).", None),
    ),
    "a field type such as {type: text, doc: ...}",
)

ENTRY = Record(
    (
        Field("id", SLUG, "The entry's id, used by cards and templates."),
        Field("name", Text(max_length=80), "The name players read."),
        Field("art", FileRef("art"), "An SVG or PNG drawing of the entry.", None),
        Field("color", PaletteColor(), "The entry's main colour, for templates: a palette colour name (or '#rrggbb').", None),
        Field("text", Text(), "A short description, for references and rulebooks.", None),
    ),
    "a set entry {id, name, art, color, text}",
)

SWATCH = Record(
    (
        Field("screen", COLOR, "The colour on screen and in home prints, '#rrggbb' (sRGB)."),
        Field(
            "print",
            ListOf(Percent(), 4, 4),
            "The colour in CMYK exports, [c, m, y, k] in percent; left out, it is converted with the profile's ICC profile.",
            None,
        ),
        Field("doc", Text(), "What the colour is for.", None),
    ),
    "a palette colour {screen: '#rrggbb', print: [c, m, y, k]}",
)

FONT = Record(
    (
        Field("family", Text(max_length=80), "The CSS font-family name templates use."),
        Field("file", FileRef("font"), "The font file, under the project's or the game's fonts/."),
        Field("style", Choice(("normal", "italic")), "normal or italic.", "normal"),
        Field("weight", Integer(100, 900), "The CSS weight, 400 for regular.", 400),
    ),
    "a font {family, file, style, weight}",
)

PLAYERS = Record(
    (
        Field("min", Integer(1, 100), "The fewest players."),
        Field("max", Integer(1, 100), "The most players."),
    ),
    "{min, max}",
)


DOCUMENT = Record(
    (
        Field("id", SLUG, "The document's id; its file is <game>-<id>-<paper>.pdf."),
        Field("name", Text(max_length=80), "The name players read in the printing instructions."),
        Field("template", FileRef("template"), "The Jinja2 template of the whole document."),
        Field("style", ListOf(FileRef("style")), "Stylesheets the document uses.", ()),
        Field("stock", Text(max_length=40), "What to print it on.", "plain paper"),
        Field("booklet", Boolean(), "Also print it as a saddle-stitched booklet and as reader's spreads.", False),
    ),
    "a document {id, name, template, ...}",
)


MODULE = Record(
    (
        Field("id", SLUG, "The module's id; its files are <game>-<id>-home-<paper>.pdf."),
        Field("name", Text(max_length=120), "The name players read."),
        Field("description", Text(), "What is in it and why it is optional.", None),
        Field("field", IDENT, "The card field that puts a card in the module."),
        Field("value", AnyValue(), "The value of that field that does; default true.", True),
    ),
    "a module {id, name, field, value}",
)


class PrepareCount(Spec):
    """How many of a thing to get: a whole number, or the printed copies of
    the components that each need one (``{copies_of: [sleeves, rings]}``)."""

    _BY_COMPONENTS = Record(
        (Field("copies_of", ListOf(SLUG, 1), "Components whose printed copies each need one (their copies are added)."),),
        "{copies_of: [component ids]}",
    )

    def expected(self) -> str:
        return "a whole number from 1 to 10000, or {copies_of: [component ids]}"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, dict):
            return self._BY_COMPONENTS.check(value, path, ck)
        if isinstance(value, int) and not isinstance(value, bool):
            return Integer(1, 10_000).check(value, path, ck)
        return self.wrong(value, path, ck)


PREPARE = Record(
    (
        Field("need", Text(max_length=120), "What to get besides the printed pages, as a player asks for it in a shop."),
        Field("count", PrepareCount(), "How many: a number, or {copies_of: [component ids]} to count the pieces that need one.", None),
        Field("how", Text(max_length=600), "How the printed pieces become the game's pieces with it.", None),
    ),
    "a preparation step {need, count, how}",
)


VARIANT = Record(
    (
        Field("doc", Text(max_length=300), "What the variant changes, in players' words."),
        Field("options", AnyValue(), "The engine options it sets, over engine.options."),
    ),
    "a variant {doc, options}",
)

ENGINE = Record(
    (
        Field("module", IDENT, "The engine in the game folder: a package (rules/__init__.py) or module (rules.py) of this name.", None),
        Field("plugin", SLUG, "Or an installed engine: the name of its `pnp.engines` entry point.", None),
        Field("options", AnyValue(), "What the engine needs from the data: which deck, field, tables; its round cap.", {}),
        Field("variants", MapOf(SLUG, VARIANT), "Ways to play the rules offer (pnp simulate --variant NAME; pnp check plays each).", {}),
        Field("rollout", IDENT, "The engine's agent the search agent plays games out with (default: its heuristic, else random play).", None),
    ),
    "an engine {module or plugin, options, variants, rollout}",
)


NET = Record(
    (
        Field("faces", IDENT, "The card field that lists each die's six faces, in net order."),
        Field("face", Length(5, 60), "The side of one face's square."),
        Field("tab", Length(1, 20), "How deep the glue tabs are; default three tenths of the face.", None),
    ),
    "a cube net {faces, face, tab}",
)


def component_record(sizes: dict[str, tuple[float, float]]) -> Record:
    return Record(
        (
            Field("id", SLUG, "The component's id, used by --only and in the manifest."),
            Field("name", Text(max_length=80), "The name players read in the printing instructions."),
            Field("size", SizeSpec(sizes), "The trim size: a preset name (poker, bridge, tarot, mini) or {width, height}; nets work theirs out.", None),
            Field("bleed", Length(0, 10), "Extra art beyond the trim on every side.", 3.0 * 72 / 25.4),
            Field("safe", Length(0, 20), "Inset from the trim inside which text and symbols stay.", 4.0 * 72 / 25.4),
            Field("layout", LayoutChoice(), "The sheet layout id, or one per paper: {a4: avery-l7651, letter: avery-5160}.", None),
            Field("front", FileRef("template"), "The Jinja2 template of each card's front."),
            Field("back", FileRef("template"), "The template of the backs; leave out for one-sided components.", None),
            Field("style", ListOf(FileRef("style")), "Stylesheets the templates use, in order.", ()),
            Field(
                "cards", FileRef("data"),
                "The file, in the game folder, that lists the cards: YAML ({cards: [...]}) or a spreadsheet (.csv, .tsv, .xlsx, .ods; docs/card-data.md, Spreadsheets).",
                None,
            ),
            Field("sheet", Text(), "With a .xlsx or .ods cards file: the name of the sheet that lists the cards (default: the first sheet).", None),
            Field("each", SLUG, "Instead of cards: make one card per entry of this set (for example crests).", None),
            Field("net", NET, "Print each card as a die: a cube net of its six faces, with fold lines and glue tabs.", None),
            Field(
                "denominations", IDENT,
                "Instead of cards: one piece per key of this rules table (value: count), printed count times; its `value` is the key.", None,
            ),
            Field(
                "faces_of", SLUG,
                "Instead of cards: one piece per face of every die of this net component (listed before it), such as labels for blank dice.", None,
            ),
            Field("copies", Integer(0, MAX_COPIES), "Copies of each card unless the card says otherwise.", 1),
            Field("fields", MapOf(IDENT, FIELD_TYPE), "The game-specific fields of this component's cards.", {}),
            Field("stock", Text(max_length=40), "What to print it on, for the printing instructions.", "card stock"),
            Field(
                "assembly", Text(max_length=600),
                "How a printed piece becomes the piece the rules name (sleeved, stuck, punched), in players' words.", None,
            ),
            Field(
                "die_line", Choice(("circle", "rectangle")),
                "The shape a factory die-cuts each piece to at its trim (tokens, boards); default circle for layouts with cutting circles.", None,
            ),
            Field(
                "blank_back", PaletteColor(),
                "One-sided components: the colour of the plain back that print-shop and Tabletop Simulator exports give them (default paper white).",
                None,
            ),
        ),
        "a component {id, name, size, front, ...}",
    )


def game_record(sizes: dict[str, tuple[float, float]], components: bool = True) -> Record:
    """The game file. With ``components=False`` the components are left for the
    loader to check one by one (so one bad component does not hide the rest)."""
    return Record(
        (
            Field("schema", Integer(1, 1), "The card-data format version; 1.", 1),
            Field("id", SLUG, "The game's id; output goes to output/<game folder name>/."),
            Field("name", Text(max_length=80), "The game's title."),
            Field("edition", Text(max_length=40), "The edition or variant, printed beside the title.", None),
            Field("version", Text(max_length=40), "The designer's version of the data, printed on builds.", "0.1.0"),
            Field("description", Text(), "One or two sentences about the game.", None),
            Field(
                "language",
                Text(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*", "a language tag like 'en' or 'en-GB'", 35),
                "The language of the game's text (a BCP 47 tag): hyphenation and shaping follow it, never the machine's locale.",
                "en",
            ),
            Field("players", PLAYERS, "The allowed player counts."),
            Field(
                "shared", ListOf(Text(max_length=200)),
                "Folders beside the game folder it shares templates, art and fonts with (a family of games), searched after its own.", (),
            ),
            Field("fonts", ListOf(FONT), "Fonts the templates may use; only these are ever embedded.", ()),
            Field("style", ListOf(FileRef("style")), "Stylesheets every template of the game uses.", ()),
            Field(
                "palette",
                MapOf(SLUG, SWATCH),
                "The game's colours, declared once: templates use var(--name) in CSS or palette.name; exports convert them.",
                {},
            ),
            Field("sets", MapOf(SLUG, ListOf(ENTRY, 1)), "Named vocabularies cards refer to by id.", {}),
            Field("rules", AnyValue(), "Facts of the rules (player tables ...) for templates and checks.", {}),
            Field(
                "rules_schema", MapOf(IDENT, FIELD_TYPE),
                "The type of each value of rules: (a field type, as card fields have); a value that breaks it is an error.", {},
            ),
            Field("documents", ListOf(DOCUMENT), "Rulebooks and other documents printed as pages.", ()),
            Field("boxes", ListOf(BOX), "Tuck boxes sized from the decks they hold, printed as die lines with their panels.", ()),
            Field("modules", ListOf(MODULE), "Optional cards printed in files of their own.", ()),
            Field(
                "prepare", ListOf(PREPARE),
                "What players need besides the printed pages, and how the pieces go together: page 1 and rulebooks list it.", (),
            ),
            Field("engine", ENGINE, "The rules engine that plays the game (`pnp simulate`, `pnp score`).", None),
            Field("checks", CHECKS, "Invariants and odds that `pnp check` verifies before anything is printed.", {}),
            Field(
                "components",
                ListOf(component_record(sizes) if components else AnyValue(), 1),
                "What gets printed.",
            ),
        ),
        "a game file {id, name, players, components, ...}",
    )


def card_record(fields: tuple[Field, ...], default_copies: int) -> Record:
    base = (
        Field("id", SLUG, "The card's id, unique within its component."),
        Field("title", Text(max_length=80), "The card's name as printed."),
        Field("copies", Integer(0, MAX_COPIES), "How many of this card to print.", default_copies),
    )
    return Record(base + fields, "a card {id, title, copies, ...}")


CARD_BASE = card_record((), 1)

CARDS_FILE = Record(
    (Field("cards", AnyValue(), "The list of cards; each is checked against the component's fields."),),
    "a cards file {cards: [...]}",
)


def field_spec(decl: dict[str, Any], path: KeyPath, ck: Checker) -> Spec:
    """Turn a checked field-type declaration into the spec that checks card values."""
    kind = decl["type"]
    choices = tuple(decl["choices"] or ())
    low, high, exact = decl["min"], decl["max"], decl["length"]
    if exact is not None:
        low = high = exact
    if kind == "number":
        return Number(low, high)
    for bound in ("min", "max"):
        if decl[bound] is not None and not isinstance(decl[bound], int):
            ck.error((*path, bound), f"expected a whole number for a {kind} field, found {decl[bound]!r}")
    low, high = (None if low is None else int(low)), (None if high is None else int(high))

    def nested(key: str) -> Spec:
        raw = decl[key]
        if raw is None:
            ck.error(path, f"a {kind} field needs '{key}' (a field type)")
            return AnyValue()
        checked = FIELD_TYPE.check(raw, (*path, key), ck)
        return AnyValue() if checked is INVALID else field_spec(checked, (*path, key), ck)

    if kind == "text":
        return Choice(tuple(str(c) for c in choices)) if choices else Text()
    if kind == "integer":
        if choices and not all(isinstance(c, int) for c in choices):
            ck.error((*path, "choices"), "integer choices must be whole numbers")
        return Integer(low, high, tuple(c for c in choices if isinstance(c, int)))
    if kind == "boolean":
        return Boolean()
    if kind == "length":
        return Length()
    if kind == "ref":
        if decl["set"] is None:
            ck.error(path, "a ref field needs 'set' (the name of one of the game's sets)")
            return AnyValue()
        if decl["set"] not in ck.sets:
            ck.error((*path, "set"), f"unknown set {decl['set']!r}; expected one of {', '.join(sorted(ck.sets)) or 'none'}")
            return AnyValue()
        return Ref(decl["set"])
    if kind == "list":
        return ListOf(nested("items"), low or 0, high if high is not None else 100_000)
    if kind == "map":
        return MapOf(nested("keys"), nested("values"), low or 0, high if high is not None else 100_000)
    if kind == "variant":
        if decl["tag"] is None or not isinstance(decl["variants"], dict) or not decl["variants"]:
            ck.error(path, "a variant field needs 'tag' and 'variants' (tag values to their fields)")
            return AnyValue()
        variants = []
        for name, fields in decl["variants"].items():
            here = (*path, "variants", name)
            if fields is None:
                fields = {}
            if not isinstance(fields, dict):
                ck.error(here, "expected a mapping of field names to field types")
                continue
            variants.append((str(name), Record(_declared_fields(fields, here, ck), f"a {name}")))
        return Variant(decl["tag"], tuple(variants))
    # record
    raw = decl["fields"]
    if not isinstance(raw, dict) or not raw:
        ck.error(path, "a record field needs 'fields' (a mapping of names to field types)")
        return AnyValue()
    return Record(_declared_fields(raw, (*path, "fields"), ck), "a record")


def _declared_fields(raw: dict[str, Any], path: KeyPath, ck: Checker) -> tuple[Field, ...]:
    checked = {}
    for name, decl in raw.items():
        result = FIELD_TYPE.check(decl, (*path, name), ck)
        if result is not INVALID:
            checked[name] = result
    return declared_fields(checked, path, ck)


RESERVED = ("id", "title", "copies", "entry")
"""Card keys every card has; a component cannot declare them again."""


def declared_fields(raw: dict[str, Any], path: KeyPath, ck: Checker) -> tuple[Field, ...]:
    """The fields a component declares for its cards (already checked as FIELD_TYPE)."""
    out = []
    for name, decl in raw.items():
        if name in RESERVED:
            ck.error((*path, name), f"{name!r} is a key every card has; choose another field name")
            continue
        spec = field_spec(decl, (*path, name), ck)
        if decl["required"]:
            out.append(Field(name, spec, decl["doc"]))
        else:
            out.append(Field(name, spec, decl["doc"], decl["default"]))
    return tuple(out)

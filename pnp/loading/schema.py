"""The one card-data schema: every key of a game folder's YAML, documented.

The keys the loader turns into model values are declared once, on the model
classes (:mod:`pnp.model`, :mod:`pnp.schema.checks`, each attribute with
:func:`pnp.schema.spec.key`); this module adds the keys only the loader reads
(card field types, a component's ``each``) and the records of cards.
``docs/card-data.md`` explains each field; ``tests/loading/test_schema_docs.py`` fails
when a field here is missing there. Types come from :mod:`pnp.schema.spec` and :mod:`pnp.schema.scalars`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from pnp.schema.scalars import IDENT, SLUG, Boolean, Choice, Integer, Length, Number, Ref, Text
from pnp.schema.shapes import SizeSpec
from pnp.schema.spec import INVALID, AnyValue, Checker, Field, ListOf, MapOf, ModelRecord, Record, Spec, Variant, got
from pnp.loading.yamlsrc import KeyPath
from pnp.loading.boxes import BOX
from pnp.model import MAX_COPIES, Component, Game


FieldKind = Literal["text", "integer", "number", "boolean", "length", "ref", "list", "map", "record", "variant"]
FIELD_TYPES: tuple[FieldKind, ...] = get_args(FieldKind)

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

COMPONENT = ModelRecord.of(
    Component,
    "a component {id, name, size, front, ...}",
    also=(
        ("sheet", Field("each", SLUG, "Instead of cards: make one card per entry of this set (for example crests).", None)),
        (
            "net",
            Field(
                "denominations", IDENT,
                "Instead of cards: one piece per key of this rules table (value: count), printed count times; its `value` is the key.", None,
            ),
        ),
        ("faces_of", Field("copies", Integer(0, MAX_COPIES), "Copies of each card unless the card says otherwise.", 1)),
        ("copies", Field("fields", MapOf(IDENT, FIELD_TYPE), "The game-specific fields of this component's cards.", {})),
    ),
    by_loader=True,
)

GAME = ModelRecord.of(
    Game,
    "a game file {id, name, players, components, ...}",
    also=(
        (None, Field("schema", Integer(1, 1), "The card-data format version; 1.", 1)),
        (
            "players",
            Field(
                "shared", ListOf(Text(max_length=200)),
                "Folders beside the game folder it shares templates, art and fonts with (a family of games), searched after its own.", (),
            ),
        ),
        (
            "rules",
            Field(
                "rules_schema", MapOf(IDENT, FIELD_TYPE),
                "The type of each value of rules: (a field type, as card fields have); a value that breaks it is an error.", {},
            ),
        ),
    ),
    by_loader=True,
)


def component_record(sizes: Mapping[str, tuple[float, float]]) -> ModelRecord[Component]:
    return COMPONENT.with_spec("size", SizeSpec(sizes))


def game_record(sizes: Mapping[str, tuple[float, float]], components: bool = True) -> ModelRecord[Game]:
    """The game file. With ``components=False`` the components are left for the
    loader to check one by one (so one bad component does not hide the rest)."""
    return GAME.with_spec("components", ListOf(component_record(sizes) if components else AnyValue(), 1)).with_spec("boxes", ListOf(BOX))


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


def field_spec(decl: Mapping[str, object], path: KeyPath, ck: Checker) -> Spec[object]:
    """Turn a checked field-type declaration (:data:`FIELD_TYPE`) into the spec that checks card values."""
    kind = decl["type"]
    choices: tuple[object, ...] = got(decl, "choices", tuple) if decl["choices"] is not None else ()
    low, high, exact = _bound(decl, "min"), _bound(decl, "max"), _bound(decl, "length")
    if exact is not None:
        low = high = exact
    if kind == "number":
        return Number(low, high)
    for bound in ("min", "max"):
        if decl[bound] is not None and not isinstance(decl[bound], int):
            ck.error((*path, bound), f"expected a whole number for a {kind} field, found {decl[bound]!r}")
    whole_low, whole_high = (None if low is None else int(low)), (None if high is None else int(high))

    def nested(key: str) -> Spec[object]:
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
        return Integer(whole_low, whole_high, tuple(c for c in choices if isinstance(c, int)))
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
        return Ref(got(decl, "set", str))
    if kind == "list":
        return ListOf(nested("items"), whole_low or 0, whole_high if whole_high is not None else 100_000)
    if kind == "map":
        return MapOf(nested("keys"), nested("values"), whole_low or 0, whole_high if whole_high is not None else 100_000)
    if kind == "variant":
        tag, given = decl["tag"], decl["variants"]
        if tag is None or not isinstance(given, dict) or not given:
            ck.error(path, "a variant field needs 'tag' and 'variants' (tag values to their fields)")
            return AnyValue()
        variants = []
        for name, fields in given.items():
            here = (*path, "variants", name)
            if fields is None:
                fields = {}
            if not isinstance(fields, dict):
                ck.error(here, "expected a mapping of field names to field types")
                continue
            variants.append((str(name), Record(_declared_fields(fields, here, ck), f"a {name}")))
        return Variant(got(decl, "tag", str), tuple(variants))
    # record
    raw = decl["fields"]
    if not isinstance(raw, dict) or not raw:
        ck.error(path, "a record field needs 'fields' (a mapping of names to field types)")
        return AnyValue()
    return Record(_declared_fields(raw, (*path, "fields"), ck), "a record")


def _bound(decl: Mapping[str, object], name: str) -> float | None:
    """A declaration's ``min``, ``max`` or ``length`` (a number, or None when not given)."""
    value = decl[name]
    return value if isinstance(value, (int, float)) else None


def _declared_fields(raw: Mapping[str | int, object], path: KeyPath, ck: Checker) -> tuple[Field, ...]:
    """The fields of a record or variant, each declaration checked here (they are written free-form)."""
    checked: dict[str, dict[str, object]] = {}
    for name, decl in raw.items():
        result = FIELD_TYPE.check(decl, (*path, name), ck)
        if result is not INVALID:
            checked[str(name)] = result
    return declared_fields(checked, path, ck)


RESERVED = ("id", "title", "copies", "entry")
"""Card keys every card has; a component cannot declare them again."""


def declared_fields(raw: Mapping[str, Mapping[str, object]], path: KeyPath, ck: Checker) -> tuple[Field, ...]:
    """The fields a component declares for its cards (already checked as FIELD_TYPE)."""
    out = []
    for name, decl in raw.items():
        if name in RESERVED:
            ck.error((*path, name), f"{name!r} is a key every card has; choose another field name")
            continue
        spec = field_spec(decl, (*path, name), ck)
        if decl["required"]:
            out.append(Field(name, spec, got(decl, "doc", str)))
        else:
            out.append(Field(name, spec, got(decl, "doc", str), decl["default"]))
    return tuple(out)

"""Load a game folder: game.yaml, its cards files, and every reference checked.

All problems are collected and raised together as one :class:`InputError`.
Where a game and its files are found is :mod:`pnp.loading.gamedir`'s (its
names are exported here too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from pnp.errors import Diagnostic, InputError, Level, Source
from pnp.loading.boxes import tuck_boxes
from pnp.loading.dice import check_faces, denomination_cards, die_net, face_cards
from pnp.loading.gamedir import GAME_FILE as GAME_FILE, file_finder as file_finder, resolve_game_dir as resolve_game_dir
from pnp.loading.gamedir import shipped_games as shipped_games, template_name
from pnp.loading.presets import load_layouts, load_sizes
from pnp.loading.rulevalues import rules_values
from pnp.loading.schema import CARDS_FILE, COMPONENT, GAME, card_record, declared_fields, component_record, game_record
from pnp.loading.sheetfiles import is_sheet
from pnp.loading.shared import shared_folders
from pnp.loading.sheets import load_sheet
from pnp.schema.spec import INVALID, Checker, Field, Record, got
from pnp.loading.yamlsrc import Document as YamlDoc, KeyPath, dotted, load_yaml
from pnp.model import (
    DOCUMENT, ENGINE, ENTRY, PREPARE, SWATCH, VARIANT, Card, Component, DieNet, EngineSpec, Entry, Game, Preparation, SheetLayout, Size,
)


def load_game(game_dir: Path, strict: bool = False) -> Game:
    """Read and check a whole game folder; raise InputError listing every problem."""
    diagnostics: list[Diagnostic] = []
    doc = load_yaml(game_dir / GAME_FILE, within=game_dir)
    shared = shared_folders(doc, game_dir, diagnostics)
    find = file_finder(game_dir, shared)
    ck = Checker(doc, diagnostics, find_file=find)
    sizes = load_sizes()
    raw_palette = doc.data.get("palette") if isinstance(doc.data, dict) else None
    ck.sets = {"palette": frozenset(k for k in raw_palette if isinstance(k, str)) if isinstance(raw_palette, dict) else frozenset()}
    top = game_record(sizes, components=False).check_fields(doc.data, (), ck)
    game = None
    if top is not INVALID:
        game = _build_game(game_dir, shared, doc, top, ck, sizes, diagnostics)
    if strict:
        diagnostics = [Diagnostic(d.source, d.path, d.message, Level.ERROR) for d in diagnostics]
    if any(d.level is Level.ERROR for d in diagnostics) or game is None:
        raise InputError(diagnostics)
    return replace(game, warnings=tuple(diagnostics))


def _build_game(
    game_dir: Path, shared: tuple[Path, ...], doc: YamlDoc, top: dict[str, object], ck: Checker, sizes: dict[str, tuple[float, float]], diagnostics: list[Diagnostic]
) -> Game | None:
    sets = _sets(doc, top, ck, diagnostics)
    ck.sets = {**ck.sets, **{name: frozenset(e.id for e in entries) for name, entries in sets.items()}}
    layouts = load_layouts(game_dir)
    top["rules"] = rules_values(top["rules"], top["rules_schema"], ck)
    ck.rules = top["rules"]
    components = _components(game_dir, shared, doc, ck, sizes, sets, layouts, diagnostics)
    diagnostics += _over_budget(components)
    if any(v is INVALID for v in top.values()):
        return None
    return _game(game_dir, shared, doc, top, sets, components, layouts, diagnostics)


def _sets(doc: YamlDoc, top: dict[str, object], ck: Checker, diagnostics: list[Diagnostic]) -> dict[str, tuple[Entry, ...]]:
    """The game's named sets; when some entries are wrong, the good ones (and
    the ids of the bad), so one bad entry does not fail every card naming it."""
    sets: dict[str, tuple[Entry, ...]] = {}
    raw_sets = doc.data.get("sets") if isinstance(doc.data, dict) else None
    if isinstance(raw_sets, dict) and top["sets"] is INVALID:
        # Keep the entries that are fine, so one bad entry does not make
        # every card that names the set fail too.
        for set_name, entries in raw_sets.items():
            if isinstance(entries, list):
                good = [ENTRY.checked(e, ("sets", set_name, i), Checker(doc, [], ck.sets, ck.find_file)) for i, e in enumerate(entries)]
                sets[set_name] = tuple(ENTRY.build(e, set_name=set_name) for e in good if e is not INVALID)
                named: set[str] = {e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}
                missing = sorted(named - {x.id for x in sets[set_name]})
                sets[set_name] += tuple(Entry(set_name, i, i, None, None, None) for i in missing)
    elif top["sets"] is not INVALID:
        for set_name, entries in got(top, "sets", dict).items():
            _unique([e["id"] for e in entries], ("sets", set_name), "id", doc, diagnostics)
            sets[set_name] = tuple(ENTRY.build(e, set_name=set_name) for e in entries)
    return sets


def _components(
    game_dir: Path, shared: tuple[Path, ...], doc: YamlDoc, ck: Checker, sizes: dict[str, tuple[float, float]], sets: dict[str, tuple[Entry, ...]],
    layouts: dict[str, SheetLayout], diagnostics: list[Diagnostic],
) -> list[Component]:
    """Every component that checks out, its cards read from its cards file."""
    components: list[Component] = []
    raw_components = doc.data.get("components") if isinstance(doc.data, dict) else None
    if isinstance(raw_components, list):
        record = component_record(sizes)
        ids = []
        for index, raw in enumerate(raw_components):
            path = ("components", index)
            checked = record.check_fields(raw, path, ck)
            if isinstance(raw, dict):
                ids.append(raw.get("id"))
            if checked is INVALID:
                continue
            component = _component(game_dir, shared, doc, checked, path, ck, sets, layouts, components)
            if component is not None:
                components.append(component)
        _unique(ids, ("components",), "id", doc, diagnostics)
    return components


def _game(
    game_dir: Path, shared: tuple[Path, ...], doc: YamlDoc, top: dict[str, object], sets: dict[str, tuple[Entry, ...]], components: list[Component],
    layouts: dict[str, SheetLayout], diagnostics: list[Diagnostic],
) -> Game:
    given = got(top, "players", dict)
    players = (got(given, "min", int), got(given, "max", int))
    if players[0] > players[1]:
        diagnostics.append(doc.error(("players",), f"min {players[0]} is more than max {players[1]}"))
    return GAME.build(
        top,
        root=game_dir,
        shared=shared,
        players=players,
        sets=MappingProxyType(sets),
        components=tuple(components),
        source=doc.source(()),
        where=MappingProxyType({dotted(path): doc.source(path) for path in doc.marks}),
        engine=_engine(doc, top["engine"], diagnostics),
        prepare=tuple(_preparation(doc, p, i, components, diagnostics) for i, p in enumerate(got(top, "prepare", tuple))),
        documents=tuple(
            DOCUMENT.build(d, template=template_name(got(d, "template", Path), game_dir, shared)) for d in got(top, "documents", tuple)
        ),
        boxes=tuck_boxes(got(top, "boxes", tuple), components, doc, diagnostics, lambda found: template_name(found, game_dir, shared)),
        layouts=MappingProxyType(layouts),
        palette=MappingProxyType(
            {name: SWATCH.build(c, name=name, screen=got(c, "screen", str).lower()) for name, c in got(top, "palette", dict).items()}
        ),
    )


def _preparation(doc: YamlDoc, p: Mapping[str, object], index: int, components: list[Component], diagnostics: list[Diagnostic]) -> Preparation:
    """One ``prepare:`` entry, its count worked out from the components it names."""
    count = p["count"]
    if isinstance(count, dict):
        copies = {c.id: sum(card.copies for card in c.cards) for c in components}
        for j, name in enumerate(count["copies_of"]):
            if name not in copies:
                diagnostics.append(doc.error(("prepare", index, "count", "copies_of", j),
                                             f"no component {name!r}; expected one of {', '.join(copies) or 'none'}"))
        count = sum(copies.get(name, 0) for name in count["copies_of"])
    return PREPARE.build(p, count=count)


def _engine(doc: YamlDoc, checked: object, diagnostics: list[Diagnostic]) -> EngineSpec | None:
    if not isinstance(checked, dict):  # None: no engine (the keys are checked by now)
        return None
    if (checked["module"] is None) == (checked["plugin"] is None):
        diagnostics.append(doc.error(("engine",), "expected exactly one of module (a folder in the game) or plugin (an installed engine)"))
    variants = {
        name: VARIANT.build(v, name=name, options=MappingProxyType(_options(v)))
        for name, v in (checked["variants"] or {}).items()
    }
    return ENGINE.build(checked, options=MappingProxyType(_options(checked)), variants=MappingProxyType(variants))


def _options(checked: Mapping[str, object]) -> dict[str, object]:
    """An engine's or a variant's ``options`` (checked: a mapping, or None)."""
    options = checked["options"]
    return dict(options) if isinstance(options, dict) else {}


def _at(source: Source) -> str:
    """``line 12``, or the cell ``Traits!A3`` of a spreadsheet."""
    return f"line {source.line}" if source.sheet is None else source.place


def _unique(ids: list[object], path: KeyPath, key: str, doc: YamlDoc, diagnostics: list[Diagnostic]) -> None:
    seen: dict[str, int] = {}
    for index, value in enumerate(ids):
        if not isinstance(value, str):
            continue
        if value in seen:
            first = doc.source((*path, seen[value], key))
            diagnostics.append(
                doc.error((*path, index, key), f"duplicate {key} {value!r} (first used at {_at(first)}); expected each {key} once")
            )
        else:
            seen[value] = index


def _component(
    game_dir: Path,
    shared: tuple[Path, ...],
    doc: YamlDoc,
    c: dict[str, object],
    path: KeyPath,
    ck: Checker,
    sets: dict[str, tuple[Entry, ...]],
    layouts: dict[str, SheetLayout],
    before: Sequence[Component] = (),
) -> Component | None:
    fields = declared_fields(got(c, "fields", dict), (*path, "fields"), ck) if c["fields"] is not INVALID else None
    source = doc.source(path)
    cards: tuple[Card, ...] = ()
    net = _net_size(c, path, ck)
    given = [key for key in _SOURCES if c[key] is not None]
    sources = "'cards' (a cards file), 'each' (a set name), 'denominations' (a rules table) or 'faces_of' (a net component)"
    if len(given) > 1:
        ck.error(path, f"give one of {sources}; {' and '.join(given)} are given, not both")
    elif not given:
        ck.error(path, f"missing {sources}")
    elif c["faces_of"] not in (None, INVALID):
        cards = face_cards(got(c, "faces_of", str), (*path, "faces_of"), ck, before)
    elif c["denominations"] not in (None, INVALID):
        cards = denomination_cards(got(c, "denominations", str), (*path, "denominations"), ck, source)
    elif c["each"] is not None and c["each"] is not INVALID:
        if c["each"] not in sets:
            ck.error((*path, "each"), f"unknown set {c['each']!r}; expected one of {', '.join(sorted(sets)) or 'none'}")
        elif c["copies"] is not INVALID:
            copies = got(c, "copies", int)
            cards = tuple(Card(e.id, e.name, copies, MappingProxyType({}), source, e) for e in sets[got(c, "each", str)])
    elif c["cards"] not in (None, INVALID) and fields is not None and c["copies"] is not INVALID:
        sheet = c["sheet"] if isinstance(c["sheet"], str) else None
        cards = _cards(got(c, "cards", Path), fields, got(c, "copies", int), ck, sheet, (*path, "sheet"))
    layout = None
    per_paper: dict[str, str] = {}
    chosen, size = c["layout"], c["size"]
    if chosen is not INVALID and isinstance(size, dict):  # by now a size, or INVALID
        default = "poker-9up" if size["name"] == "poker" else "grid"
        if isinstance(chosen, dict):
            per_paper = dict(chosen)
            layout = default
        else:
            layout = chosen if isinstance(chosen, str) and chosen else default
        for where, name in [((*path, "layout"), layout)] + [((*path, "layout", p), n) for p, n in per_paper.items()]:
            if name not in layouts:
                ck.error(where, f"unknown sheet layout {name!r}; expected one of {', '.join(sorted(layouts))}")
                layout = None
    if layout is None or any(v is INVALID for v in c.values()) or not isinstance(size, dict):
        return None
    component = COMPONENT.build(
        c,
        size=Size(**size),
        layout=layout,
        front=template_name(got(c, "front", Path), game_dir, shared),
        back=template_name(got(c, "back", Path), game_dir, shared) if c["back"] else None,
        cards=cards,
        source=source,
        paper_layouts=per_paper,
        card_record=card_record(fields, got(c, "copies", int)) if fields is not None and c["cards"] is not None else None,
        net=net,
    )
    if net is not None:
        check_faces(component, path, ck)
    return component


_SOURCES = ("cards", "each", "denominations", "faces_of")
"""Where a component's cards come from: exactly one is given."""


def _net_size(c: dict[str, object], path: KeyPath, ck: Checker) -> DieNet | None:
    """A net component's net, with ``c["size"]`` set to the piece it needs (no
    bleed: the net draws its own cut lines); a missing size is an error."""
    if c["net"] is None:
        if c["size"] is None:
            ck.error(path, "missing 'size' (a size name or {width, height})")
            c["size"] = INVALID
        return None
    if c["net"] is INVALID:
        return None
    found = die_net(c, path, ck)
    if found is None:
        c["size"] = INVALID
        return None
    c["size"] = found[1]
    c["bleed"] = c["safe"] = 0.0
    return found[0]


MAX_PIECES = 20_000
"""Pieces (card copies over every component) one game may print: each copy
is a placement on a sheet, and 20,000 is over 2,000 home sheets."""


def _over_budget(components: Sequence[Component]) -> list[Diagnostic]:
    """An error at the card whose copies take the game past :data:`MAX_PIECES`."""
    pieces = 0
    for component in components:
        for card in component.cards:
            pieces += card.copies
            if pieces > MAX_PIECES:
                message = (f"copies: {card.copies} takes the game past {MAX_PIECES:,} pieces in all "
                           f"(component {component.id!r}, card {card.id!r}); expected fewer copies")
                return [Diagnostic(card.source, "copies", message)]
    return []


def _cards(
    file: Path, fields: tuple[Field, ...], copies: int, parent: Checker, sheet: str | None = None, sheet_path: KeyPath = ()
) -> tuple[Card, ...]:
    """The cards of a cards file: YAML, or a spreadsheet (:mod:`pnp.loading.sheets`)."""
    if sheet is not None and not is_sheet(file):
        parent.error(sheet_path, f"'sheet' names a sheet of a workbook, but {file.name} is not one; leave it out")
        return ()
    return read_cards(file, card_record(fields, copies), parent, sheet)


def read_cards(file: Path, record: Record, parent: Checker, sheet: str | None = None) -> tuple[Card, ...]:
    """Read and check the cards of ``file`` against ``record`` (problems go to
    ``parent``'s diagnostics): YAML ``{cards: [...]}`` or a spreadsheet."""
    try:
        if is_sheet(file):
            doc, problems = load_sheet(file, record, sheet)
            parent.diagnostics.extend(problems)
        else:
            doc = load_yaml(file)
    except InputError as exc:
        parent.diagnostics.extend(exc.diagnostics)
        return ()
    ck = Checker(doc, parent.diagnostics, parent.sets, parent.find_file)
    top = CARDS_FILE.check(doc.data, (), ck)
    if top is INVALID:
        return ()
    raw_cards = top["cards"]
    if not isinstance(raw_cards, list):
        ck.error(("cards",), f"expected a list of cards, found {type(raw_cards).__name__}")
        return ()
    cards = []
    for index, raw in enumerate(raw_cards):
        checked = record.check(raw, ("cards", index), ck)
        if checked is INVALID:
            continue
        extra = {k: v for k, v in checked.items() if k not in ("id", "title", "copies")}
        card_id, title, copies = got(checked, "id", str), got(checked, "title", str), got(checked, "copies", int)
        cards.append(Card(card_id, title, copies, MappingProxyType(extra), doc.source(("cards", index))))
    _unique([c.get("id") if isinstance(c, dict) else None for c in raw_cards], ("cards",), "id", doc, parent.diagnostics)
    return tuple(cards)

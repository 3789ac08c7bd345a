"""A component's cards file written in the other form: a YAML cards file as a
spreadsheet (``.csv``, ``.tsv``, ``.xlsx``), or a spreadsheet as YAML, so a deck
moves between the two without retyping.

Columns follow :mod:`pnp.loading.sheets`: ``id, title, copies``, then the
component's fields in their declared order, a map's or record's values as
``field.key`` columns, a list of plain values in one cell (``a; b``), other
lists as ``field.1.key`` columns. What is written is read back and checked
against the cards it came from; a card that would not come back the same is
an error and nothing is written.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import yaml

from pnp.errors import Diagnostic, InputError, Source, UsageError
from pnp.words import listed, number
from pnp.schema.scalars import Boolean, Integer, Number
from pnp.loading.sheetfiles import TEXT_SUFFIXES, is_sheet
from pnp.loading.sheets import LIST_SEPARATOR, leaf_spec, load_sheet
from pnp.schema.spec import Checker, Record
from pnp.loading.yamlsrc import Document, KeyPath, load_yaml
from pnp.model import Component, Game

WRITES = (*TEXT_SUFFIXES, ".xlsx", ".yaml", ".yml")


def _card_maps(data: object) -> list[tuple[int, dict[str, object]]]:
    """The cards of a cards file's data with their indexes (the game loaded, so each is a mapping)."""
    cards = data.get("cards") if isinstance(data, dict) else None
    return [(i, card) for i, card in enumerate(cards) if isinstance(card, dict)] if isinstance(cards, list) else []


def raw_cards(component: Component) -> list[dict[str, object]]:
    """The component's cards as written in its cards file (before defaults and
    conversions), numbers kept as written where a text field holds them."""
    file, record = component.cards_file, component.card_record
    if file is None or record is None:
        raise UsageError(f"component {component.id!r} makes its cards from a set ('each'); it has no cards file to convert")
    if is_sheet(file):
        return [card for _, card in _card_maps(load_sheet(file, record, component.sheet)[0].data)]
    doc = load_yaml(file)

    def as_written(value: object, path: KeyPath) -> object:
        if isinstance(value, dict):
            return {k: as_written(v, (*path, k)) for k, v in value.items()}
        if isinstance(value, list):
            return [as_written(v, (*path, i)) for i, v in enumerate(value)]
        spec = leaf_spec(record, path[2:])
        if path in doc.raw and not isinstance(spec, (Integer, Number, Boolean)):
            return doc.raw[path]
        return value

    return [{k: as_written(v, ("cards", i, k)) for k, v in card.items()} for i, card in _card_maps(doc.data)]


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def _one_cell(items: Sequence[object]) -> bool:
    """A list of plain values that reads back from one ``a; b`` cell."""
    return all(
        not isinstance(v, (dict, list)) and _cell(v) == _cell(v).strip() and _cell(v) and LIST_SEPARATOR not in _cell(v)
        for v in items
    )


def _flat(value: object, key: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flat(v, (*key, k))
    elif isinstance(value, list):
        if value and _one_cell(value):
            yield key, f"{LIST_SEPARATOR} ".join(_cell(v) for v in value)
        else:
            for i, v in enumerate(value):
                yield from _flat(v, (*key, i))
    else:
        yield key, _cell(value)


def _header(key: KeyPath) -> str:
    return ".".join(str(p + 1) if isinstance(p, int) else p for p in key)


def columns(cards: Sequence[Mapping[str, object]], record: Record) -> tuple[list[KeyPath], list[list[str]]]:
    """Each column's key path, in the record's order, and each card's cells under them."""
    order = {f.name: i for i, f in enumerate(record.fields)}
    found: dict[KeyPath, None] = {}
    rows = []
    for card in cards:
        flat = dict(_flat(dict(card), ()))
        found.update(dict.fromkeys(flat))
        rows.append(flat)
    keys = sorted(found, key=lambda k: order.get(str(k[0]), len(order)))
    return keys, [[row.get(k, "") for k in keys] for row in rows]


def table(cards: Sequence[Mapping[str, object]], record: Record) -> list[list[str]]:
    """The cards as rows under a header row, columns in the record's order."""
    keys, rows = columns(cards, record)
    return [[_header(k) for k in keys]] + rows


def workbook(cards: Sequence[Mapping[str, object]], record: Record, sheet: str) -> bytes:
    """An .xlsx workbook of one sheet named ``sheet``: the header row (bold,
    kept in view) and a row per card, each cell typed as its field reads it (a
    number for a whole-number field, TRUE/FALSE for a yes-or-no one, text
    otherwise, never a formula), the same bytes every time."""
    import xlsxwriter

    keys, rows = columns(cards, record)
    specs = [leaf_spec(record, k) for k in keys]
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False})
    book.set_properties({"created": datetime.datetime(2000, 1, 1)})  # not the clock: the same cards give the same file
    page = book.add_worksheet(sheet[:31])  # Excel's longest sheet name
    page.write_row(0, 0, [_header(k) for k in keys], book.add_format({"bold": True}))
    page.freeze_panes(1, 0)
    for r, row in enumerate(rows, start=1):
        for c, (text, spec) in enumerate(zip(row, specs)):
            if not text:
                continue
            if isinstance(spec, Integer) and re.fullmatch(r"[-+]?\d{1,15}", text):
                page.write_number(r, c, int(text))
            elif isinstance(spec, Number) and re.fullmatch(r"[-+]?\d{1,15}(\.\d{1,15})?", text):
                page.write_number(r, c, float(text) if "." in text else int(text))
            elif isinstance(spec, Boolean) and text in ("true", "false"):
                page.write_boolean(r, c, text == "true")
            else:
                page.write_string(r, c, text)
    for c, key in enumerate(keys):
        page.set_column(c, c, min(60, max(8, len(_header(key)), *(len(row[c]) for row in rows)) + 1))
    book.close()
    return out.getvalue()


def render(cards: Sequence[Mapping[str, object]], record: Record, target: Path, sheet: str = "cards") -> bytes:
    """The bytes of ``target`` holding ``cards``: a CSV/TSV table, an .xlsx
    workbook (its one sheet named ``sheet``) or YAML."""
    suffix = target.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        out = io.StringIO()
        writer = csv.writer(out, delimiter=TEXT_SUFFIXES[suffix], lineterminator="\n")
        writer.writerows(table(cards, record))
        return out.getvalue().encode("utf-8-sig")  # the mark tells Excel the text is UTF-8 (else "fiancé" opens as "fiancÃ©")
    if suffix == ".xlsx":
        return workbook(cards, record, sheet)
    if suffix in (".yaml", ".yml"):
        text = yaml.safe_dump({"cards": cards}, sort_keys=False, allow_unicode=True, width=100_000, default_flow_style=None)
        return text.encode("utf-8")
    raise UsageError(f"--to {target.name}: expected a file ending {', '.join(WRITES)}")


def convert(game: Game, component_id: str, target: Path, force: bool = False) -> int:
    """Write ``component_id``'s cards to ``target`` and prove they read back
    the same; an existing ``target`` only with ``force``. Returns how many
    cards were written."""
    from pnp.commit import write_atomic
    from pnp.loading.loader import file_finder, read_cards

    component = next((c for c in game.components if c.id == component_id), None)
    if component is None:
        raise UsageError(f"no component {component_id!r}; {game.id} has {', '.join(c.id for c in game.components)}")
    if component.cards_file is not None and target.resolve() == component.cards_file.resolve():
        raise UsageError(f"--to {target}: that is the file the cards are read from; name another file")
    if target.exists() and not force:
        raise UsageError(f"--to {target}: the file exists (another deck's cards?); name a new file, or add --force to overwrite it")
    record = component.card_record
    assert record is not None  # a component with a cards file (raw_cards refused the rest)
    data = render(raw_cards(component), record, target, component.id)
    diagnostics: list[Diagnostic] = []
    with tempfile.TemporaryDirectory(prefix="pnp-cards-") as scratch:
        staged = Path(scratch) / target.name.lower()
        staged.write_bytes(data)
        sets = {name: frozenset(e.id for e in entries) for name, entries in game.sets.items()}
        ck = Checker(Document(target, None, {}), diagnostics, {"palette": frozenset(game.palette), **sets}, file_finder(game.root, game.shared))
        back = read_cards(staged, record, ck)
    problems = [d for d in diagnostics if d.level.value == "error"]
    differ = [c.id for c, b in zip(component.cards, back) if (c.id, c.title, c.copies, dict(c.fields)) != (b.id, b.title, b.copies, dict(b.fields))]
    if problems or len(back) != len(component.cards) or differ:
        why = f"{number(len(differ), 'card')} {listed(differ)} would read back differently" if differ else "it does not read back as the same cards"
        raise InputError([Diagnostic(Source(target), "", f"not written: {why}"), *problems])
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(data, target)
    return len(back)

"""A component's cards file written in the other form: a YAML cards file as a
spreadsheet (``.csv``, ``.tsv``), or a spreadsheet as YAML, so a deck moves
between the two without retyping.

Columns follow :mod:`pnp.loading.sheets`: ``id, title, copies``, then the
component's fields in their declared order, a map's or record's values as
``field.key`` columns, a list of plain values in one cell (``a; b``), other
lists as ``field.1.key`` columns. What is written is read back and checked
against the cards it came from; a card that would not come back the same is
an error and nothing is written.
"""

from __future__ import annotations

import csv
import io
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import Diagnostic, InputError, Source, UsageError
from pnp.words import listed
from pnp.loading.scalars import Boolean, Integer
from pnp.loading.sheets import LIST_SEPARATOR, TEXT_SUFFIXES, is_sheet, leaf_spec, load_sheet
from pnp.loading.spec import Checker, Record
from pnp.loading.yamlsrc import Document, KeyPath, load_yaml
from pnp.model import Component, Game

WRITES = (*TEXT_SUFFIXES, ".yaml", ".yml")


def raw_cards(component: Component) -> list[dict[str, Any]]:
    """The component's cards as written in its cards file (before defaults and
    conversions), numbers kept as written where a text field holds them."""
    file, record = component.cards_file, component.card_record
    if file is None or record is None:
        raise UsageError(f"component {component.id!r} makes its cards from a set ('each'); it has no cards file to convert")
    if is_sheet(file):
        return list(load_sheet(file, record, component.sheet)[0].data["cards"])
    doc = load_yaml(file)
    cards = doc.data["cards"]

    def as_written(value: Any, path: KeyPath) -> Any:
        if isinstance(value, dict):
            return {k: as_written(v, (*path, k)) for k, v in value.items()}
        if isinstance(value, list):
            return [as_written(v, (*path, i)) for i, v in enumerate(value)]
        spec = leaf_spec(record, path[2:])
        if path in doc.raw and not isinstance(spec, (Integer, Boolean)):
            return doc.raw[path]
        return value

    return [as_written(card, ("cards", i)) for i, card in enumerate(cards)]


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def _one_cell(items: Sequence[Any]) -> bool:
    """A list of plain values that reads back from one ``a; b`` cell."""
    return all(
        not isinstance(v, (dict, list)) and _cell(v) == _cell(v).strip() and _cell(v) and LIST_SEPARATOR not in _cell(v)
        for v in items
    )


def _flat(value: Any, key: KeyPath) -> Iterator[tuple[KeyPath, str]]:
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


def table(cards: Sequence[Mapping[str, Any]], record: Record) -> list[list[str]]:
    """The cards as rows under a header row, columns in the record's order."""
    order = {f.name: i for i, f in enumerate(record.fields)}
    columns: dict[KeyPath, None] = {}
    rows = []
    for card in cards:
        flat = dict(_flat(dict(card), ()))
        columns.update(dict.fromkeys(flat))
        rows.append(flat)
    keys = sorted(columns, key=lambda k: order.get(str(k[0]), len(order)))
    return [[_header(k) for k in keys]] + [[row.get(k, "") for k in keys] for row in rows]


def render(cards: list[dict[str, Any]], record: Record, target: Path) -> bytes:
    """The bytes of ``target`` holding ``cards``: a CSV/TSV table or YAML."""
    suffix = target.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        out = io.StringIO()
        writer = csv.writer(out, delimiter=TEXT_SUFFIXES[suffix], lineterminator="\n")
        writer.writerows(table(cards, record))
        return out.getvalue().encode("utf-8-sig")  # the mark tells Excel the text is UTF-8 (else "fiancé" opens as "fiancÃ©")
    if suffix in (".yaml", ".yml"):
        text = yaml.safe_dump({"cards": cards}, sort_keys=False, allow_unicode=True, width=100_000, default_flow_style=None)
        return text.encode("utf-8")
    raise UsageError(f"--to {target.name}: expected a file ending {', '.join(WRITES)}")


def convert(game: Game, component_id: str, target: Path) -> int:
    """Write ``component_id``'s cards to ``target`` and prove they read back
    the same. Returns how many cards were written."""
    from pnp.commit import write_atomic
    from pnp.loading.loader import file_finder, read_cards

    component = next((c for c in game.components if c.id == component_id), None)
    if component is None:
        raise UsageError(f"no component {component_id!r}; {game.id} has {', '.join(c.id for c in game.components)}")
    if component.cards_file is not None and target.resolve() == component.cards_file.resolve():
        raise UsageError(f"--to {target}: that is the file the cards are read from; name another file")
    record = component.card_record
    data = render(raw_cards(component), record, target)
    diagnostics: list[Diagnostic] = []
    with tempfile.TemporaryDirectory(prefix="pnp-cards-") as scratch:
        staged = Path(scratch) / target.name.lower()
        staged.write_bytes(data)
        sets = {name: frozenset(e.id for e in entries) for name, entries in game.sets.items()}
        ck = Checker(Document(target, None, {}), diagnostics, {"palette": frozenset(game.palette), **sets}, file_finder(game.root))
        back = read_cards(staged, record, ck)
    problems = [d for d in diagnostics if d.level.value == "error"]
    differ = [c.id for c, b in zip(component.cards, back) if (c.id, c.title, c.copies, dict(c.fields)) != (b.id, b.title, b.copies, dict(b.fields))]
    if problems or len(back) != len(component.cards) or differ:
        why = f"{'card' if len(differ) == 1 else 'cards'} {listed(differ)} would read back differently" if differ else "it does not read back as the same cards"
        raise InputError([Diagnostic(Source(target), "", f"not written: {why}"), *problems])
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(data, target)
    return len(back)

"""Card data from a spreadsheet: ``.csv``, ``.tsv``, ``.xlsx`` or ``.ods``.

The first non-blank row names the columns; each later row that is not blank
is a card. A column's header is the path to the value it holds, the way the
card would be written in YAML: ``title``, ``symbols.fortune`` (a map's key or
a record's field), ``steps.2`` (the second item of a list; a list of plain
values may also sit in one cell as ``a; b; c``). Cells are typed by the field
they fill, so ``2`` in a CSV is a whole number for an integer field and text
for a text field; a formula counts by the value the spreadsheet saved with it.

The result is a :class:`~pnp.loading.yamlsrc.Document` whose positions are
cells, so every error the schema finds names ``file:Sheet!C14``.

The cells come from :mod:`pnp.loading.sheetfiles` (a workbook or a text file
read, its sheet chosen, its merged ranges found).
"""

from __future__ import annotations

import csv
import datetime
import difflib
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from pnp.errors import Diagnostic, InputError, Source, column_letters
from pnp.schema.scalars import Boolean, Choice, Integer, Number, Text
from pnp.schema.spec import ListOf, MapOf, Record, Spec, Variant
from pnp.loading.sheetfiles import TEXT_SUFFIXES, read_rows, refuse
from pnp.loading.yamlsrc import MAX_NODES, Document, KeyPath

LIST_SEPARATOR = ";"


class _Date:
    """A date cell where something else belongs, as error messages show it."""

    def __init__(self, value: datetime.date | datetime.time | datetime.timedelta):
        self.value = value

    def __repr__(self) -> str:
        return f"a date or time ({self.value})"


def cell_name(sheet: str | None, row: int, col: int) -> str:
    """1-based row and column -> ``Sheet!C14`` (``C14`` in a text file)."""
    ref = f"{column_letters(col - 1)}{row}"
    return f"{sheet}!{ref}" if sheet else ref


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


_SEGMENT = re.compile(r"^[^.\s][^.]*$")


def _header_path(header: str) -> KeyPath | None:
    """``symbols.fortune`` -> ("symbols", "fortune"); ``steps.2`` -> ("steps", 1)."""
    parts: list[str | int] = []
    for segment in header.strip().split("."):
        segment = segment.strip()
        if not _SEGMENT.match(segment):
            return None
        if segment.isdigit():
            if int(segment) < 1:
                return None
            parts.append(int(segment) - 1)
        else:
            parts.append(segment)
    return tuple(parts)


def leaf_spec(spec: Spec[object], path: KeyPath) -> Spec[object] | None:
    """The spec of the value a column at ``path`` fills, or None when no field is there."""
    for part in path:
        if isinstance(spec, Record):
            if not isinstance(part, str) or part not in {f.name for f in spec.fields}:
                return None
            spec = spec.field(part).spec
        elif isinstance(spec, Variant):
            if part == spec.tag:
                return None if part != path[-1] else _TAG
            owners = [r for _, r in spec.variants if isinstance(part, str) and part in {f.name for f in r.fields}]
            if not owners:
                return None
            spec = owners[0].field(str(part)).spec
        elif isinstance(spec, MapOf):
            if not isinstance(part, str):
                return None
            spec = spec.value
        elif isinstance(spec, ListOf):
            if not isinstance(part, int):
                return None
            spec = spec.item
        else:
            return None
    return spec


class _Tag(Spec[str]):
    def expected(self) -> str:
        return "a variant's name"


_TAG = _Tag()


def typed(value: object, spec: Spec[object]) -> object:
    """A cell's value as the YAML value the field expects, when it reads as one;
    else as found, for the schema to report."""
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        return _Date(value)
    if isinstance(spec, ListOf) and not isinstance(spec.item, (Record, Variant, ListOf, MapOf)):
        if isinstance(value, str):
            return [typed(v.strip(), spec.item) for v in value.split(LIST_SEPARATOR)]
        return [typed(value, spec.item)]
    if isinstance(spec, Integer):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+\s*", value):
            return int(value)
        return value
    if isinstance(spec, Number):
        if isinstance(value, str) and re.fullmatch(r"\s*[-+]?(\d+\.?\d*|\.\d+)\s*", value):
            return float(value) if "." in value else int(value)
        return value
    if isinstance(spec, Boolean):
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        return value
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def _set(target: dict[str | int, object], path: KeyPath, value: object) -> None:
    """Put ``value`` at ``path`` in nested dicts (list indexes as dict keys, made lists later)."""
    for part in path[:-1]:
        inner = target.setdefault(part, {})
        if not isinstance(inner, dict):
            raise TypeError(f"{part!r} holds {inner!r}, not the mapping {path!r} runs through")
        target = inner
    target[path[-1]] = value


def _lists(value: object, spec: Spec[object]) -> object:
    """Nested dicts back to the YAML shape: a list's items in index order."""
    if isinstance(spec, ListOf) and isinstance(value, dict):
        return [_lists(value[k], spec.item) for k in sorted(value)]
    if isinstance(value, dict):
        return {k: _lists(v, leaf_spec(spec, (k,)) or spec) for k, v in value.items()}
    return value


def load_sheet(path: Path, record: Record, sheet: str | None = None, within: Path | None = None) -> tuple[Document, list[Diagnostic]]:
    """Read ``path`` (sheet ``sheet`` of a workbook, else its first) as a cards
    file ``{cards: [...]}`` to be checked against ``record``, with every value's
    cell, and the problems of its headers and cells (the cards are still
    checked, so every error is reported at once). Raises :class:`InputError`
    when the file cannot be read as a sheet at all."""
    rows, name, merged = read_rows(path, sheet, within)
    label = name if name is not None else ""
    problems: list[Diagnostic] = []

    def problem(row: int, col: int, key: str, message: str) -> None:
        problems.append(Diagnostic(Source(path, row + 1, col + 1, label), key, message))

    if sum(len(r) for r in rows) > MAX_NODES:
        raise refuse(path, f"the sheet has more than {MAX_NODES} cells; expected at most {MAX_NODES}")
    for top, left, bottom, right in merged:
        problem(top, left, "", f"cells {cell_name('', top + 1, left + 1)}:{cell_name('', bottom + 1, right + 1)} are merged; expected one value in each cell (unmerge them)")
    header_row = next((i for i, r in enumerate(rows) if not all(_blank(v) for v in r)), None)
    if header_row is None:
        raise refuse(path, "the sheet is empty; expected a header row naming the card fields (id, title, ...)", label, 1, 1)
    misread = _misread(rows, header_row, record, path.suffix.lower())
    if misread is not None:
        raise refuse(path, misread, label, header_row + 1, 1)
    columns, missing = _columns(rows[header_row], header_row, record, problem)
    if missing:  # each row would lack it too: the header's problems alone, not one more per row
        raise InputError(problems)
    cards: list[object] = []
    marks: dict[KeyPath, tuple[int, int]] = {("cards",): (header_row + 1, 1)}
    for r in range(header_row + 1, len(rows)):
        row = rows[r]
        if all(_blank(v) for v in row):
            continue  # a blank row ends nothing: the cards below it are read too
        index = len(cards)
        card: dict[str | int, object] = {}
        marks[("cards", index)] = (r + 1, 1)
        for c, (key, spec) in columns.items():
            value = row[c] if c < len(row) else ""
            marks[("cards", index, *key)] = (r + 1, c + 1)
            for depth in range(1, len(key)):
                marks.setdefault(("cards", index, *key[:depth]), (r + 1, c + 1))
            if not _blank(value):
                _set(card, key, typed(value.strip() if isinstance(value, str) else value, spec))
        for f in record.fields:
            if f.required and f.name not in card and (empty := _empty(f.spec)) is not None:
                card[f.name] = empty  # a blank cell is the field's empty value where it allows one
        for c in range(len(row)):
            if c not in columns and c not in _ignored(rows[header_row]) and not _blank(row[c]):
                problem(r, c, "", "a value in a column without a header; expected every filled column to be named in the header row")
        cards.append(_lists(card, record))
    return Document(path, {"cards": cards}, marks, sheet=label), problems


def _empty(spec: Spec[object]) -> object:
    """The empty value of a field that allows one (``""``, an empty list or
    mapping), or None: a blank cell of a required field means that value."""
    if isinstance(spec, Text) and (spec.pattern is None or re.fullmatch(spec.pattern, "")):
        return ""
    if isinstance(spec, Choice) and "" in spec.choices:
        return ""
    if isinstance(spec, ListOf) and spec.min_length == 0:
        return []
    if isinstance(spec, MapOf) and spec.min_length == 0:
        return {}
    return None


def _ignored(header: Sequence[object]) -> set[int]:
    """Columns whose header is taken (known or reported), so their cells are not reported again."""
    return {c for c, v in enumerate(header) if not _blank(v)}


_SEPARATORS = {",": "commas", "\t": "tabs", ";": "semicolons"}
_TITLE_SEARCH = 20
"""How many rows below a header that names no column are searched for the real header."""


def _known(record: Record, value: object) -> bool:
    """Whether ``value`` is a column header ``record`` takes."""
    key = None if _blank(value) else _header_path(str(value))
    return key is not None and leaf_spec(record, key) is not None


def _misread(rows: Sequence[Sequence[object]], header_row: int, record: Record, suffix: str) -> str | None:
    """Why the header row cannot be the header, when one cause would otherwise
    show as an error in every cell: a text file separated by another
    character than its name says, or a title row above the header."""
    header = rows[header_row]
    if any(_known(record, v) for v in header):
        return None
    if suffix in TEXT_SUFFIXES and (separated := _separator(header, suffix, record)) is not None:
        return separated
    for r in range(header_row + 1, min(len(rows), header_row + 1 + _TITLE_SEARCH)):
        names = [str(v).strip() for v in rows[r] if _known(record, v)]
        if names:
            shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
            return (f"row {header_row + 1} looks like a title, not the header: the column names ({shown}) are in "
                    f"row {r + 1}; the header must be the first row that is not blank, so delete the rows above row {r + 1}")
    return None


def _separator(header: Sequence[object], suffix: str, record: Record) -> str | None:
    """When a text file's header line splits into known columns on another
    separator than its name's, which one, and what to do."""
    ours = TEXT_SUFFIXES[suffix]
    line = ours.join("" if v is None else str(v) for v in header)  # the header line as the file holds it
    for other, name in _SEPARATORS.items():
        cells = next(csv.reader([line], delimiter=other))
        if other != ours and len(cells) > len(header) and any(_known(record, v.strip()) for v in cells):
            fix = f"save it again with {_SEPARATORS[ours]} between the fields (a spreadsheet program's export asks which), or as .xlsx/.ods"
            renamed = next((s for s, d in TEXT_SUFFIXES.items() if d == other), None)
            return f"the fields are separated by {name}, not {_SEPARATORS[ours]} as a {suffix} file's are; " + (
                f"name it {renamed}, or {fix}" if renamed else fix)
    return None


def _columns(
    header: Sequence[object], row: int, record: Record, problem: Callable[[int, int, str, str], None]
) -> tuple[dict[int, tuple[KeyPath, Spec[object]]], bool]:
    """Each named column's key path and the spec of the values it holds, and
    whether a required column is missing; an unknown, repeated or malformed
    header, or a missing required column, is a problem."""
    columns: dict[int, tuple[KeyPath, Spec[object]]] = {}
    seen: dict[KeyPath, int] = {}
    unknown: dict[str, int] = {}
    known = ", ".join(_column_names(record))
    for c, raw in enumerate(header):
        if _blank(raw):
            continue
        text = str(raw).strip()
        key = _header_path(text)
        spec = leaf_spec(record, key) if key else None
        if key is None or spec is None:
            problem(row, c, "", f"unknown column {text!r}; expected one of {known}")
            unknown.setdefault(text, c)
            continue
        if key in seen:
            problem(row, c, "", f"column {text!r} appears twice (first in column {column_letters(seen[key])})")
            continue
        other = next((k for k in seen if k[: len(key)] == key or key[: len(k)] == k), None)
        if other is not None:  # symbols and symbols.sun: the whole and a part of one value
            problem(row, c, "", f"column {text!r} and column {str(header[seen[other]]).strip()!r} (column {column_letters(seen[other])}) "
                                "fill the same value; expected the value whole in one column or its parts in columns of their own")
            continue
        seen[key] = c
        columns[c] = (key, spec)
    named = {key[0] for key, _ in columns.values()}
    missing = [f for f in record.fields if f.required and f.name not in named]
    for f in missing:
        like = difflib.get_close_matches(f.name, list(unknown), n=1)
        meant = f" (is {like[0]!r} in column {column_letters(unknown[like[0]])} meant to be it?)" if like else ""
        problem(row, 0, "", f"no column {f.name!r}; every card needs it: {f.doc.rstrip('.')}. "
                            f"Add it to the header (row {row + 1}){meant}; the rows are read once it is there")
    return columns, bool(missing)


def _column_names(record: Record) -> list[str]:
    """The headers a card record takes, as the docs write them."""
    out = []
    for f in record.fields:
        spec = f.spec
        if isinstance(spec, MapOf):
            out.append(f"{f.name}.<key>")
        elif isinstance(spec, ListOf):
            out.append(f"{f.name} (a; b) or {f.name}.1, {f.name}.2, ...")
        elif isinstance(spec, (Record, Variant)):
            out.append(f"{f.name}.<field>")
        else:
            out.append(f.name)
    return out

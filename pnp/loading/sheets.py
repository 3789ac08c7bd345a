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

Workbooks are read with python-calamine (Rust's calamine: fast, reads the
cached value of every formula, and parses xlsx, xls and ods alike); text
files with the standard library's csv module.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, InputError, Source, column_letters
from pnp.loading.scalars import Boolean, Choice, Integer, Number, Text
from pnp.loading.spec import ListOf, MapOf, Record, Spec, Variant
from pnp.loading.yamlsrc import MAX_NODES, Document, KeyPath, read_text

TEXT_SUFFIXES = {".csv": ",", ".tsv": "\t"}
BOOK_SUFFIXES = (".xlsx", ".ods")
SUFFIXES = (*TEXT_SUFFIXES, *BOOK_SUFFIXES)

MAX_BOOK_BYTES = 16 * 1024 * 1024
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
"""A workbook is a zip: what its parts may add up to once unpacked (a zip bomb is refused unread)."""

LIST_SEPARATOR = ";"


def is_sheet(path: Path) -> bool:
    return path.suffix.lower() in SUFFIXES


class _Date:
    """A date cell where something else belongs, as error messages show it."""

    def __init__(self, value: datetime.date | datetime.time | datetime.timedelta):
        self.value = value

    def __repr__(self) -> str:
        return f"a date or time ({self.value})"


def _refuse(path: Path, message: str, sheet: str | None = None, row: int = 0, col: int = 0) -> InputError:
    return InputError([Diagnostic(Source(path, row, col, sheet), "", message)])


def _rows(path: Path, sheet: str | None, within: Path | None) -> tuple[list[list[Any]], str | None, list[tuple[int, int, int, int]]]:
    """The cells of the chosen sheet (rows of values, ``""`` for empty), the
    sheet's name (None for a text file) and its merged ranges (0-based)."""
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        if sheet is not None:
            raise _refuse(path, f"sheet: {sheet!r} was given, but a {suffix} file has no sheets; leave 'sheet' out")
        # A spreadsheet's plain "CSV" is often the machine's old code page.
        text = read_text(path, within, 'UTF-8 text (in a spreadsheet program, save it as "CSV UTF-8" or as .xlsx/.ods)').removeprefix("\ufeff")
        return [list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=TEXT_SUFFIXES[suffix])], None, []
    data = _book_bytes(path, within)
    import python_calamine

    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
        if not names:
            raise _refuse(path, "the workbook has no sheets")
        name = names[0] if sheet is None else sheet
        if name not in names:
            raise _refuse(path, f"no sheet named {sheet!r}; the workbook has {', '.join(repr(n) for n in names)}")
        found = book.get_sheet_by_name(name)
        rows = found.to_python(skip_empty_area=False)
        merged = [(a[0], a[1], b[0], b[1]) for a, b in (found.merged_cell_ranges or [])]
    except python_calamine.CalamineError as exc:
        raise _refuse(path, f"cannot read this {suffix} file ({exc}); expected a workbook saved by a spreadsheet program") from None
    return rows, name, merged


def _book_bytes(path: Path, within: Path | None) -> bytes:
    """The workbook's bytes, refused when it lies outside the folder, is too
    big, is no zip, or would unpack to more than :data:`MAX_UNPACKED_BYTES`."""
    from pnp.paths import confined

    if within is not None and (confined(path, [within]) is None or (path.exists() and not path.is_file())):
        raise _refuse(path, f"this file lies outside {within.name}/ (a link?) or is not a regular file; expected a file inside the folder")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _refuse(path, "file not found") from None
    except OSError as exc:
        raise _refuse(path, f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_BOOK_BYTES:
        raise _refuse(path, f"file is {len(data)} bytes; expected at most {MAX_BOOK_BYTES}")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            unpacked = sum(info.file_size for info in z.infolist())
    except zipfile.BadZipFile:
        raise _refuse(path, f"this is not a {path.suffix.lower()} workbook (it is no zip archive); expected a file saved by a spreadsheet program") from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise _refuse(path, f"the workbook unpacks to {unpacked} bytes; expected at most {MAX_UNPACKED_BYTES}")
    return data


def cell_name(sheet: str | None, row: int, col: int) -> str:
    """1-based row and column -> ``Sheet!C14`` (``C14`` in a text file)."""
    ref = f"{column_letters(col - 1)}{row}"
    return f"{sheet}!{ref}" if sheet else ref


def _blank(value: Any) -> bool:
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


def leaf_spec(spec: Spec, path: KeyPath) -> Spec | None:
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


class _Tag(Spec):
    def expected(self) -> str:
        return "a variant's name"


_TAG = _Tag()


def typed(value: Any, spec: Spec) -> Any:
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


def _set(target: dict[Any, Any], path: KeyPath, value: Any) -> None:
    """Put ``value`` at ``path`` in nested dicts (list indexes as dict keys, made lists later)."""
    for part in path[:-1]:
        target = target.setdefault(part, {})
    target[path[-1]] = value


def _lists(value: Any, spec: Spec) -> Any:
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
    rows, name, merged = _rows(path, sheet, within)
    label = name if name is not None else ""
    problems: list[Diagnostic] = []

    def problem(row: int, col: int, key: str, message: str) -> None:
        problems.append(Diagnostic(Source(path, row + 1, col + 1, label), key, message))

    if sum(len(r) for r in rows) > MAX_NODES:
        raise _refuse(path, f"the sheet has more than {MAX_NODES} cells; expected at most {MAX_NODES}")
    for top, left, bottom, right in merged:
        problem(top, left, "", f"cells {cell_name('', top + 1, left + 1)}:{cell_name('', bottom + 1, right + 1)} are merged; expected one value in each cell (unmerge them)")
    header_row = next((i for i, r in enumerate(rows) if not all(_blank(v) for v in r)), None)
    if header_row is None:
        raise _refuse(path, "the sheet is empty; expected a header row naming the card fields (id, title, ...)", label, 1, 1)
    columns = _columns(rows[header_row], header_row, record, problem)
    cards: list[dict[Any, Any]] = []
    marks: dict[KeyPath, tuple[int, int]] = {("cards",): (header_row + 1, 1)}
    for r in range(header_row + 1, len(rows)):
        row = rows[r]
        if all(_blank(v) for v in row):
            continue  # a blank row ends nothing: the cards below it are read too
        index = len(cards)
        card: dict[Any, Any] = {}
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


def _empty(spec: Spec) -> Any:
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


def _ignored(header: Sequence[Any]) -> set[int]:
    """Columns whose header is taken (known or reported), so their cells are not reported again."""
    return {c for c, v in enumerate(header) if not _blank(v)}


def _columns(header: Sequence[Any], row: int, record: Record, problem: Any) -> dict[int, tuple[KeyPath, Spec]]:
    """Each named column's key path and the spec of the values it holds; an
    unknown, repeated or malformed header, or a missing required column, is a problem."""
    columns: dict[int, tuple[KeyPath, Spec]] = {}
    seen: dict[KeyPath, int] = {}
    known = ", ".join(_column_names(record))
    for c, raw in enumerate(header):
        if _blank(raw):
            continue
        text = str(raw).strip()
        key = _header_path(text)
        spec = leaf_spec(record, key) if key else None
        if key is None or spec is None:
            problem(row, c, "", f"unknown column {text!r}; expected one of {known}")
            continue
        if key in seen:
            problem(row, c, "", f"column {text!r} appears twice (first in column {column_letters(seen[key])})")
            continue
        seen[key] = c
        columns[c] = (key, spec)
    named = {key[0] for key, _ in columns.values()}
    for f in record.fields:
        if f.required and f.name not in named:
            problem(row, 0, "", f"no column {f.name!r}; every card needs it: {f.doc}")
    return columns


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

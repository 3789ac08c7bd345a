"""A spreadsheet file's cells: ``.csv`` and ``.tsv`` with the standard
library's csv module, ``.xlsx`` and ``.ods`` with python-calamine (Rust's
calamine: fast, reads the cached value of every formula, and parses xlsx,
xls and ods alike). A workbook is refused unread when it lies outside its
folder, is too big or would unpack too big (a zip bomb); an ``.ods``'s merged
ranges, which calamine does not give, are read from its ``content.xml``.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

from pnp.errors import Diagnostic, InputError, Source
from pnp.loading.yamlsrc import read_text

TEXT_SUFFIXES = {".csv": ",", ".tsv": "\t"}
BOOK_SUFFIXES = (".xlsx", ".ods")
SUFFIXES = (*TEXT_SUFFIXES, *BOOK_SUFFIXES)

MAX_BOOK_BYTES = 16 * 1024 * 1024
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
"""A workbook is a zip: what its parts may add up to once unpacked (a zip bomb is refused unread)."""

def is_sheet(path: Path) -> bool:
    return path.suffix.lower() in SUFFIXES


def refuse(path: Path, message: str, sheet: str | None = None, row: int = 0, col: int = 0) -> InputError:
    return InputError([Diagnostic(Source(path, row, col, sheet), "", message)])


def read_rows(path: Path, sheet: str | None, within: Path | None) -> tuple[Sequence[Sequence[object]], str | None, list[tuple[int, int, int, int]]]:
    """The cells of the chosen sheet (rows of values, ``""`` for empty), the
    sheet's name (None for a text file) and its merged ranges (0-based)."""
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        if sheet is not None:
            raise refuse(path, f"sheet: {sheet!r} was given, but a {suffix} file has no sheets; leave 'sheet' out")
        # A spreadsheet's plain "CSV" is often the machine's old code page.
        text = read_text(path, within, 'UTF-8 text (in a spreadsheet program, save it as "CSV UTF-8" or as .xlsx/.ods)').removeprefix("\ufeff")
        return [list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=TEXT_SUFFIXES[suffix])], None, []
    data = _book_bytes(path, within)
    import python_calamine

    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
        if not names:
            raise refuse(path, "the workbook has no sheets")
        name = names[0] if sheet is None else sheet
        if name not in names:
            raise refuse(path, f"no sheet named {sheet!r}; the workbook has {', '.join(repr(n) for n in names)}")
        found = book.get_sheet_by_name(name)
        rows = found.to_python(skip_empty_area=False)
        ranges = found.merged_cell_ranges
    except python_calamine.CalamineError as exc:
        raise refuse(path, f"cannot read this {suffix} file ({exc}); expected a workbook saved by a spreadsheet program") from None
    if ranges is None and suffix == ".ods":
        return rows, name, _ods_merged(data, name)  # calamine reads no merged ranges from an .ods
    return rows, name, [(a[0], a[1], b[0], b[1]) for a, b in (ranges or [])]


_ODS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"


def _ods_merged(data: bytes, sheet: str) -> list[tuple[int, int, int, int]]:
    """The merged ranges (0-based, top-left to bottom-right) of ``sheet`` in an
    .ods workbook, from its cells' ``table:number-columns-spanned`` and
    ``table:number-rows-spanned``, counting repeated rows and cells."""
    from xml.etree import ElementTree

    def count(element: ElementTree.Element, name: str) -> int:
        value = element.get(_ODS_TABLE + name, "1")
        return int(value) if value.isdigit() else 1

    cells = (_ODS_TABLE + "table-cell", _ODS_TABLE + "covered-table-cell")
    merged: list[tuple[int, int, int, int]] = []
    inside, row, col = False, 0, 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z, z.open("content.xml") as content:
            for event, element in ElementTree.iterparse(content, ("start", "end")):
                tag = element.tag
                if tag == _ODS_TABLE + "table":
                    if event == "end" and inside:
                        break
                    inside, row = element.get(_ODS_TABLE + "name") == sheet, 0
                elif inside and tag == _ODS_TABLE + "table-row":
                    if event == "start":
                        col = 0
                    else:
                        row += count(element, "number-rows-repeated")
                elif inside and event == "start" and tag in cells:
                    across, down = count(element, "number-columns-spanned"), count(element, "number-rows-spanned")
                    if across > 1 or down > 1:
                        merged.append((row, col, row + down - 1, col + across - 1))
                    col += count(element, "number-columns-repeated")
                if event == "end":
                    element.clear()
    except (KeyError, ElementTree.ParseError):
        return []  # calamine read the sheet; a part it did not need is no reason to refuse it
    return merged


def _book_bytes(path: Path, within: Path | None) -> bytes:
    """The workbook's bytes, refused when it lies outside the folder, is too
    big, is no zip, or would unpack to more than :data:`MAX_UNPACKED_BYTES`."""
    from pnp.paths import confined

    if within is not None and (confined(path, [within]) is None or (path.exists() and not path.is_file())):
        raise refuse(path, f"this file lies outside {within.name}/ (a link?) or is not a regular file; expected a file inside the folder")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise refuse(path, "file not found") from None
    except OSError as exc:
        raise refuse(path, f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_BOOK_BYTES:
        raise refuse(path, f"file is {len(data)} bytes; expected at most {MAX_BOOK_BYTES}")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            unpacked = sum(info.file_size for info in z.infolist())
    except zipfile.BadZipFile:
        raise refuse(path, f"this is not a {path.suffix.lower()} workbook (it is no zip archive); expected a file saved by a spreadsheet program") from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise refuse(path, f"the workbook unpacks to {unpacked} bytes; expected at most {MAX_UNPACKED_BYTES}")
    return data

"""Tiny .xlsx and .ods files written from scratch for the spreadsheet tests.

Written by hand (a few XML parts in a zip) rather than with a spreadsheet
library, so a test controls exactly what the file holds: a formula with its
cached value, a cell styled as a date, merged cells, several sheets.

A cell is ``None`` (empty), a ``str``, an ``int``/``float``, a ``bool``, a
:class:`Formula` (its text and the value a spreadsheet cached for it) or a
:class:`Date` (a day number styled as a date).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from pnp.errors import column_letters

Rows = list[list[Any]]


@dataclass(frozen=True)
class Formula:
    text: str
    cached: Any


@dataclass(frozen=True)
class Date:
    serial: int
    """Days since 1899-12-30, as Excel counts (46000 is 2025-12-09)."""


def _xlsx_cell(ref: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, Formula):
        cached = value.cached
        kind = ' t="str"' if isinstance(cached, str) else ' t="b"' if isinstance(cached, bool) else ""
        shown = int(cached) if isinstance(cached, bool) else cached
        return f'<c r="{ref}"{kind}><f>{escape(value.text)}</f><v>{escape(str(shown))}</v></c>'
    if isinstance(value, Date):
        return f'<c r="{ref}" s="1"><v>{value.serial}</v></c>'
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{escape(str(value))}</t></is></c>'


def _sheet_xml(rows: Rows, merged: list[str]) -> str:
    body = []
    for r, row in enumerate(rows, start=1):
        cells = "".join(_xlsx_cell(f"{column_letters(c)}{r}", v) for c, v in enumerate(row))
        body.append(f'<row r="{r}">{cells}</row>')
    merges = f'<mergeCells count="{len(merged)}">' + "".join(f'<mergeCell ref="{m}"/>' for m in merged) + "</mergeCells>" if merged else ""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<sheetData>{''.join(body)}</sheetData>{merges}</worksheet>"
    )


def xlsx(path: Path, sheets: dict[str, Rows], merged: dict[str, list[str]] | None = None) -> Path:
    """Write an .xlsx workbook with ``sheets`` (name -> rows), in order."""
    merged = merged or {}
    names = list(sheets)
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", (
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            + "".join(
                f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
                'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                for i in range(1, len(names) + 1)
            )
            + "</Types>"
        ))
        z.writestr("_rels/.rels", (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ))
        z.writestr("xl/workbook.xml", (
            f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
            + "".join(f'<sheet name="{escape(n)}" sheetId="{i}" r:id="rId{i}"/>' for i, n in enumerate(names, start=1))
            + "</sheets></workbook>"
        ))
        z.writestr("xl/_rels/workbook.xml.rels", (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(
                f'<Relationship Id="rId{i}" Type="{rel}/worksheet" Target="worksheets/sheet{i}.xml"/>' for i in range(1, len(names) + 1)
            )
            + f'<Relationship Id="rId{len(names) + 1}" Type="{rel}/styles" Target="styles.xml"/></Relationships>'
        ))
        z.writestr("xl/styles.xml", (
            f'<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="{main}">'
            '<fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders>'
            '<cellStyleXfs count="1"><xf/></cellStyleXfs>'
            '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>'
        ))
        for i, name in enumerate(names, start=1):
            z.writestr(f"xl/worksheets/sheet{i}.xml", _sheet_xml(sheets[name], merged.get(name, [])))
    return path


def _ods_cell(value: Any, span: str = "") -> str:
    if value is None:
        return f"<table:table-cell{span}/>"
    if isinstance(value, bool):
        return f'<table:table-cell{span} office:value-type="boolean" office:boolean-value="{str(value).lower()}"><text:p>{str(value).upper()}</text:p></table:table-cell>'
    if isinstance(value, (int, float)):
        return f'<table:table-cell{span} office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
    return f'<table:table-cell{span} office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'


def _ods_row(rows: Rows, r: int, merged: list[str]) -> str:
    """Row ``r`` (0-based): a merged range's first cell spans it, the cells it
    covers are ``covered-table-cell`` (as LibreOffice saves them)."""
    spans: dict[tuple[int, int], str] = {}
    covered: set[tuple[int, int]] = set()
    for ref in merged:
        (top, left), (bottom, right) = (_cell_at(end) for end in ref.split(":"))
        spans[(top, left)] = f' table:number-columns-spanned="{right - left + 1}" table:number-rows-spanned="{bottom - top + 1}"'
        covered |= {(y, x) for y in range(top, bottom + 1) for x in range(left, right + 1)} - {(top, left)}
    cells = [
        "<table:covered-table-cell/>" if (r, c) in covered else _ods_cell(v, spans.get((r, c), ""))
        for c, v in enumerate(rows[r])
    ]
    return "<table:table-row>" + "".join(cells) + "</table:table-row>"


def _cell_at(ref: str) -> tuple[int, int]:
    """``"D2"`` -> (1, 3): 0-based row and column."""
    letters = ref.rstrip("0123456789")
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - ord("A") + 1
    return int(ref[len(letters):]) - 1, column - 1


def ods(path: Path, sheets: dict[str, Rows], merged: dict[str, list[str]] | None = None) -> Path:
    """Write an OpenDocument spreadsheet with ``sheets`` (name -> rows), the
    ``merged`` ranges (``"D2:E2"``) of each sheet spanned."""
    merged = merged or {}
    ns = (
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    )
    tables = "".join(
        f'<table:table table:name="{escape(name)}">'
        + "".join(_ods_row(rows, r, merged.get(name, [])) for r in range(len(rows)))
        + "</table:table>"
        for name, rows in sheets.items()
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>"
        ))
        z.writestr("content.xml", (
            f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns} office:version="1.2">'
            f"<office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>"
        ))
    return path

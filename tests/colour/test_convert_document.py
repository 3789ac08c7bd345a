"""A laid-out document converted to CMYK gives the same bytes whenever and
wherever it is converted (each print export's worker converts the
documents its files draw on: pnp.output.printpdf)."""

from __future__ import annotations

import io

import pikepdf

from pnp.colour.convert import convert_document
from pnp.colour.icc import DEFAULT_PROFILE
from tests.pdftools import filled_pdf


def _fills(data: bytes) -> list[list[float]]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [[float(v) for v in i.operands] for i in pikepdf.parse_content_stream(pdf.pages[0]) if str(i.operator) in ("k", "K")]


def test_a_document_converted_in_another_second_gives_the_same_bytes() -> None:
    """qpdf makes a saved file's /ID from its clock unless told otherwise, so
    a worker converting a second later wrote other bytes (the suite caught it
    on a loaded machine): the ID now comes from the content."""
    import time

    document = filled_pdf("0.3 0.1 0.7", line=True)
    first = convert_document(document, {}, DEFAULT_PROFILE)
    time.sleep(1.1)  # into qpdf's next second: its clock-based IDs differ
    assert convert_document(document, {}, DEFAULT_PROFILE) == first
    assert _fills(first)[1] == [0, 0, 0, 0.5]  # gray stroke: black ink alone

"""Rendered faces compared as pixels with reviewed reference images.

A game keeps its references as PNGs in its own ``tests/golden/``, each looked
at by a person when it was made. On a mismatch the actual render is written
to ``_failures/`` beside that folder to look at; PNP_UPDATE_GOLDEN=1 accepts
a deliberate change. A face is cut out of a built PDF (:func:`crop_face`) or
a page rendered whole (:func:`rasterise`), both by PDFium.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from pnp.testing.pdf import operations

DPI = 100
TOLERANCE = 2.0
"""Mean absolute difference per channel (0-255) allowed for anti-aliasing noise."""


def compare(actual: Image.Image, golden: Path, name: str) -> None:
    """Fail unless ``actual`` matches ``golden/<name>.png`` within TOLERANCE."""
    reference = golden / f"{name}.png"
    if os.environ.get("PNP_UPDATE_GOLDEN") == "1":
        actual.save(reference)
    assert reference.exists(), f"no reference image {reference}; make one with PNP_UPDATE_GOLDEN=1 and look at it"
    expected = Image.open(reference).convert("RGB")
    failures = golden.parent / "_failures"
    if expected.size != actual.size:
        failures.mkdir(exist_ok=True)
        actual.save(failures / f"{name}.png")
        raise AssertionError(f"{name}: size {actual.size} differs from the reference {expected.size}")
    diff = ImageStat.Stat(ImageChops.difference(expected, actual)).mean
    if max(diff) > TOLERANCE:
        failures.mkdir(exist_ok=True)
        actual.save(failures / f"{name}.png")
        raise AssertionError(f"{name}: mean difference {max(diff):.2f} > {TOLERANCE}; actual in {failures / name}.png")


def rasterise(pdf: Path, page: int, dpi: float) -> Image.Image:
    """Page ``page`` (1-based) as an RGB image, rendered by PDFium."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        bitmap = document[page - 1].render(scale=dpi / 72)
        image: Image.Image = bitmap.to_pil().convert("RGB")
        return image
    finally:
        document.close()


def clip_rects(pdf: Path, page: int) -> list[tuple[float, float, float, float]]:
    """The clip rectangles (x, y, w, h) pnp drew its faces through on ``page``,
    read back from the content stream with pikepdf."""
    out: list[tuple[float, float, float, float]] = []
    pending: list[float] = []
    for op, numbers in operations(pdf, page, ("re", "W")):
        if op == "re":
            pending = numbers
        elif pending:
            x, y, w, h = pending
            out.append((x, y, w, h))
            pending = []
    return out


def crop_face(pdf: Path, page: int, index: int, dpi: float) -> Image.Image:
    """The ``index``-th placed face on ``page``, cut out of a PDFium render."""
    x, y, w, h = clip_rects(pdf, page)[index]
    image = rasterise(pdf, page, dpi)
    scale = dpi / 72
    height = image.size[1] / scale
    left, top = round(x * scale), round((height - y - h) * scale)
    # The size from the face's own size, not from rounding both edges: two
    # copies of one face crop to the same pixel size wherever they sit.
    return image.crop((left, top, left + round(w * scale), top + round(h * scale)))

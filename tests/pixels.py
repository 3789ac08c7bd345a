"""Rendered faces compared as pixels with reviewed reference images.

A game keeps its references as PNGs in its own ``tests/golden/``, each looked
at by a person when it was made. On a mismatch the actual render is written
to tests/_failures/ to look at; PNP_UPDATE_GOLDEN=1 accepts a deliberate change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

FAILURES = Path(__file__).resolve().parent / "_failures"
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
    if expected.size != actual.size:
        FAILURES.mkdir(exist_ok=True)
        actual.save(FAILURES / f"{name}.png")
        pytest.fail(f"{name}: size {actual.size} differs from the reference {expected.size}")
    diff = ImageStat.Stat(ImageChops.difference(expected, actual)).mean
    if max(diff) > TOLERANCE:
        FAILURES.mkdir(exist_ok=True)
        actual.save(FAILURES / f"{name}.png")
        pytest.fail(f"{name}: mean difference {max(diff):.2f} > {TOLERANCE}; actual in {FAILURES / name}.png")

"""Image resolution: the effective pixels per inch of every raster image where it is drawn,
in both axes, from its pixel size and the matrix the content walk found for it."""

from __future__ import annotations

import math
from collections.abc import Iterable

from pnp.preflight.report import Failure
from pnp.preflight.summary import Draw
from pnp.preflight.values import num

PPI_TOLERANCE = 0.5
"""Pixels per inch an image may fall short, for matrices written with few decimals."""


def ppi_by_image(draws: Iterable[Draw]) -> dict[str, tuple[float, float]]:
    """The lowest (ppi across, ppi down) of each image drawn, by a label naming it and its path."""
    worst: dict[str, tuple[float, float]] = {}
    for draw in draws:
        a, b, c, d = draw.linear
        across, down = math.hypot(a, b), math.hypot(c, d)
        if across < 1e-9 or down < 1e-9:
            continue
        ppi = (draw.width * 72 / across, draw.height * 72 / down)
        label = draw.name + (f" (in {' > '.join(draw.where)})" if draw.where else "")
        if label not in worst or min(ppi) < min(worst[label]):
            worst[label] = ppi
    return worst


def ppi_failures(number: int, ppi: dict[str, tuple[float, float]], need: float) -> list[Failure]:
    """A failure for each image of page ``number`` below ``need`` ppi in either axis."""
    out = []
    for label, (across, down) in ppi.items():
        if min(across, down) < need - PPI_TOLERANCE:
            shown = f"{num(across, 1)} x {num(down, 1)} ppi"
            out.append(Failure("ppi", number, f"{label} is {shown} at its drawn size; at least {num(need, 1)} needed"))
    return out

"""Page boxes: TrimBox and BleedBox present and nested inside the MediaBox, the bleed on
each side and the trim size as the printer asks."""

from __future__ import annotations

import pikepdf

from pnp.preflight.report import Failure, Requirements
from pnp.preflight.values import Box, as_box, inherited, num

BOX_TOLERANCE = 0.05
"""Points a bleed or trim size may differ from the requirement."""


def box_failures(number: int, page: pikepdf.Object, req: Requirements) -> list[Failure]:
    """The boxes, bleed and trim failures of page ``number``."""
    media = as_box(inherited(page, "/MediaBox"))
    trim = as_box(page.get("/TrimBox"))
    bleed = as_box(page.get("/BleedBox"))
    out: list[Failure] = []
    if req.boxes:
        missing = [name for name, box in (("MediaBox", media), ("TrimBox", trim), ("BleedBox", bleed)) if box is None]
        if missing:
            out.append(Failure("boxes", number, f"no {' and no '.join(missing)}"))
        for inner_name, inner, outer_name, outer in (
            ("TrimBox", trim, "BleedBox", bleed), ("BleedBox", bleed, "MediaBox", media), ("TrimBox", trim, "MediaBox", media)
        ):
            if inner and outer and not _inside(inner, outer):
                out.append(Failure("boxes", number, f"{inner_name} {_show_box(inner)} is not inside {outer_name} {_show_box(outer)}"))
                break
    if req.bleed is not None:
        if trim and bleed:
            sides = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
            if any(abs(side - req.bleed) > BOX_TOLERANCE for side in sides):
                shown = ", ".join(f"{where} {num(side)}" for where, side in zip(("left", "bottom", "right", "top"), sides))
                out.append(Failure("bleed", number, f"bleed is {shown} pt; expected {num(req.bleed)} pt on each side"))
        elif not req.boxes:
            out.append(Failure("bleed", number, "no TrimBox or no BleedBox, so the bleed cannot be measured"))
    if req.trim is not None:
        if trim:
            width, height = trim[2] - trim[0], trim[3] - trim[1]
            if abs(width - req.trim[0]) > BOX_TOLERANCE or abs(height - req.trim[1]) > BOX_TOLERANCE:
                out.append(Failure(
                    "trim", number,
                    f"TrimBox is {num(width)} x {num(height)} pt; expected {num(req.trim[0])} x {num(req.trim[1])} pt",
                ))
        elif not req.boxes:
            out.append(Failure("trim", number, "no TrimBox, so the trim size cannot be measured"))
    return out


def _inside(inner: Box, outer: Box) -> bool:
    t = BOX_TOLERANCE
    return inner[0] >= outer[0] - t and inner[1] >= outer[1] - t and inner[2] <= outer[2] + t and inner[3] <= outer[3] + t


def _show_box(box: Box) -> str:
    return "[" + " ".join(num(v) for v in box) + "]"

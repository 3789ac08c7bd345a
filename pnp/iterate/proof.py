"""``pnp proof``: every distinct face of a game on contact sheets, to review a
whole deck at a glance or share it in a chat.

One PNG per component (``proof-<component>.png``): each card's front, then
each distinct back, captioned with the card id, the side and how many copies
print it; and one PDF with those sheets as its pages (``<game>-proof.pdf``).
Faces are laid out by the same templates and stylesheets as a build (no build
stamp) and rasterised by PDFium; captions are set in pnp's own EB Garamond,
so a proof looks the same on every machine.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pnp.model import Component, Game
from pnp.paths import OWN

CAPTION_FONT = OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf"
COLUMNS = 6
GAP = 16
"""Pixels between tiles and around the sheet."""


@dataclass(frozen=True)
class Tile:
    face: str
    """The face key."""
    caption: tuple[str, str]
    """Two lines: the card (or how many cards share the face) and the side with its copies."""


def tiles(game: Game, component: Component, cards: Sequence[tuple[str, str, str | None]]) -> list[Tile]:
    """The component's faces in order: each card's front, then each distinct back."""
    copies = {c.id: c.copies for c in component.cards}
    out = [Tile(front, (card_id, f"front \u00d7{copies[card_id]}")) for card_id, front, _ in cards]
    seen: dict[str, list[str]] = {}
    fronts = {front for _, front, _ in cards}
    for card_id, _, back in cards:
        if back is not None and back not in fronts:
            seen.setdefault(back, []).append(card_id)
    for back, ids in seen.items():
        who = ids[0] if len(ids) == 1 else f"{len(ids)} cards"
        out.append(Tile(back, (who, f"back \u00d7{sum(copies[i] for i in ids)}")))
    return out


def _sheet(title: str, placed: Sequence[tuple[Any, tuple[str, str]]]) -> Any:
    """A white sheet: the title, then the faces in rows, each over its caption."""
    from PIL import Image, ImageDraw, ImageFont

    big, small = ImageFont.truetype(str(CAPTION_FONT), 28), ImageFont.truetype(str(CAPTION_FONT), 18)
    width = max(image.width for image, _ in placed)
    height = max(image.height for image, _ in placed)
    columns = min(COLUMNS, len(placed))
    rows = -(-len(placed) // columns)
    cell_w, cell_h = width + GAP, height + 2 * 22 + GAP
    sheet = Image.new("RGB", (GAP + columns * cell_w, 60 + rows * cell_h), "white")
    pen = ImageDraw.Draw(sheet)
    pen.text((GAP, 14), title, font=big, fill="black")
    for index, (image, (line1, line2)) in enumerate(placed):
        x = GAP + (index % columns) * cell_w
        y = 60 + (index // columns) * cell_h
        sheet.paste(image, (x, y))
        pen.rectangle((x - 1, y - 1, x + image.width, y + image.height), outline=(170, 170, 170))
        pen.text((x, y + image.height + 3), line1, font=small, fill="black")
        pen.text((x, y + image.height + 23), line2, font=small, fill=(90, 90, 90))
    return sheet


def proof(game: Game, components: Sequence[Component], out_dir: Path, dpi: int) -> list[Path]:
    """Write the contact sheets of ``components`` into ``out_dir/proof/``;
    returns the files written (the PNGs, then the PDF)."""
    from pnp.commit import Outputs, claimed
    from pnp.export.raster import face_images
    from pnp.render.faces import build_date

    plan, images = face_images(game, components, None, dpi)
    folder = out_dir / "proof"
    sheets: list[tuple[Path, Any]] = []
    for component in components:
        placed = [(images[t.face], t.caption) for t in tiles(game, component, plan.cards.get(component.id, ()))]
        if placed:
            title = f"{game.title}: {component.name} ({component.copies} printed, {len(placed)} faces)"
            sheets.append((folder / f"proof-{component.id}.png", _sheet(title, placed)))
    written = []
    with claimed(out_dir), Outputs(out_dir) as outputs:
        for target, sheet in sheets:
            buffer = io.BytesIO()
            sheet.save(buffer, format="PNG", dpi=(dpi, dpi))
            outputs.data(buffer.getvalue(), target)
            written.append(target)
        if sheets:
            when = time.gmtime(datetime.fromisoformat(build_date()).replace(tzinfo=UTC).timestamp())
            buffer = io.BytesIO()
            first, *rest = [s for _, s in sheets]
            first.save(buffer, format="PDF", save_all=True, append_images=rest, resolution=float(dpi),
                       title=f"{game.title}: proof", producer="pnp", creator="pnp", creationDate=when, modDate=when)
            target = folder / f"{game.id}-proof.pdf"
            outputs.data(buffer.getvalue(), target)
            written.append(target)
        outputs.commit()
    return written

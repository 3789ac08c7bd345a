"""``pnp proof``: every distinct face of a game on contact sheets, to review a
whole deck at a glance or share it in a chat.

One PNG per component (``proof-<component>.png``): each card's front (``both
sides`` when its back is the same face), then each back that differs from its
card's front, captioned with the card id, the side and how many copies print
it; and one PDF with those sheets as its pages (``<game>-proof.pdf``). A face
whose text overflows, leaves the safe zone or overlaps other text is framed in
red with what is wrong under it, and the warnings are returned for the
command to print, as a build prints them. Faces are laid out by the same
templates and stylesheets as a build (no build stamp) and rasterised by
PDFium; captions are set in pnp's own EB Garamond, so a proof looks the same
on every machine. Each column is as wide as its widest caption and the sheet
as wide as its title, so no caption is cut short.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.colour.vision import Deficiency
from pnp.errors import Diagnostic
from pnp.model import Component, Game
from pnp.paths import OWN
from pnp.render.inspect import LayoutFinding

if TYPE_CHECKING:
    from PIL.Image import Image as PilImage

CAPTION_FONT = OWN / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf"
COLUMNS = 6
GAP = 16
"""Pixels between tiles and around the sheet."""
TOP = 60
"""Pixels above the first row of tiles (the title's band)."""
LINE = 20
"""Pixels per caption line."""
FLAG = (204, 0, 0)
"""The colour of a flagged face's frame and label."""
FLAG_WIDTH = 3
"""Pixels of a flagged face's frame, outside the face."""
FLAGGED = {"overflow": "text overflows", "safe-zone": "text past the safe zone", "overlap": "text overlaps"}
"""The findings that flag a face, worst first, and how its label says each
(``fit``: text at its minimum size, which fits, does not flag it)."""


@dataclass(frozen=True)
class Tile:
    face: str
    """The face key."""
    caption: tuple[str, str]
    """Two lines: the card (or how many cards share the face) and the side with its copies."""


@dataclass(frozen=True)
class Proof:
    files: tuple[Path, ...]
    """The PNGs, then the PDF."""
    warnings: tuple[Diagnostic, ...]
    """The faces' layout warnings, as a build reports them."""


def tiles(game: Game, component: Component, cards: Sequence[tuple[str, str, str | None]]) -> list[Tile]:
    """The component's faces in order: each card's front, then each back that
    is not its own card's front (once, however many cards share it)."""
    copies = {c.id: c.copies for c in component.cards}
    out = [Tile(front, (card_id, f"{'both sides' if back == front else 'front'} \u00d7{copies[card_id]}")) for card_id, front, back in cards]
    seen: dict[str, list[str]] = {}
    for card_id, front, back in cards:
        if back is not None and back != front:
            seen.setdefault(back, []).append(card_id)
    for back, ids in seen.items():
        who = ids[0] if len(ids) == 1 else f"{len(ids)} cards"
        out.append(Tile(back, (who, f"back \u00d7{sum(copies[i] for i in ids)}")))
    return out


def flag(findings: Sequence[LayoutFinding]) -> str | None:
    """The worst of what is wrong with a face, for its label (the warnings say
    the rest), or None when nothing flags it."""
    return next((label for kind, label in FLAGGED.items() if any(f.kind == kind for f in findings)), None)


def _sheet(title: str, placed: Sequence[tuple[PilImage, tuple[str, ...], str | None]]) -> PilImage:
    """A white sheet: the title, then the faces in rows, each over its caption
    (and, when flagged, framed in red over its label)."""
    from PIL import Image, ImageDraw, ImageFont

    big, small = ImageFont.truetype(str(CAPTION_FONT), 28), ImageFont.truetype(str(CAPTION_FONT), 18)
    lines = max(len(caption) + (note is not None) for _, caption, note in placed)
    width = max([image.width for image, _, _ in placed] + [round(small.getlength(t)) for _, c, n in placed for t in (*c, n or "")])
    height = max(image.height for image, _, _ in placed)
    columns = min(COLUMNS, len(placed))
    rows = -(-len(placed) // columns)
    cell_w, cell_h = width + GAP, height + 3 + lines * LINE + GAP
    sheet = Image.new("RGB", (max(GAP + columns * cell_w, 2 * GAP + round(big.getlength(title))), TOP + rows * cell_h), "white")
    pen = ImageDraw.Draw(sheet)
    pen.text((GAP, 14), title, font=big, fill="black")
    for index, (image, caption, note) in enumerate(placed):
        x = GAP + (index % columns) * cell_w
        y = TOP + (index // columns) * cell_h
        sheet.paste(image, (x, y))
        pen.rectangle((x - 1, y - 1, x + image.width, y + image.height), outline=(170, 170, 170))
        for number, text in enumerate(caption):
            pen.text((x, y + image.height + 3 + number * LINE), text, font=small, fill="black" if number == 0 else (90, 90, 90))
        if note is not None:
            pen.rectangle((x - FLAG_WIDTH, y - FLAG_WIDTH, x + image.width - 1 + FLAG_WIDTH, y + image.height - 1 + FLAG_WIDTH),
                          outline=FLAG, width=FLAG_WIDTH)
            pen.text((x, y + image.height + 3 + len(caption) * LINE), note, font=small, fill=FLAG)
    return sheet


def proof(game: Game, components: Sequence[Component], out_dir: Path, dpi: int, vision: Deficiency | None = None) -> Proof:
    """Write the contact sheets of ``components`` into ``out_dir/proof/``; with
    ``vision``, the faces as a player with that deficiency sees them, in files
    named with it (``proof-cards-deutan.png``)."""
    from pnp.colour.vision import simulate_image
    from pnp.output.raster import rasterise
    from pnp.render.faces import plan_faces

    plan = plan_faces(game, components)
    rasters = rasterise(game, components, list(plan.faces), lambda face: None, dpi)
    images = rasters.images if vision is None else {key: simulate_image(image, vision) for key, image in rasters.images.items()}
    suffix, seen = ("", "") if vision is None else (f"-{vision}", f", as a {vision} player sees them")
    sheets = []
    for component in components:
        faces = tiles(game, component, plan.cards.get(component.id, ()))
        placed = [(images[t.face], t.caption, flag(rasters.findings.get(t.face, ()))) for t in faces]
        if placed:
            title = f"{game.title}: {component.name} ({component.copies} printed, {len(placed)} faces{seen})"
            sheets.append((out_dir / "proof" / f"proof-{component.id}{suffix}.png", _sheet(title, placed)))
    return Proof(_write(game, sheets, out_dir, dpi, suffix), rasters.warnings)


def _write(game: Game, sheets: Sequence[tuple[Path, PilImage]], out_dir: Path, dpi: int, suffix: str = "") -> tuple[Path, ...]:
    """Each sheet as its PNG, and all of them as one PDF, committed in one step."""
    from pnp.commit import Outputs, claimed
    from pnp.dates import build_date

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
            target = out_dir / "proof" / f"{game.id}-proof{suffix}.pdf"
            outputs.data(buffer.getvalue(), target)
            written.append(target)
        outputs.commit()
    return tuple(written)

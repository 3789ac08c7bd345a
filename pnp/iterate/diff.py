"""`pnp diff OLD NEW`: cards added, removed and changed between two builds,
with a contact sheet of each changed card before and after."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from pnp.errors import UsageError
from pnp.output.home.manifest import cards_by_id, manifest_path

if TYPE_CHECKING:
    from PIL.Image import Image

Cards = Mapping[tuple[str, str], Mapping[str, object]]
"""A manifest's card entries by (component id, card id)."""


class CardId(TypedDict):
    component: str
    card: str


class Change(CardId):
    sides: list[str]
    """The sides whose faces differ: front, back or both."""


class Diff(TypedDict):
    """What :func:`diff` finds; ``_cards`` (both builds' cards) is not for printing."""

    old: str
    new: str
    added: list[CardId]
    removed: list[CardId]
    changed: list[Change]
    _cards: tuple[Cards, Cards]


def diff(old: Path, new: Path) -> Diff:
    """Compare two builds' manifests card by card (by component and card id)."""
    old_path, new_path = manifest_path(old), manifest_path(new)
    try:
        before = json.loads(old_path.read_text())
        after = json.loads(new_path.read_text())
    except json.JSONDecodeError as exc:
        raise UsageError(f"not a pnp manifest: {exc}") from None
    a: Cards = cards_by_id(before)
    b: Cards = cards_by_id(after)
    changed: list[Change] = []
    for key in sorted(a.keys() & b.keys()):
        sides = [side for side in ("front", "back") if a[key].get(side) != b[key].get(side)]
        if sides:
            changed.append({"component": key[0], "card": key[1], "sides": sides})
    return {
        "old": str(old_path), "new": str(new_path),
        "added": [{"component": k[0], "card": k[1]} for k in sorted(b.keys() - a.keys())],
        "removed": [{"component": k[0], "card": k[1]} for k in sorted(a.keys() - b.keys())],
        "changed": changed,
        "_cards": (a, b),
    }


def _crop(folder: Path, at: object, dpi: int = 100) -> Image:
    """The box a manifest place (``{file, page, box: [x, y, w, h]}``) names, as an image."""
    import pypdfium2 as pdfium

    if not (isinstance(at, Mapping) and isinstance(at.get("file"), str) and isinstance(at.get("page"), int)
            and isinstance(at.get("box"), list) and len(at["box"]) == 4):
        raise UsageError(f"not a pnp manifest: a card's place is {at!r}")
    document = pdfium.PdfDocument(str(folder / at["file"]))
    try:
        page = document[at["page"] - 1]
        scale = dpi / 72
        image: Image = page.render(scale=scale).to_pil().convert("RGB")
        x, y, w, h = (float(v) for v in at["box"])
        height = page.get_height()
        return image.crop((round(x * scale), round((height - y - h) * scale), round((x + w) * scale), round((height - y) * scale)))
    finally:
        document.close()


PLACES = {"front": "at", "back": "back_at"}
"""Where a card's manifest entry says each side is first drawn."""


def contact_sheets(result: Diff, out: Path) -> list[Path]:
    """One PNG per changed card: each side that changed, before and after,
    side by side (a row per side; both when both changed)."""
    from PIL import Image, ImageDraw

    a, b = result["_cards"]
    old_dir, new_dir = Path(result["old"]).parent, Path(result["new"]).parent
    written = []
    for change in result["changed"]:
        key = (change["component"], change["card"])
        drawn = [(side, PLACES[side]) for side in change["sides"] if PLACES[side] in a[key] and PLACES[side] in b[key]]
        if not drawn:
            continue
        rows = [(side, _crop(old_dir, a[key][place]), _crop(new_dir, b[key][place])) for side, place in drawn]
        width = max(before.width + after.width for _, before, after in rows) + 30
        sheet = Image.new("RGB", (width, sum(max(before.height, after.height) + 24 for _, before, after in rows)), "white")
        pen = ImageDraw.Draw(sheet)
        y = 0
        for side, before, after in rows:
            sheet.paste(before, (10, y + 20))
            sheet.paste(after, (before.width + 20, y + 20))
            named = "" if len(rows) == 1 and side == "front" else f"{side}, "
            pen.text((10, y + 4), f"{named}before", fill="black")
            pen.text((before.width + 20, y + 4), f"{named}after", fill="black")
            y += max(before.height, after.height) + 24
        out.mkdir(parents=True, exist_ok=True)
        target = out / f"{change['component']}-{change['card']}.png"
        sheet.save(target)
        written.append(target)
    return written

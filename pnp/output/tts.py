"""Tabletop Simulator: deck sheets, piece images and a saved object that loads them.

Card components become decks: each distinct card once on a sheet of up to
10 x 7 (the last slot holds the hidden-card face), at no less than the
profile's dpi at the card's printed size; where the cards of a deck have
different backs, a back sheet of the same grid holds each card's own back
(TTS "unique backs"), else one back image serves them all. Other pieces are
tiles: boards one image per side, round tokens in a bag. A one-sided
component gets a plain back, and an optional module's cards a deck of their
own. ``<game>.json`` (:mod:`pnp.output.ttsobjects`) names every image by its
local file or under the URL prefix given.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.commit import Outputs, claimed
from pnp.model import Component, Game
from pnp.output.parts import Part, split_modules, with_backs
from pnp.output.profiles import Profile
from pnp.output.raster import pngs, render_images, with_bleed
from pnp.output.request import Request
from pnp.output.result import Built, BuiltFile
from pnp.output.ttsobjects import DeckImages, Sheet, TileImages, saved_object
from pnp.render.faces import FacePlan, plan_faces

if TYPE_CHECKING:
    import PIL.Image


def is_deck(component: Component) -> bool:
    """Cards of a named card size are a deck; other pieces are tiles."""
    return component.size.name != "custom"


def is_round(game: Game, component: Component) -> bool:
    """Pieces cut round (a layout of the component draws cutting circles)."""
    names = [component.layout, *component.paper_layouts.values()]
    return any(game.layouts[n].guides == "circle" for n in names if n in game.layouts)


def tts(game: Game, components: Sequence[Component], papers: Sequence[str], out_dir: Path, request: Request) -> Built:
    """Write ``<out_dir>/tts/``: sheets and piece images, ``decks.json`` (which
    card is in which slot) and ``<game>.json``, the saved object, naming the
    images under ``request.url_prefix`` when given (``papers`` play no part)."""
    profile = request.profile
    parts, warnings = with_backs(split_modules(game, with_bleed(components, profile.bleed)))
    plans = {part.id: plan_faces(game, [part.component]) for part in parts}
    faces = list({face.key: face for plan in plans.values() for face in plan.faces}.values())
    images = render_images(game, [p.component for p in parts], faces, lambda face: None, profile.dpi)
    folder = out_dir / profile.id
    files: list[BuiltFile] = []
    pieces: list[DeckImages | TileImages] = []
    queued: list[tuple[_Picture, Path]] = []

    def write(picture: _Picture, name: str) -> Path:
        target = folder / name
        queued.append((picture, target))
        files.append(BuiltFile(target, profile.id, size=picture.size))
        return target

    sizes = {key: image.size for key, image in images.items()}
    for part in parts:
        cards = _cards(part, plans[part.id])
        if not cards:
            continue
        if is_deck(part.component):
            pieces.append(_deck(part, cards, sizes, profile, write, warnings))
        else:
            pieces.append(_tiles(game, part, cards, sizes, write))
    with claimed(out_dir), Outputs(out_dir) as outputs:
        pictures = [picture for picture, _ in queued]
        for (_, target), data in zip(queued, pngs(lambda picture: picture.paint(images), pictures, profile.dpi), strict=True):
            outputs.data(data, target)
        index = {"game": game.id, "profile": profile.id, "warnings": warnings, "decks": [p.index(folder) for p in pieces]}
        outputs.data(json.dumps(index, indent=2).encode() + b"\n", folder / "decks.json")
        saved = folder / f"{game.folder_name}.json"
        document = saved_object(game, pieces, folder, request.url_prefix)
        outputs.data(json.dumps(document, indent=2).encode() + b"\n", saved)
        outputs.commit()
    return Built(game, profile, folder, tuple(files), folder / "decks.json", tuple(p.component for p in parts), notes=tuple(warnings))


@dataclass(frozen=True)
class _Picture:
    """An image file to write, told by the faces it shows, painted (and
    encoded) on a worker: each face (by key) fitted to ``card`` pixels and
    pasted, in order, at its place on a white ``sheet`` of that size; with
    no sheet, the one face alone."""

    card: tuple[int, int]
    faces: tuple[tuple[str, tuple[int, int]], ...]
    sheet: tuple[int, int] | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self.sheet or self.card

    def paint(self, images: Mapping[str, PIL.Image.Image]) -> PIL.Image.Image:
        from PIL import Image

        def fit(key: str) -> PIL.Image.Image:
            image = images[key]
            return image if image.size == self.card else image.resize(self.card, Image.Resampling.LANCZOS)

        if self.sheet is None:
            return fit(self.faces[0][0])
        out = Image.new("RGB", self.sheet, (255, 255, 255))
        for key, where in self.faces:
            out.paste(fit(key), where)
        return out


Card = tuple[str, str, int, str, str]
"""(card id, title, copies, front face key, back face key)."""


def _cards(part: Part, plan: FacePlan) -> list[Card]:
    titles = {card.id: (card.title, card.copies) for card in part.component.cards}
    return [
        (card_id, titles[card_id][0], titles[card_id][1], front, back or front)
        for card_id, front, back in plan.cards[part.component.id]
        if titles[card_id][1] > 0
    ]


def _grid(size: tuple[int, int], count: int, profile: Profile, part: Part, warnings: list[str]) -> tuple[int, int, float]:
    """Columns and rows of a sheet of ``count`` cards of ``size`` px (one slot
    more for the hidden-card face), and the scale the cards need: 1.0 unless
    even two of them side by side break ``max_px``, which is warned of."""
    w, h = size
    cols, rows = min(profile.columns, profile.max_px // w), min(profile.rows, profile.max_px // h)
    scale = 1.0
    if cols * rows < 2:
        scale = min(1.0, profile.max_px / (2 * w), profile.max_px / h)
        cols, rows = 2, 1
        warnings.append(f"{part.id}: cards shrunk to {profile.dpi * scale:.0f} dpi (below {profile.dpi}) to fit a {profile.max_px} px sheet")
    if count + 1 <= cols:  # a short deck: one row, no empty slots
        cols, rows = max(count + 1, 2), 1
    return cols, rows, scale


def _deck(
    part: Part, cards: list[Card], sizes: Mapping[str, tuple[int, int]], profile: Profile, write: Callable[[_Picture, str], Path],
    warnings: list[str],
) -> DeckImages:
    component = part.component
    printed = (component.size.width + 2 * component.bleed, component.size.height + 2 * component.bleed)
    first = sizes[cards[0][3]]
    cols, rows, scale = _grid(first, len(cards), profile, part, warnings)
    card = (math.floor(first[0] * scale), math.floor(first[1] * scale))
    unique = len({back for *_, back in cards}) > 1
    per_sheet = cols * rows - 1  # the last slot holds the hidden-card face
    sheets: list[Sheet] = []
    for number, start in enumerate(range(0, len(cards), per_sheet), start=1):
        chunk = cards[start : start + per_sheet]
        used_rows = rows if number > 1 or len(cards) > per_sheet else max(1, math.ceil((len(chunk) + 1) / cols))
        places = [((slot % cols) * card[0], (slot // cols) * card[1]) for slot in range(len(chunk))]
        last = cols * used_rows - 1
        hidden = (chunk[0][4], ((last % cols) * card[0], (last // cols) * card[1]))
        sheet = (cols * card[0], used_rows * card[1])
        faces = _Picture(card, (*((c[3], where) for c, where in zip(chunk, places)), hidden), sheet)
        face_path = write(faces, f"{part.id}-sheet-{number}.png")
        backs = _Picture(card, (*((c[4], where) for c, where in zip(chunk, places)), hidden), sheet)
        back_path = write(backs, f"{part.id}-backs-{number}.png") if unique else None
        sheets.append(Sheet(face_path, back_path, cols, used_rows, tuple(c[0] for c in chunk), last))
    single: Path | None = None if unique else write(_Picture(card, ((cards[0][4], (0, 0)),)), f"{part.id}-back.png")
    return DeckImages(part, tuple((c[0], c[1], c[2]) for c in cards), tuple(sheets), single, card, printed)


def _tiles(
    game: Game, part: Part, cards: list[Card], sizes: Mapping[str, tuple[int, int]], write: Callable[[_Picture, str], Path],
) -> TileImages:
    """Each piece's sides, each face once and as it is."""
    component = part.component
    printed = (component.size.width + 2 * component.bleed, component.size.height + 2 * component.bleed)
    written: dict[str, Path] = {}

    def image(key: str, name: str) -> Path:
        if key not in written:
            written[key] = write(_Picture(sizes[key], ((key, (0, 0)),)), f"{part.id}/{name}.png")
        return written[key]

    pieces = tuple(
        (card_id, title, copies, image(front, f"{card_id}-front"), image(back, f"{card_id}-back"))
        for card_id, title, copies, front, back in cards
    )
    return TileImages(part, pieces, is_round(game, component), printed)

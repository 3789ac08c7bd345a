"""The Tabletop Simulator saved object of a game: every deck and piece, with
its images named by local file (``file:///``) or under a URL prefix.

The fields are those of TTS save files (``ObjectStates``; decks as
``DeckCustom`` with ``CustomDeck`` entries ``FaceURL``, ``BackURL``,
``NumWidth``, ``NumHeight``, ``BackIsHidden``, ``UniqueBack``, ``DeckIDs`` and
``ContainedObjects`` of ``Card``s whose ``CardID`` is the sheet's key times 100
plus the slot; pieces as ``Custom_Tile``; tokens in a ``Bag``). Copy the file
into TTS's ``Saved Objects`` folder and it loads as it is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.output.parts import Part
from pnp.model import Game

TILE_INCHES = 2.0
"""Roughly how many inches a Custom_Tile of scale 1 is across its longer side
(pieces are scaled by it, so sizes on the table are approximate)."""


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: the faces, and (unique backs) each card's own back in
    the same slot of a back sheet."""

    face: Path
    back: Path | None
    columns: int
    rows: int
    cards: tuple[str, ...]
    """The card id in each slot, in order."""
    hidden_slot: int


@dataclass(frozen=True)
class DeckImages:
    part: Part
    cards: tuple[tuple[str, str, int], ...]
    """(card id, title, copies), in the deck's order."""
    sheets: tuple[Sheet, ...]
    back: Path | None
    """The one back image when every card has the same back; None with unique backs."""
    card_px: tuple[int, int]
    printed: tuple[float, float]
    """A card's printed size in points (bleed included)."""

    def index(self, folder: Path) -> dict[str, object]:
        return {
            **_part_index(self.part), "kind": "deck", "card_px": list(self.card_px), "unique_backs": self.back is None,
            "back": None if self.back is None else self.back.relative_to(folder).as_posix(),
            "sheets": [
                {
                    "face": s.face.relative_to(folder).as_posix(), "back": None if s.back is None else s.back.relative_to(folder).as_posix(),
                    "num_width": s.columns, "num_height": s.rows, "cards": list(s.cards), "hidden_slot": s.hidden_slot,
                }
                for s in self.sheets
            ],
        }


@dataclass(frozen=True)
class TileImages:
    part: Part
    pieces: tuple[tuple[str, str, int, Path, Path], ...]
    """(card id, title, copies, front image, back image)."""
    round: bool
    printed: tuple[float, float]

    def index(self, folder: Path) -> dict[str, object]:
        return {
            **_part_index(self.part), "kind": "tokens" if self.round else "tiles",
            "pieces": [
                {"card": c, "copies": n, "front": f.relative_to(folder).as_posix(), "back": b.relative_to(folder).as_posix()}
                for c, _, n, f, b in self.pieces
            ],
        }


def _part_index(part: Part) -> dict[str, object]:
    return {"part": part.id, "component": part.component.id, "module": part.module.id if part.module else None, "name": part.name}


def saved_object(game: Game, pieces: Sequence[DeckImages | TileImages], folder: Path, url_prefix: str | None) -> dict[str, object]:
    """The saved-object document: decks in a row, boards beside them, tokens in bags."""

    def url(path: Path) -> str:
        if url_prefix is None:
            return path.resolve().as_uri()
        return url_prefix + path.relative_to(folder).as_posix()

    guids = _Guids(game.id)
    states: list[dict[str, object]] = []
    key = 0
    x = 0.0
    for piece in pieces:
        if isinstance(piece, DeckImages):
            states.append(_deck(piece, key, url, guids, x))
            key += len(piece.sheets)
            x += 3.0
    x = 0.0
    for piece in pieces:
        if isinstance(piece, TileImages):
            tiles = _tiles(piece, url, guids, x)
            x += 3.0 if piece.round else max(round(_tile_scale(piece), 4) * TILE_INCHES, 3.0)
            if piece.round:
                bag = _base("Bag", f"{piece.part.name}", _transform(x, -8.0), guids)
                states.append({**bag, "ContainedObjects": tiles})
            else:
                states.extend(tiles)
    return {
        "SaveName": game.title, "GameMode": "", "Date": "", "VersionNumber": "", "GameType": "", "GameComplexity": "",
        "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
        "LuaScript": "", "LuaScriptState": "", "TabStates": {}, "ObjectStates": states,
    }


class _Guids:
    """TTS object GUIDs (six hex digits), the same for the same game on every build."""

    def __init__(self, seed: str):
        self.seed = seed
        self.count = 0

    def next(self) -> str:
        self.count += 1
        return hashlib.sha256(f"{self.seed}/{self.count}".encode()).hexdigest()[:6]


def _transform(x: float, z: float, face_down: bool = False, scale: float = 1.0) -> dict[str, float]:
    return {
        "posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
        "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4),
    }


def _base(name: str, nickname: str, transform: dict[str, float], guids: _Guids) -> dict[str, object]:
    return {
        "GUID": guids.next(), "Name": name, "Transform": transform, "Nickname": nickname, "Description": "", "GMNotes": "",
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
        "Autoraise": True, "Sticky": True, "Tooltip": True, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
    }


def _deck(deck: DeckImages, first_key: int, url: Callable[[Path], str], guids: _Guids, x: float) -> dict[str, object]:
    """A DeckCustom of every copy (or a lone Card when the part has one card)."""
    custom: dict[str, dict[str, object]] = {}
    slot_of: dict[str, int] = {}
    for number, sheet in enumerate(deck.sheets, start=first_key + 1):
        back = sheet.back if sheet.back is not None else deck.back
        assert back is not None
        custom[str(number)] = {
            "FaceURL": url(sheet.face), "BackURL": url(back), "NumWidth": sheet.columns, "NumHeight": sheet.rows,
            "BackIsHidden": True, "UniqueBack": sheet.back is not None, "Type": 0,
        }
        slot_of.update((card_id, number * 100 + slot) for slot, card_id in enumerate(sheet.cards))
    sideways = deck.printed[0] > deck.printed[1]
    cards = []
    for card_id, title, copies in deck.cards:
        sheet_key = str(slot_of[card_id] // 100)
        for _ in range(copies):
            card = _base("Card", title, _transform(x, 0.0, face_down=True), guids)
            cards.append({
                **card, "CardID": slot_of[card_id], "SidewaysCard": sideways, "HideWhenFaceDown": True, "Hands": True,
                "CustomDeck": {sheet_key: custom[sheet_key]},
            })
    if len(cards) == 1:
        return cards[0]
    deck_state = _base("DeckCustom", deck.part.name, _transform(x, 0.0, face_down=True), guids)
    return {
        **deck_state, "SidewaysCard": sideways, "HideWhenFaceDown": True, "Hands": False,
        "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": custom, "ContainedObjects": cards,
    }


def _tile_scale(tiles: TileImages) -> float:
    """How many times TTS's tile (:data:`TILE_INCHES` across) the pieces are."""
    return max(tiles.printed) / 72 / TILE_INCHES


def _tiles(tiles: TileImages, url: Callable[[Path], str], guids: _Guids, x: float) -> list[dict[str, object]]:
    """A Custom_Tile for every copy: round tokens stack, boards lie side by side."""
    scale = _tile_scale(tiles)
    out = []
    z = -8.0
    for _, title, copies, front, back in tiles.pieces:
        for _ in range(copies):
            tile = _base("Custom_Tile", title, _transform(x, z, scale=scale), guids)
            out.append({
                **tile,
                "CustomImage": {
                    "ImageURL": url(front), "ImageSecondaryURL": url(back), "ImageScalar": 1.0, "WidthScale": 0.0,
                    "CustomTile": {"Type": 2 if tiles.round else 0, "Thickness": 0.1, "Stackable": tiles.round, "Stretch": tiles.round},
                },
            })
            if not tiles.round:
                z -= scale * TILE_INCHES * tiles.printed[1] / max(tiles.printed) + 0.5
    return out

"""The manifest a home build writes beside its PDFs: every file, and each
card's face keys and where each of its faces is first drawn (``at`` for the
front, ``back_at`` for the back: what `pnp diff` reads), and reading it
back: which cards changed since a build (``--changed-since``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

from pnp.errors import UsageError
from pnp.imposition.geometry import Sheet
from pnp.model import Component, Game
from pnp.output.result import BuiltFile
from pnp.render.faces import FacePlan, plan_faces


class Place(TypedDict):
    """Where a face is first drawn: its file, page and clip box (x, y, width, height, in points)."""

    file: str
    page: int
    box: list[float]


class CardEntry(TypedDict):
    id: str
    front: str | None
    """The content key of its front face (:meth:`pnp.render.faces.FacePlan.content_key`)."""
    back: str | None
    at: NotRequired[Place]
    back_at: NotRequired[Place]


class ComponentEntry(TypedDict):
    id: str
    name: str
    copies: int
    faces: int
    cards: list[CardEntry]


class FileEntry(TypedDict):
    path: str
    profile: str
    paper: str | None
    pages: int | None
    module: NotRequired[str]


class Manifest(TypedDict):
    """manifest.json, as a home build writes it (:func:`manifest_data`) and
    ``pnp diff`` and ``pnp watch`` read it back."""

    game: str
    name: str
    version: str
    files: list[FileEntry]
    components: list[ComponentEntry]
    ink_saver: NotRequired[bool]


def merged(plans: Sequence[FacePlan]) -> FacePlan:
    """One plan for every book together, for the manifest."""
    copies: dict[str, tuple[tuple[str, str | None], ...]] = {}
    cards: dict[str, tuple[tuple[str, str, str | None], ...]] = {}
    for plan in plans:
        for cid, pairs in plan.copies.items():
            copies[cid] = copies.get(cid, ()) + pairs
        for cid, rows in plan.cards.items():
            cards[cid] = cards.get(cid, ()) + rows
    faces = tuple({f.key: f for plan in plans for f in plan.faces}.values())
    content = {k: v for plan in plans for k, v in plan.content.items()}
    return FacePlan(faces, copies, cards, content)



def note_places(found: dict[str, Place], ordered: Sequence[Sheet], file: str, first_page: int) -> None:
    """Where each face is first drawn: file, page and box (for `pnp diff`)."""
    for number, sheet in enumerate(ordered, start=first_page):
        for placement in sheet.placements:
            r = placement.clip
            found.setdefault(placement.face, {"file": file, "page": number, "box": [round(v, 3) for v in (r.x, r.y, r.width, r.height)]})



def manifest_data(
    game: Game,
    components: Sequence[Component],
    plan: FacePlan,
    files: Sequence[BuiltFile],
    out_dir: Path,
    found: dict[str, Place] | None = None,
) -> dict[str, object]:
    """The manifest, as :class:`Manifest` describes it."""
    found = found or {}
    return {
        "game": game.id,
        "name": game.title,
        "version": game.version,
        "files": [
            {"path": f.path.relative_to(out_dir).as_posix(), "profile": f.profile, "paper": f.paper, "pages": f.pages}
            | ({"module": f.module} if f.module else {})
            for f in files
        ],
        "components": [
            {
                "id": c.id,
                "name": c.name,
                "copies": c.copies,
                "faces": len({k for pair in plan.copies.get(c.id, ()) for k in pair if k is not None}),
                "cards": [
                    {"id": card_id, "front": plan.content_key(front), "back": plan.content_key(back)}
                    | ({"at": found[front]} if front in found else {})
                    | ({"back_at": found[back]} if back is not None and back in found else {})
                    for card_id, front, back in plan.cards.get(c.id, ())
                ],
            }
            for c in components
        ],
    }


def manifest_path(where: Path) -> Path:
    """A manifest, given itself or the build folder that holds it."""
    path = where / "manifest.json" if where.is_dir() else where
    if not path.is_file():
        raise UsageError(f"{where}: no manifest.json (give a build folder or its manifest)")
    return path


def cards_by_id(manifest: Manifest) -> dict[tuple[str, str], CardEntry]:
    """A manifest's cards by (component id, card id)."""
    return {(c["id"], card["id"]): card for c in manifest.get("components", []) for card in c.get("cards", [])}


def changed_cards(game: Game, components: Sequence[Component], old: Path) -> dict[str, set[str]]:
    """Per component, the cards whose faces differ from ``old``'s build (or
    are new), made the way that build made them (with or without ink saver)."""
    manifest = json.loads(manifest_path(old).read_text())
    before = cards_by_id(manifest)
    # Like for like: an ink-saver build's cards are compared with ink-saver faces.
    plan = plan_faces(game, components, ink_saver=bool(manifest.get("ink_saver", False)))
    out: dict[str, set[str]] = {}
    for component in components:
        for card_id, front, back in plan.cards.get(component.id, ()):
            was = before.get((component.id, card_id))
            if was is None or was.get("front") != front or was.get("back") != back:
                out.setdefault(component.id, set()).add(card_id)
    return out

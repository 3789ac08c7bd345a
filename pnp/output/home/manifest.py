"""The manifest a home build writes beside its PDFs: every file, and each
card's face keys and where each of its faces is first drawn (``at`` for the
front, ``back_at`` for the back: what `pnp diff` reads)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.imposition.geometry import Sheet
from pnp.model import Component, Game
from pnp.render.faces import FacePlan


@dataclass(frozen=True)
class BuiltFile:
    path: Path
    profile: str
    paper: str
    pages: int
    module: str | None = None



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



def note_places(found: dict[str, dict[str, Any]], ordered: Sequence[Sheet], file: str, first_page: int) -> None:
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
    found: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
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

"""One PNG per face at the exact pixels a print-on-demand site asks for."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pnp.commit import Outputs, claimed
from pnp.errors import UsageError
from pnp.model import Component, Game
from pnp.output.parts import split_modules
from pnp.output.raster import face_images, pngs, with_bleed
from pnp.output.request import Request
from pnp.output.result import Built, BuiltFile


def png_faces(game: Game, components: Sequence[Component], papers: Sequence[str], out_dir: Path, request: Request) -> Built:
    """Write ``<component>/<card>-front.png`` (and ``-back.png``) for every card,
    and ``cards.json`` with each card's quantity. An optional module's cards go
    in a folder of their own, ``<module>-<component>/``, as a deck of their own
    for the site, never mixed into the base deck (``papers`` play no part).
    Components of a size the profile has no pixels for are left out and named
    in the result's ``skipped``; when none is left, that is an error."""
    profile = request.profile
    missing = sorted({c.size.name for c in components} - set(profile.sizes))
    usable = [c for c in components if c.size.name in profile.sizes]
    if missing and not usable:
        raise UsageError(f"profile {profile.id}: no pixel size for card size {', '.join(missing)}; it knows {', '.join(profile.sizes)}")
    skipped = [f"{c.id}: no pixel size for card size {c.size.name} in {profile.id}" for c in components if c.size.name not in profile.sizes]
    components = usable
    parts = with_bleed(components, profile.bleed)
    plan, images = face_images(game, parts, profile.sizes, profile.dpi)
    folder = out_dir / profile.id
    files: list[BuiltFile] = []
    index: list[dict[str, object]] = []
    targets: dict[str, list[Path]] = {}
    """Where each face goes: encoded once, however many cards show it."""
    for part in split_modules(game, parts):
        copies = {card.id: card.copies for card in part.component.cards}
        for card_id, front, back in plan.cards[part.component.id]:
            if card_id not in copies:
                continue  # in another part: the base game's or a module's
            entry: dict[str, object] = {"component": part.component.id, "card": card_id, "quantity": copies[card_id]}
            if part.module is not None:
                entry["module"] = part.module.id
            for side, key in (("front", front), ("back", back)):
                if key is None:
                    continue
                target = folder / part.id / f"{card_id}-{side}.png"
                targets.setdefault(key, []).append(target)
                files.append(BuiltFile(target, profile.id, module=part.module.id if part.module else None, size=images[key].size))
                entry[side] = target.relative_to(folder).as_posix()
            index.append(entry)
    with claimed(out_dir), Outputs(out_dir) as outputs:
        for (_, paths), data in zip(targets.items(), pngs(images.__getitem__, list(targets), profile.dpi), strict=True):
            for target in paths:
                outputs.data(data, target)
        outputs.data(json.dumps({"game": game.id, "profile": profile.id, "cards": index}, indent=2).encode() + b"\n", folder / "cards.json")
        outputs.commit()
    return Built(game, profile, folder, tuple(files), folder / "cards.json", tuple(parts), skipped=tuple(skipped))

"""Tabletop Simulator deck sheets: up to 10 x 7 cards, at most 4096 px a side,
the hidden-card face in the last slot, plus a back image and a JSON index."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.export.profiles import Profile
from pnp.export.raster import face_images, save_png, with_bleed
from pnp.model import Component, Game
from pnp.commit import Outputs, claimed


def export_tts(game: Game, components: Sequence[Component], profile: Profile, out_dir: Path) -> list[dict[str, Any]]:
    from PIL import Image

    parts = with_bleed(components, profile.bleed)
    plan, images = face_images(game, parts, None, profile.dpi)
    folder = out_dir / profile.id
    files: list[dict[str, Any]] = []
    decks = []
    with claimed(out_dir), Outputs(out_dir) as outputs:
        for component in parts:
            copies = [(card_id, front, back) for card_id, front, back in plan.cards[component.id]
                      for _ in range(next(c.copies for c in component.cards if c.id == card_id))]
            if not copies:
                continue
            sample = images[copies[0][1]]
            # Cards shrink, keeping their shape, until a full sheet fits the limit.
            cols, rows = profile.columns, profile.rows
            scale = min(1.0, profile.max_px / (cols * sample.width), profile.max_px / (rows * sample.height))
            card_w, card_h = math.floor(sample.width * scale), math.floor(sample.height * scale)
            per_sheet = cols * rows - 1  # the last slot is the hidden-card face
            back_key = copies[0][2]
            hidden = images[back_key] if back_key else Image.new("RGB", sample.size, (40, 40, 40))
            sheets = []
            for number, start in enumerate(range(0, len(copies), per_sheet), start=1):
                chunk = copies[start : start + per_sheet]
                used_rows = rows if len(copies) > per_sheet else max(1, math.ceil((len(chunk) + 1) / cols))
                sheet = Image.new("RGB", (cols * card_w, used_rows * card_h), (255, 255, 255))
                for slot, (_, front, _) in enumerate(chunk):
                    sheet.paste(images[front].resize((card_w, card_h)), ((slot % cols) * card_w, (slot // cols) * card_h))
                last = cols * used_rows - 1
                sheet.paste(hidden.resize((card_w, card_h)), ((last % cols) * card_w, (last // cols) * card_h))
                target = folder / f"{component.id}-sheet-{number}.png"
                outputs.data(save_png(sheet, target, profile.dpi), target)
                files.append({"path": target.relative_to(out_dir).as_posix(), "profile": profile.id, "size": list(sheet.size)})
                sheets.append({
                    "face": target.name, "num_width": cols, "num_height": used_rows, "cards": [c for c, _, _ in chunk],
                    "hidden_slot": last,
                })
            back_name = None
            if back_key:
                back_target = folder / f"{component.id}-back.png"
                outputs.data(save_png(images[back_key].resize((card_w, card_h)), back_target, profile.dpi), back_target)
                files.append({"path": back_target.relative_to(out_dir).as_posix(), "profile": profile.id, "size": [card_w, card_h]})
                back_name = back_target.name
            decks.append({"component": component.id, "name": component.name, "card_px": [card_w, card_h], "back": back_name, "sheets": sheets})
        outputs.data(json.dumps({"game": game.id, "profile": profile.id, "decks": decks}, indent=2).encode() + b"\n", folder / "decks.json")
        outputs.commit()
    return files

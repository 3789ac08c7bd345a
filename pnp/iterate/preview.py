"""What ``pnp serve`` shows: every face of a game as a PNG, with each card's
data, where it is written, the layout warnings of its faces, and the game's
check summary, as one JSON-ready state.

Faces are laid out through the game's render cache (``<out>/<game>/.cache/
render``, the one ``pnp build`` and ``pnp watch`` use) and rasterised by
PDFium; a face already rasterised (same key) is not rasterised again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from pnp.errors import PnpError

DPI = 110


class State(TypedDict, total=False):
    """What the page shows, sent as JSON: the game's cards and check, or the
    errors of the last load (with the last good cards kept)."""

    game: str
    errors: list[str]
    check: dict[str, object]
    components: list[dict[str, object]]
    faces: int
    seconds: float
    version: int


@dataclass
class Preview:
    """The latest state and the face images it names (PNG bytes by face key)."""

    version: int = 0
    state: State = field(default_factory=lambda: State())
    images: dict[str, bytes] = field(default_factory=dict)


def _plain(value: object) -> object:
    """A card's field value as JSON (tuples as lists, mappings as objects)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def refresh(preview: Preview, game_dir: Path, out: Path) -> None:
    """Load, lay out and rasterise the game again; on bad input keep the last
    faces and show the errors. Bumps ``preview.version``."""
    started = time.perf_counter()
    state: State
    try:
        state, images = _state(game_dir, out, preview.images)
    except PnpError as exc:
        state = {**preview.state, "errors": exc.format_message().splitlines()}
        images = preview.images
    state["seconds"] = round(time.perf_counter() - started, 3)
    preview.version += 1
    state["version"] = preview.version
    preview.images, preview.state = images, state


def _state(game_dir: Path, out: Path, known: Mapping[str, bytes]) -> tuple[State, dict[str, bytes]]:
    from pnp.loading.loader import load_game
    from pnp.render.document import faces_html
    from pnp.render.faces import plan_faces
    from pnp.render.cache import RenderCache
    from pnp.render.inspect import safe_box
    from pnp.render.layout import render_faces
    from pnp.render.scope import scope_for
    from pnp.rules.check import check_game

    game = load_game(game_dir)
    plan = plan_faces(game, game.components)
    styles = list(dict.fromkeys(s for c in game.components for s in c.styles))
    cache = RenderCache(out / game.folder_name / ".cache" / "render")
    wanted = [f for f in plan.faces if f.key not in known]
    images = {k: v for k, v in known.items() if k in {f.key for f in plan.faces}}
    pages, found = render_faces(plan.faces, lambda chunk: faces_html(game, chunk, styles), safe_box, scope_for(game), cache)
    images.update(_rasterise(pages, {f.key for f in wanted}))
    labels = {f.key: f.label for f in plan.faces}
    report = check_game(game)
    components: list[dict[str, object]] = []
    for component in game.components:
        by_id = {c.id: c for c in component.cards}
        cards: list[dict[str, object]] = []
        for card_id, front, back in plan.cards.get(component.id, ()):
            card = by_id[card_id]
            warnings = [
                f"{'front' if key == front else 'back'}: {finding.element}: {finding.message}"
                for key in (front, back) if key is not None for finding in found.get(key, ())
            ]
            cards.append({
                "id": card.id, "title": card.title, "copies": card.copies, "front": front, "back": back,
                "source": str(card.source), "fields": _plain(dict(card.fields)), "warnings": warnings,
            })
        components.append({"id": component.id, "name": component.name, "cards": cards})
    errors = report.errors()
    check = {
        "ok": report.ok(), "errors": len(errors), "warnings": len(report.findings) - len(errors),
        "lines": [f"{f.where}: {f.level.value}: [{f.check}] {f.message}" for f in report.findings][:50],
    }
    state: State = {"game": game.title, "errors": [], "check": check, "components": components, "faces": len(labels)}
    return state, images


def _rasterise(pages: Sequence[tuple[Path | bytes, Sequence[str | None]]], wanted: set[str]) -> dict[str, bytes]:
    """PNG bytes of each wanted face, from its laid-out page."""
    import io

    import pypdfium2 as pdfium

    from pnp.pdf.place import face_document

    out: dict[str, bytes] = {}
    for data, keys in pages:
        if not wanted.intersection(k for k in keys if k):
            continue
        document = pdfium.PdfDocument(face_document(data))
        try:
            for index, key in enumerate(keys):
                if key is None or key not in wanted:
                    continue
                image = document[index].render(scale=DPI / 72).to_pil().convert("RGB")
                buffer = io.BytesIO()
                image.save(buffer, format="PNG")
                out[key] = buffer.getvalue()
        finally:
            document.close()
    return out

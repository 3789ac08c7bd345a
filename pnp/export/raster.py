"""Card faces as images: laid out by WeasyPrint, rasterised by PDFium."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pnp.model import Component, Game
from pnp.paths import ART, FONTS, TEMPLATES
from pnp.render.document import faces_html
from pnp.render.faces import Face, FacePlan, plan_faces
from pnp.render.weasy import render_pdfs


def with_bleed(components: Sequence[Component], bleed: float | None) -> tuple[Component, ...]:
    """The components with the profile's bleed in place of the game's."""
    return tuple(components) if bleed is None else tuple(replace(c, bleed=bleed) for c in components)


def face_images(game: Game, components: Sequence[Component], pixels: dict[str, tuple[int, int]] | None, dpi: int) -> tuple[FacePlan, dict[str, Any]]:
    """Every distinct face as a PIL image: at exact ``pixels`` for its size name
    when given, else at ``dpi``."""
    import pypdfium2 as pdfium
    from PIL import Image

    plan = plan_faces(game, components)
    styles = [s for c in components for s in c.styles]
    chunks = _chunks(list(plan.faces), 2)
    rendered = render_pdfs([(faces_html(game, chunk, styles), "card faces") for chunk in chunks], [game.root, TEMPLATES, FONTS, ART])
    sizes = {c.id: c.size.name for c in components}
    images: dict[str, Any] = {}
    for data, chunk in zip(rendered, chunks):
        document = pdfium.PdfDocument(data)
        try:
            for index, face in enumerate(chunk):
                target = (pixels or {}).get(sizes.get(face.component, ""))
                if target is None:
                    target = (round(face.width / 72 * dpi), round(face.height / 72 * dpi))
                page = document[index]
                scale = max(target[0] / page.get_width(), target[1] / page.get_height())
                image = page.render(scale=scale).to_pil().convert("RGB")
                if image.size != target:
                    image = image.resize(target, Image.Resampling.LANCZOS)
                images[face.key] = image
        finally:
            document.close()
    return plan, images


def _chunks(items: list[Face], count: int) -> list[list[Face]]:
    size = -(-len(items) // count) if items else 1
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def save_png(image: Any, target: Path, dpi: int) -> bytes:
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
    return buffer.getvalue()

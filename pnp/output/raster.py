"""Card faces as images: laid out by WeasyPrint, rasterised by PDFium."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.errors import Diagnostic
from pnp.model import Component, Game
from pnp.render.cache import RenderCache
from pnp.render.layout import render_faces
from pnp.render.document import faces_html
from pnp.render.faces import Face, FacePlan, plan_faces
from pnp.render.findings import LayoutFinding, layout_diagnostics, raise_errors, safe_box
from pnp.render.scope import scope_for

if TYPE_CHECKING:
    import PIL.Image


def with_bleed(components: Sequence[Component], bleed: float | None) -> tuple[Component, ...]:
    """The components with the profile's bleed in place of the game's."""
    return tuple(components) if bleed is None else tuple(replace(c, bleed=bleed) for c in components)


def face_images(game: Game, components: Sequence[Component], pixels: dict[str, tuple[int, int]] | None, dpi: int) -> tuple[FacePlan, dict[str, PIL.Image.Image]]:
    """Every distinct face as a PIL image: at exact ``pixels`` for its size name
    when given, else at ``dpi``."""
    plan = plan_faces(game, components)
    sizes = {c.id: c.size.name for c in components}
    return plan, render_images(game, components, list(plan.faces), lambda face: (pixels or {}).get(sizes.get(face.component, "")), dpi)


def pixels_at(face: Face, dpi: int) -> tuple[int, int]:
    """A face's pixels at ``dpi``, rounded up: never less than ``dpi`` at its printed size."""
    return math.ceil(face.width / 72 * dpi - 1e-6), math.ceil(face.height / 72 * dpi - 1e-6)


def render_images(
    game: Game, components: Sequence[Component], faces: Sequence[Face], exact: Callable[[Face], tuple[int, int] | None], dpi: int
) -> dict[str, PIL.Image.Image]:
    """Each face (of ``components``) laid out and rasterised: at the pixels
    ``exact`` gives for it, else at ``dpi``. Returns PIL images by face key."""
    return rasterise(game, components, faces, exact, dpi).images


@dataclass(frozen=True)
class Rasters:
    images: dict[str, PIL.Image.Image]
    """PIL images by face key."""
    findings: Mapping[str, Sequence[LayoutFinding]]
    """Each face's layout findings (overflow, safe zone, ...), by face key."""
    warnings: tuple[Diagnostic, ...]
    """The findings as the build's warnings, at the cards that made the faces."""


def rasterise(
    game: Game, components: Sequence[Component], faces: Sequence[Face], exact: Callable[[Face], tuple[int, int] | None], dpi: int
) -> Rasters:
    """:func:`render_images`, with the faces' layout findings: errors are raised, as a build raises them."""
    import pypdfium2 as pdfium
    from PIL import Image

    styles = list(dict.fromkeys(s for c in components for s in c.styles))
    rendered, found = render_faces(list(faces), lambda chunk: faces_html(game, chunk, styles), safe_box, scope_for(game), RenderCache(None))
    warnings = raise_errors(layout_diagnostics(components, list(faces), found, False))
    by_key = {face.key: face for face in faces}
    images: dict[str, PIL.Image.Image] = {}
    for data, keys in rendered:
        document = pdfium.PdfDocument(data)
        try:
            for index, key in enumerate(keys):
                if key is None:
                    continue
                face = by_key[key]
                target = exact(face) or pixels_at(face, dpi)
                page = document[index]
                scale = max(target[0] / page.get_width(), target[1] / page.get_height())
                image = page.render(scale=scale).to_pil().convert("RGB")
                if image.size != target:
                    image = image.resize(target, Image.Resampling.LANCZOS)
                images[face.key] = image
        finally:
            document.close()
    return Rasters(images, found, tuple(warnings))


def save_png(image: PIL.Image.Image, target: Path, dpi: int) -> bytes:
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
    return buffer.getvalue()

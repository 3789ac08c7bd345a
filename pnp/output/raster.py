"""Card faces as images: laid out by WeasyPrint, rasterised by PDFium."""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from pnp.errors import Diagnostic
from pnp.model import Component, Game
from pnp.render.cache import RenderCache
from pnp.render.layout import FacePages, render_faces
from pnp.render.document import faces_html
from pnp.render.faces import Face, FacePlan, plan_faces
from pnp.render.findings import LayoutFinding, layout_diagnostics, raise_errors, safe_box
from pnp.render.scope import scope_for

if TYPE_CHECKING:
    import PIL.Image

P = TypeVar("P")


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
    """:func:`render_images`, with the faces' layout findings: errors are
    raised, as a build raises them. Rasterised on every core (:func:`raster_pages`)."""
    styles = list(dict.fromkeys(s for c in components for s in c.styles))
    rendered, found = render_faces(list(faces), lambda chunk: faces_html(game, chunk, styles), safe_box, scope_for(game), RenderCache(None))
    warnings = raise_errors(layout_diagnostics(components, list(faces), found, False))
    by_key = {face.key: face for face in faces}
    images = raster_pages(rendered, lambda key: exact(by_key[key]) or pixels_at(by_key[key], dpi))
    return Rasters(images, found, tuple(warnings))


def raster_pages(
    rendered: FacePages, pixels: Callable[[str], tuple[int, int]], workers: int | None = None
) -> dict[str, PIL.Image.Image]:
    """Each face on the laid-out pages as an RGB image of ``pixels(key)``,
    by face key: the documents rasterised several at once on forked
    workers, up to ``workers`` (every core when None)."""
    from pnp.parallel import fork_iter

    jobs = [(index, [(page, key, pixels(key)) for page, key in enumerate(keys) if key is not None]) for index, (_, keys) in enumerate(rendered)]
    images: dict[str, PIL.Image.Image] = {}
    for pictures in fork_iter(_raster_job, jobs, workers or os.cpu_count() or 1, share=rendered, label="rasterising"):
        images.update(pictures)
    return images


def _raster_job(index: int, pages: Sequence[tuple[int, str, tuple[int, int]]]) -> list[tuple[str, PIL.Image.Image]]:
    """The faces on the ``pages`` of laid-out document ``index`` (shared by
    the parent), each (page, face key, pixels), as images. The document is
    opened here: a PDFium document must not cross a fork."""
    import pypdfium2 as pdfium
    from PIL import Image

    from pnp.parallel import shared

    data, _ = shared()[index]
    document = pdfium.PdfDocument(data)
    try:
        out = []
        for number, key, target in pages:
            page = document[number]
            scale = max(target[0] / page.get_width(), target[1] / page.get_height())
            image = page.render(scale=scale).to_pil().convert("RGB")
            if image.size != target:
                image = image.resize(target, Image.Resampling.LANCZOS)
            out.append((key, image))
        return out
    finally:
        document.close()


def png(image: PIL.Image.Image, dpi: int) -> bytes:
    """``image`` as PNG bytes, marked ``dpi``."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
    return buffer.getvalue()


def pngs(paint: Callable[[P], PIL.Image.Image], pictures: Sequence[P], dpi: int, workers: int | None = None) -> Iterator[bytes]:
    """Each of ``pictures`` painted (``paint``) and encoded (:func:`png`), in
    order, several at once on forked workers (up to ``workers``, every core
    when None); only the encoded bytes come back, one by one, so a caller
    writing each as it comes never holds them all."""
    from pnp.parallel import fork_iter

    jobs = [(index,) for index in range(len(pictures))]
    return fork_iter(_png_job, jobs, workers or os.cpu_count() or 1, share=(paint, pictures, dpi), label="writing images")


def _png_job(index: int) -> bytes:
    from pnp.parallel import shared

    paint, pictures, dpi = shared()
    return png(paint(pictures[index]), dpi)

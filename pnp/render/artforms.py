"""Each SVG picture drawn once per document, as a form XObject.

WeasyPrint draws an SVG ``<img>`` (or background) by walking its tree into
the page's content stream, every time it is used: a deck whose faces show
the same three icons parses nothing again but draws (and compresses) each
icon once per face. Here an SVG file's drawing at a given size goes into one
form XObject per document, and every use paints it with ``Do``, the same
operators as before wrapped in a form that is no transparency group (so it
composites exactly as drawing inline would) and whose box clips nothing.
:func:`pnp.pdf.shared.share_xobjects` then keeps one such form (and one
image) per output PDF, whichever document it came from.

Only documents of faces draw so (:func:`sharing`): they are imposed, where
one form serves every face; in a rulebook a picture is drawn once or twice
and a form would only add its bytes. A picture that draws text, raster
images or links keeps WeasyPrint's own way too: its text is subset per
document and its images are sized by where the page puts them, neither the
same in a form of its own. The same picture at two sizes is two forms (its
drawing starts with the scale of its size). Tied to the pinned WeasyPrint
version like :mod:`pnp.render.inspect`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, MutableMapping
from contextvars import ContextVar
from functools import cache
from types import ModuleType
from typing import Protocol

DRAWING = "art forms 2"
"""Part of the render cache's key: pages cached before art went into forms are laid out again."""

_KEPT_INLINE = frozenset({"text", "tspan", "textPath", "image", "foreignObject", "a"})
"""SVG elements whose drawing depends on the document or the page."""

_REACH = 100_000.0
"""How far past its box, in CSS pixels, a picture's form still draws (a stroke, overflow)."""

_ORIGINAL: Callable[[_Image, _Stream, float, float, object], None] | None = None
"""WeasyPrint's own ``SVGImage.draw``, once :func:`install` has replaced it."""
_SHARING: ContextVar[bool] = ContextVar("pnp_art_forms", default=False)


class _Node(Protocol):
    tag: object

    def iter(self) -> Iterator[_Node]: ...


class _Tree(Protocol):
    _etree_node: _Node


class _Svg(Protocol):
    tree: _Tree


class _Image(Protocol):
    """What pnp reads of a WeasyPrint ``SVGImage``."""

    _svg: _Svg
    _pnp_shareable: bool


class _Stream(Protocol):
    """What pnp uses of a WeasyPrint drawing stream."""

    _resources: MutableMapping[str, MutableMapping[str, object]]
    """The page's (pydyf) resource dictionary: its sub-dictionaries by name."""

    def clone(self, **changes: object) -> _Stream: ...

    def draw_x_object(self, name: str) -> None: ...


@contextlib.contextmanager
def sharing(on: bool = True) -> Iterator[None]:
    """While inside (and ``on``), documents written draw each SVG picture once, as a form."""
    token = _SHARING.set(on)
    try:
        yield
    finally:
        _SHARING.reset(token)


def install(weasyprint: ModuleType) -> None:
    """Route WeasyPrint's drawing of SVG images through :func:`_draw` (once per process)."""
    global _ORIGINAL
    images = weasyprint.images
    if _ORIGINAL is None:
        _ORIGINAL = images.SVGImage.draw
        images.SVGImage.draw = _draw


@cache
def _fontless() -> type[dict[str, object]]:
    """A resource dictionary with no fonts: WeasyPrint gives the groups inside
    a form (opacity, masks) the fonts of the form's resources, the document's
    unless the form has none, and a picture's form draws no text. Without
    them, it is the same in every document."""
    from pydyf import Dictionary

    class Fontless(Dictionary):  # type: ignore[misc]
        def __missing__(self, key: str) -> object:
            if key == "Font":
                return Dictionary()
            raise KeyError(key)

    return Fontless


def _shareable(image: _Image) -> bool:
    shareable = getattr(image, "_pnp_shareable", None)
    if shareable is None:
        root = image._svg.tree._etree_node
        shareable = not any(str(node.tag).rsplit("}", 1)[-1] in _KEPT_INLINE for node in root.iter())
        image._pnp_shareable = shareable
    return bool(shareable)


def _draw(image: _Image, stream: _Stream, width: float, height: float, style: object) -> None:
    assert _ORIGINAL is not None  # installed with it
    if not _SHARING.get() or not _shareable(image):
        _ORIGINAL(image, stream, width, height, style)
        return
    import pydyf

    resources = stream._resources
    drawn: dict[tuple[int, float, float], tuple[_Image, str]] = resources.__dict__.setdefault("_pnp_art", {})
    key = (id(image), width, height)
    if key not in drawn:
        inner = _fontless()({
            "ExtGState": pydyf.Dictionary(),
            "XObject": pydyf.Dictionary(),
            "Pattern": pydyf.Dictionary(),
            "Shading": pydyf.Dictionary(),
            "ColorSpace": resources["ColorSpace"],
        })
        extra = pydyf.Dictionary({
            "Type": "/XObject",
            "Subtype": "/Form",
            "BBox": pydyf.Array((-_REACH, -_REACH, width + _REACH, height + _REACH)),
            "Resources": inner,
        })
        form = stream.clone(resources=inner, extra=extra)
        _ORIGINAL(image, form, width, height, style)  # logs, as always, a picture that fails to draw
        name = f"pnpart{len(resources['XObject'])}"
        resources["XObject"][name] = form
        drawn[key] = (image, name)  # the image kept alive, so its id() is not reused
    stream.draw_x_object(drawn[key][1])

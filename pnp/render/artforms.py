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

A picture is drawn the same in every document (its form's resources are
its own, empty unless it uses transparency or paints), so its operators are
kept, by its SVG tree, URL and size, and a later document's form of the
same picture at the same size is given them again rather than drawn anew
(about 4 % of a face's instructions in a deck laid out in runs of about
four faces). Only a drawing that names no resource but WeasyPrint's
opacity states (a ``/ca`` or ``/CA`` alone, made again in the later form:
no pattern, shading, group, mask or colour space), that WeasyPrint said
nothing about (a warning or error goes to every document's
log), whose stylesheets have no at-rule (an ``@import`` reads another
file) and that was the first of its picture in its document (WeasyPrint
keeps a document's picture once, and a drawing may leave state in it for
the next, a ``<use>`` tree's size) is given again, and only to a picture
not drawn yet in its document: the others are drawn as before.

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
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping, MutableSequence
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

_KEPT = 64
"""How many pictures' operators :data:`_DRAWN` keeps, the least recently used dropped first."""
Shape = tuple[tuple[object, tuple[tuple[str, str], ...], "str | None", "str | None", int], ...]
"""An SVG tree as a value (see :func:`_shape`)."""
Alphas = tuple[tuple[str, tuple[tuple[str, object], ...]], ...]
"""A form's opacity states: (name, the state's entries) each."""
_DRAWN: OrderedDict[tuple[Shape, str, float, float], tuple[tuple["bytes | str", ...], Alphas]] = OrderedDict()
"""The operators and opacity states of pictures drawn (see the module's docstring), by SVG tree, URL and size, in this process."""


class _Node(Protocol):
    tag: object
    attrib: dict[str, str]
    text: str | None
    tail: str | None

    def iter(self) -> Iterator[_Node]: ...

    def __len__(self) -> int: ...


class _Tree(Protocol):
    _etree_node: _Node


class _Svg(Protocol):
    tree: _Tree
    url: str


class _Image(Protocol):
    """What pnp reads of a WeasyPrint ``SVGImage``."""

    _svg: _Svg
    _pnp_shareable: bool
    _pnp_shape: Shape | None
    _pnp_drawn: bool


class _Stream(Protocol):
    """What pnp uses of a WeasyPrint drawing stream."""

    _resources: MutableMapping[str, MutableMapping[str, object]]
    """The page's (pydyf) resource dictionary: its sub-dictionaries by name."""
    stream: MutableSequence[bytes | str]
    """The operators drawn, in order (pydyf)."""

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
        _paint(image, form, width, height, style)
        name = f"pnpart{len(resources['XObject'])}"
        resources["XObject"][name] = form
        drawn[key] = (image, name)  # the image kept alive, so its id() is not reused
    stream.draw_x_object(drawn[key][1])


def _paint(image: _Image, form: _Stream, width: float, height: float, style: object) -> None:
    """Draw ``image`` into ``form``: the operators kept for it, or drawn now
    (and kept, when they may be given again: see the module's docstring)."""
    assert _ORIGINAL is not None  # installed with it
    shape = _shape(image)
    first = not getattr(image, "_pnp_drawn", False)  # a picture drawn before may hold state from it (a <use> tree)
    image._pnp_drawn = True
    key = None if shape is None or not first else (shape, image._svg.url, width, height)
    states = form._resources["ExtGState"]
    if key is not None and key in _DRAWN:
        _DRAWN.move_to_end(key)
        operators, alphas = _DRAWN[key]
        form.stream.extend(operators)
        if alphas:
            from pydyf import Dictionary

            states.update((name, Dictionary(dict(entries))) for name, entries in alphas)
        return
    said = _Said()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(said)
    try:
        _ORIGINAL(image, form, width, height, style)  # logs, as always, a picture that fails to draw
    finally:
        logger.removeHandler(said)
    kept = _alphas_only(form._resources)
    if key is not None and kept is not None and not said.anything and all(_names_only(op, states) for op in form.stream):
        _DRAWN[key] = (tuple(form.stream), kept)
        while len(_DRAWN) > _KEPT:
            _DRAWN.popitem(last=False)


def _alphas_only(resources: MutableMapping[str, MutableMapping[str, object]]) -> Alphas | None:
    """The form's graphics states, when they are all WeasyPrint's opacity
    states (``/ca`` or ``/CA`` alone) and the form holds no other resource; else None."""
    if any(resources[kind] for kind in ("XObject", "Pattern", "Shading")):
        return None
    alphas = []
    for name, state in resources["ExtGState"].items():
        entries = tuple(state.items()) if isinstance(state, dict) else ()
        if not entries or any(key not in ("ca", "CA") or not isinstance(value, (int, float)) for key, value in entries):
            return None
        alphas.append((name, entries))
    return tuple(alphas)


def _names_only(operator: bytes | str, states: MutableMapping[str, object]) -> bool:
    """Whether an operator (with its operands) names no resource but one of
    the form's graphics states: a name is written with a ``/``."""
    if isinstance(operator, str):
        operator = operator.encode()
    if b"/" not in operator:
        return True
    name, _, rest = operator[1:].partition(b" ")
    return operator.startswith(b"/") and rest == b"gs" and name.decode() in states


def _shape(image: _Image) -> Shape | None:
    """The picture's SVG tree, which its drawing depends on, as a value: each
    element's tag, attributes, text, tail and number of children, in
    document order; None when its stylesheets hold an at-rule (what an
    ``@import`` reads could change)."""
    if not hasattr(image, "_pnp_shape"):
        shape = tuple((n.tag, tuple(n.attrib.items()), n.text, n.tail, len(n)) for n in image._svg.tree._etree_node.iter())
        at_rule = any(str(tag).rsplit("}", 1)[-1] == "style" and "@" in (text or "") for tag, _, text, _, _ in shape)
        image._pnp_shape = None if at_rule else shape
    return image._pnp_shape


class _Said(logging.Handler):
    """Whether WeasyPrint logged anything while a picture was drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.anything = False

    def emit(self, record: logging.LogRecord) -> None:
        self.anything = True

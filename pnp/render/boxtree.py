"""What pnp reads of WeasyPrint's laid-out documents, as typed protocols.

WeasyPrint is untyped; these name the attributes and methods pnp's layout
inspection reads (:mod:`pnp.render.inspect`, :mod:`pnp.render.fit`,
:mod:`pnp.render.keep`, :mod:`pnp.render.spill`, :mod:`pnp.render.paint`), so
mypy checks those reads. They are tied to the WeasyPrint release
pyproject.toml pins.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, TypedDict


class Element(Protocol):
    """The HTML element a WeasyPrint box was made for (an ElementTree element)."""

    tag: object
    """The tag name, or for a comment the function that makes comments."""
    text: str | None
    tail: str | None

    def get(self, key: str) -> str | None: ...

    def iter(self, tag: str | None = None) -> Iterator[Element]: ...

    def __iter__(self) -> Iterator[Element]: ...


class Matrix(Protocol):
    values: tuple[float, float, float, float, float, float]
    determinant: float


class Length(Protocol):
    """A computed length (``max-height``): its value in px, ``inf`` for none."""

    value: float


Style = TypedDict("Style", {
    "position": str,
    "overflow": str,
    "height": object,
    "max_height": Length,
    "visibility": str,
    "opacity": float,
    "font_family": Sequence[str],
})
"""The computed values pnp reads (WeasyPrint holds every property; CSS's
``max-height`` is ``max_height``, ``height`` is a length or ``"auto"``)."""


class Colour(Protocol):
    alpha: float


class Layer(Protocol):
    """One background layer: where it paints (x, y, width, height) and its image."""

    painting_area: tuple[float, float, float, float]
    image: object
    """None when the layer paints only its colour."""


class Background(Protocol):
    color: Colour
    layers: Sequence[Layer]


class Box(Protocol):
    """A box of the laid-out tree (a page, a block, a line, a run of text ...)."""

    element: Element | None
    element_tag: str | None
    style: Style
    children: Sequence[Box]
    text: str
    block_ellipsis: str
    position_y: float
    width: float
    height: float
    background: Background | None
    transformation_matrix: Matrix | None
    _box: Box

    def descendants(self) -> Iterator[Box]: ...

    def content_box_x(self) -> float: ...

    def content_box_y(self) -> float: ...

    def padding_box_x(self) -> float: ...

    def padding_box_y(self) -> float: ...

    def padding_width(self) -> float: ...

    def padding_height(self) -> float: ...

    def margin_width(self) -> float: ...

    def margin_height(self) -> float: ...


class Page(Protocol):
    """A page of a laid-out document."""

    _page_box: Box


class Document(Protocol):
    """A laid-out document, what ``HTML.render()`` returns: its pages can be
    looked at (and dropped) before it is written."""

    pages: Sequence[Page]

    def copy(self, pages: Sequence[Page]) -> Document: ...

    def write_pdf(self) -> bytes | None: ...

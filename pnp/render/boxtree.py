"""What pnp reads of WeasyPrint's laid-out box tree, as typed protocols.

WeasyPrint is untyped; these name the attributes and methods pnp's layout
inspection reads (:mod:`pnp.render.inspect`), so mypy checks those reads.
They are tied to the WeasyPrint release pyproject.toml pins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Element(Protocol):
    """The HTML element a WeasyPrint box was made for."""

    def get(self, key: str) -> str | None: ...


class Matrix(Protocol):
    values: tuple[float, float, float, float, float, float]


class Box(Protocol):
    """A box of the laid-out tree (a page, a block, a line, a run of text ...)."""

    element: Element | None
    element_tag: str | None
    style: Mapping[str, Any]
    """Computed values, of as many types as CSS has."""
    children: Sequence[Box]
    text: str
    block_ellipsis: str
    position_y: float
    width: float
    height: float
    background: Any
    transformation_matrix: Matrix | None
    _box: Box

    def content_box_x(self) -> float: ...

    def content_box_y(self) -> float: ...

    def padding_box_x(self) -> float: ...

    def padding_box_y(self) -> float: ...

    def padding_width(self) -> float: ...

    def padding_height(self) -> float: ...

    def margin_width(self) -> float: ...

    def margin_height(self) -> float: ...

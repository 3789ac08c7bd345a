"""Schema value types of more than one shape: a card size, a layout choice,
a preparation count, a count or ``auto``. They build no model values, so :mod:`pnp.model` can
declare its keys with them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, TypedDict

from pnp.schema.scalars import SLUG, Integer, Length
from pnp.schema.spec import INVALID, Invalid, Checker, Field, ListOf, MapOf, Record, Spec, got

if TYPE_CHECKING:
    from pnp.loading.yamlsrc import KeyPath


class AutoOrCount(Spec[int | None]):
    """A count of 1 to 50, or ``auto`` (None: as many as fit)."""

    def expected(self) -> str:
        return "a whole number from 1 to 50 or 'auto'"

    def check(self, value: object, path: KeyPath, ck: Checker) -> int | None | Invalid:
        if value == "auto":
            return None
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 50:
            return value
        return self.wrong(value, path, ck)


class SizeValue(TypedDict):
    """A checked size: its preset name (or ``custom``) and its trim in points."""

    name: str
    width: float
    height: float


class SizeSpec(Spec[SizeValue]):
    """A named card size (``poker``) or ``{width: 63.5mm, height: 88.9mm}``."""

    def __init__(self, presets: Mapping[str, tuple[float, float]] | None = None):
        self.presets = presets or {}
        self.custom = Record(
            (
                Field("width", Length(5, 600), "Trim width of the card or board."),
                Field("height", Length(5, 600), "Trim height of the card or board."),
            ),
            "a size name or {width, height}",
        )

    def expected(self) -> str:
        return f"a size name ({', '.join(self.presets)}) or {{width: 63.5mm, height: 88.9mm}}"

    def children(self) -> Iterator[tuple[str, Spec[object]]]:
        yield "", self.custom

    def check(self, value: object, path: KeyPath, ck: Checker) -> SizeValue | Invalid:
        if isinstance(value, str):
            if value in self.presets:
                width, height = self.presets[value]
                return {"name": value, "width": width, "height": height}
            return self.wrong(value, path, ck)
        checked = self.custom.check(value, path, ck)
        if checked is INVALID:
            return INVALID
        return {"name": "custom", "width": got(checked, "width", float), "height": got(checked, "height", float)}


class LayoutChoice(Spec[str | dict[object, str]]):
    """A sheet layout id for every paper, or a mapping of paper ids to layout ids."""

    def expected(self) -> str:
        return "a layout id, or a mapping of paper ids to layout ids"

    def check(self, value: object, path: KeyPath, ck: Checker) -> str | dict[object, str] | Invalid:
        if isinstance(value, str):
            return SLUG.check(value, path, ck)
        if isinstance(value, dict) and value:
            checked = MapOf(SLUG, SLUG).check(value, path, ck)
            return checked
        return self.wrong(value, path, ck)


class PrepareCount(Spec[int | dict[str, object]]):
    """How many of a thing to get: a whole number, or the printed copies of
    the components that each need one (``{copies_of: [sleeves, rings]}``)."""

    _BY_COMPONENTS = Record(
        (Field("copies_of", ListOf(SLUG, 1), "Components whose printed copies each need one (their copies are added)."),),
        "{copies_of: [component ids]}",
    )

    def expected(self) -> str:
        return "a whole number from 1 to 10000, or {copies_of: [component ids]}"

    def check(self, value: object, path: KeyPath, ck: Checker) -> int | dict[str, object] | Invalid:
        if isinstance(value, dict):
            return self._BY_COMPONENTS.check(value, path, ck)
        if isinstance(value, int) and not isinstance(value, bool):
            return Integer(1, 10_000).check(value, path, ck)
        return self.wrong(value, path, ck)

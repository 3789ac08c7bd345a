"""The scalar value types of the card-data schema: text, numbers, lengths,
choices, colours, and references to set entries and files."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.errors import PathRefused
from pnp.schema.spec import INVALID, Invalid, Checker, FileKind, Spec
from pnp.units import UnitError, parse_length, to_mm

if TYPE_CHECKING:
    from pnp.loading.yamlsrc import KeyPath


@dataclass(frozen=True)
class Text(Spec[str]):
    pattern: str | None = None
    pattern_help: str = ""
    max_length: int = 10_000

    def expected(self) -> str:
        return self.pattern_help or "text"

    def check(self, value: object, path: KeyPath, ck: Checker) -> str | Invalid:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = ck.doc.written(path, value) or str(value)  # as written: 1.10, 0123
        if not isinstance(value, str):
            return self.wrong(value, path, ck)
        if len(value) > self.max_length:
            return ck.error(path, f"text of {len(value)} characters; expected at most {self.max_length}")
        if self.pattern and not re.fullmatch(self.pattern, value):
            return self.wrong(value, path, ck)
        return value


SLUG = Text(r"[a-z0-9][a-z0-9-]*", "an id of lowercase letters, digits and hyphens (like 'crest-sleeves')", 64)
IDENT = Text(r"[a-z][a-z0-9_]*", "a name of lowercase letters, digits and underscores (like 'back_text')", 64)


COLOR = Text(r"#[0-9a-fA-F]{6}", "a colour like '#8c1c24'", 7)


@dataclass(frozen=True)
class PaletteColor(Spec[str]):
    """The name of a colour of the game's palette, or a ``#rrggbb`` colour."""

    def expected(self) -> str:
        return "a palette colour name or a colour like '#8c1c24'"

    def check(self, value: object, path: KeyPath, ck: Checker) -> str | Invalid:
        if isinstance(value, str) and value.startswith("#"):
            return COLOR.check(value, path, ck)
        known = ck.sets.get("palette", frozenset())
        if isinstance(value, str) and value in known:
            return value
        if isinstance(value, str):
            names = ", ".join(sorted(known)) or "none declared"
            return ck.error(path, f"unknown palette colour {value!r}; expected one of {names}, or a colour like '#8c1c24'")
        return self.wrong(value, path, ck)


_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")


def _leading_zero(value: object, path: KeyPath, ck: Checker) -> bool:
    """Whether the number at ``path`` is written with a leading zero (``010``),
    which YAML 1.1 readers take as octal (eight) and YAML 1.2 as decimal (ten):
    reported, since the designer's intent cannot be told."""
    written = ck.doc.written(path, value)
    if written is None or not _LEADING_ZERO.fullmatch(written):
        return False
    try:
        older = f"as {int(written, 8)} (octal)"
    except ValueError:  # 08, 09
        older = "as text"
    ck.error(path, f"{written} has a leading zero, which YAML 1.1 reads {older} and YAML 1.2 as {value}; "
                   f"expected a number written without one, like {value}")
    return True


@dataclass(frozen=True)
class Percent(Spec[float]):
    """A number from 0 to 100 (an ink percentage)."""

    def expected(self) -> str:
        return "a number from 0 to 100"

    def check(self, value: object, path: KeyPath, ck: Checker) -> float | Invalid:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            return self.wrong(value, path, ck)
        if _leading_zero(value, path, ck):
            return INVALID
        return float(value)


@dataclass(frozen=True)
class Integer(Spec[int]):
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[int, ...] = ()

    def expected(self) -> str:
        if self.choices:
            return "one of " + ", ".join(f"{c:+d}" if self.minimum is None else str(c) for c in self.choices)
        if self.minimum is not None and self.maximum is not None:
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"a whole number of at least {self.minimum}"
        if self.maximum is not None:
            return f"a whole number of at most {self.maximum}"
        return "a whole number"

    def check(self, value: object, path: KeyPath, ck: Checker) -> int | Invalid:
        if not isinstance(value, int) or isinstance(value, bool):
            return self.wrong(value, path, ck)
        if _leading_zero(value, path, ck):
            return INVALID
        if self.choices and value not in self.choices:
            return self.wrong(value, path, ck)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            return self.wrong(value, path, ck)
        return value


@dataclass(frozen=True)
class Number(Spec[float]):
    """A number, whole or not (``2``, ``0.35``), within optional bounds."""

    minimum: float | None = None
    maximum: float | None = None

    def expected(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"a number from {self.minimum:g} to {self.maximum:g}"
        if self.minimum is not None:
            return f"a number of at least {self.minimum:g}"
        if self.maximum is not None:
            return f"a number of at most {self.maximum:g}"
        return "a number"

    def check(self, value: object, path: KeyPath, ck: Checker) -> float | Invalid:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return self.wrong(value, path, ck)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            return self.wrong(value, path, ck)
        return value


@dataclass(frozen=True)
class Boolean(Spec[bool]):
    def expected(self) -> str:
        return "true or false"

    def check(self, value: object, path: KeyPath, ck: Checker) -> bool | Invalid:
        return value if isinstance(value, bool) else self.wrong(value, path, ck)


@dataclass(frozen=True)
class Choice(Spec[str]):
    choices: tuple[str, ...]

    def expected(self) -> str:
        return "one of " + ", ".join(repr(c) for c in self.choices)

    def check(self, value: object, path: KeyPath, ck: Checker) -> str | Invalid:
        return value if isinstance(value, str) and value in self.choices else self.wrong(value, path, ck)


@dataclass(frozen=True)
class Length(Spec[float]):
    """A length with a unit, converted to points."""

    minimum_mm: float = 0.0
    maximum_mm: float = 1000.0

    def expected(self) -> str:
        return f"a length with a unit (mm, cm, in or pt) from {self.minimum_mm:g}mm to {self.maximum_mm:g}mm"

    def check(self, value: object, path: KeyPath, ck: Checker) -> float | Invalid:
        try:
            points = parse_length(value)
        except UnitError as exc:
            return ck.error(path, str(exc))
        if not self.minimum_mm <= to_mm(points) <= self.maximum_mm:
            return self.wrong(value, path, ck)
        return points


@dataclass(frozen=True)
class Ref(Spec[str]):
    """The id of an entry of one of the game's sets (a symbol, a crest ...)."""

    set_name: str

    def expected(self) -> str:
        return f"the id of one of the game's {self.set_name}"

    def check(self, value: object, path: KeyPath, ck: Checker) -> str | Invalid:
        known = ck.sets.get(self.set_name)
        if not isinstance(value, str):
            return self.wrong(value, path, ck)
        if known is None:
            return ck.error(path, f"the game defines no set named {self.set_name!r}")
        if value not in known:
            names = ", ".join(sorted(known)) or "none"
            return ck.error(path, f"unknown {self.set_name[:-1] if self.set_name.endswith('s') else self.set_name} {value!r}; expected one of {names}")
        return value


@dataclass(frozen=True)
class FileRef(Spec[Path | str]):
    """A path to a file of one kind (template, art, font, data), which must exist."""

    kind: FileKind

    def expected(self) -> str:
        return f"the path of a {self.kind} file"

    def check(self, value: object, path: KeyPath, ck: Checker) -> Path | str | Invalid:
        if not isinstance(value, str) or not value:
            return self.wrong(value, path, ck)
        if ck.find_file is None:
            return value
        try:
            found = ck.find_file(self.kind, value)
        except PathRefused as exc:
            return ck.error(path, f"{self.kind} file {value!r} refused: {exc}; expected a file inside the game folder")
        if found is None:
            return ck.error(path, f"{self.kind} file {value!r} not found (looked in the game folder, the folders it shares and the project)")
        if self.kind == "art":
            from pnp.errors import ImageRefused
            from pnp.images import check_image

            try:
                check_image(found)
            except ImageRefused as exc:
                return ck.error(path, f"art file {value!r} refused: {exc}")
        if self.kind == "font":
            from pnp.fontfiles import FontRefused, check_font

            try:
                check_font(found)
            except FontRefused as exc:
                return ck.error(path, f"font file {value!r} refused: {exc}")
        return found

"""The value types of the card-data schema, each able to check and convert.

A spec checks a YAML value found at a key path, reports what is wrong through
a :class:`Checker` (collecting every problem rather than stopping at the
first), and returns the converted value, or :data:`INVALID`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.errors import Diagnostic, Level
from pnp.loading.yamlsrc import Document, KeyPath, dotted
from pnp.units import UnitError, parse_length, to_mm


class _Invalid:
    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()
"""Returned by a spec for a value it reported as wrong."""


@dataclass
class Checker:
    """Collects diagnostics for one document and knows the game's vocabulary."""

    doc: Document
    diagnostics: list[Diagnostic]
    sets: Mapping[str, frozenset[str]] = field(default_factory=dict)
    find_file: Callable[[str, str], Path | None] | None = None

    def error(self, path: KeyPath, message: str) -> Any:
        self.diagnostics.append(self.doc.error(path, message))
        return INVALID

    def warn(self, path: KeyPath, message: str) -> None:
        self.diagnostics.append(Diagnostic(self.doc.source(path), dotted(path), message, Level.WARNING))


def _found(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


class Spec:
    """A value type. Subclasses implement :meth:`check` and :meth:`expected`."""

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        raise NotImplementedError

    def expected(self) -> str:
        raise NotImplementedError

    def wrong(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        return ck.error(path, f"expected {self.expected()}, found {_found(value)}")

    def children(self) -> Iterator[tuple[str, Spec]]:
        """Nested specs, for walking the schema (documentation tests)."""
        return iter(())


@dataclass(frozen=True)
class Text(Spec):
    pattern: str | None = None
    pattern_help: str = ""
    max_length: int = 10_000

    def expected(self) -> str:
        return self.pattern_help or "text"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = ck.doc.raw.get(path, str(value))  # as written: 1.10, 0123
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
class PaletteColor(Spec):
    """The name of a colour of the game's palette, or a ``#rrggbb`` colour."""

    def expected(self) -> str:
        return "a palette colour name or a colour like '#8c1c24'"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, str) and value.startswith("#"):
            return COLOR.check(value, path, ck)
        known = ck.sets.get("palette", frozenset())
        if isinstance(value, str) and value in known:
            return value
        if isinstance(value, str):
            names = ", ".join(sorted(known)) or "none declared"
            return ck.error(path, f"unknown palette colour {value!r}; expected one of {names}, or a colour like '#8c1c24'")
        return self.wrong(value, path, ck)


@dataclass(frozen=True)
class Percent(Spec):
    """A number from 0 to 100 (an ink percentage)."""

    def expected(self) -> str:
        return "a number from 0 to 100"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            return self.wrong(value, path, ck)
        return float(value)


@dataclass(frozen=True)
class Integer(Spec):
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
        return "a whole number"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            return self.wrong(value, path, ck)
        if self.choices and value not in self.choices:
            return self.wrong(value, path, ck)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            return self.wrong(value, path, ck)
        return value


@dataclass(frozen=True)
class Boolean(Spec):
    def expected(self) -> str:
        return "true or false"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        return value if isinstance(value, bool) else self.wrong(value, path, ck)


@dataclass(frozen=True)
class Choice(Spec):
    choices: tuple[str, ...]

    def expected(self) -> str:
        return "one of " + ", ".join(repr(c) for c in self.choices)

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        return value if isinstance(value, str) and value in self.choices else self.wrong(value, path, ck)


@dataclass(frozen=True)
class Length(Spec):
    """A length with a unit, converted to points."""

    minimum_mm: float = 0.0
    maximum_mm: float = 1000.0

    def expected(self) -> str:
        return f"a length with a unit (mm, cm, in or pt) from {self.minimum_mm:g}mm to {self.maximum_mm:g}mm"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        try:
            points = parse_length(value)
        except UnitError as exc:
            return ck.error(path, str(exc))
        if not self.minimum_mm <= to_mm(points) <= self.maximum_mm:
            return self.wrong(value, path, ck)
        return points


@dataclass(frozen=True)
class Ref(Spec):
    """The id of an entry of one of the game's sets (a symbol, a crest ...)."""

    set_name: str

    def expected(self) -> str:
        return f"the id of one of the game's {self.set_name}"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
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
class FileRef(Spec):
    """A path to a file of one kind (template, art, font, data), which must exist."""

    kind: str

    def expected(self) -> str:
        return f"the path of a {self.kind} file"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if not isinstance(value, str) or not value:
            return self.wrong(value, path, ck)
        if ck.find_file is None:
            return value
        found = ck.find_file(self.kind, value)
        if found is None:
            return ck.error(path, f"{self.kind} file {value!r} not found (looked in the game folder and the project)")
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


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    min_length: int = 0
    max_length: int = 100_000

    def expected(self) -> str:
        return f"a list of {self.item.expected()}"

    def children(self) -> Iterator[tuple[str, Spec]]:
        yield "[]", self.item

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if not isinstance(value, list):
            return self.wrong(value, path, ck)
        if not self.min_length <= len(value) <= self.max_length:
            return ck.error(path, f"{len(value)} items; expected {_count(self.min_length, self.max_length)}")
        out = [self.item.check(v, (*path, i), ck) for i, v in enumerate(value)]
        return INVALID if any(v is INVALID for v in out) else tuple(out)


@dataclass(frozen=True)
class MapOf(Spec):
    """A mapping whose keys and values follow specs, e.g. symbol id -> +1/-1."""

    key: Spec
    value: Spec
    min_length: int = 0
    max_length: int = 100_000

    def expected(self) -> str:
        return f"a mapping of {self.key.expected()} to {self.value.expected()}"

    def children(self) -> Iterator[tuple[str, Spec]]:
        yield "<key>", self.key
        yield "<value>", self.value

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if not isinstance(value, dict):
            return self.wrong(value, path, ck)
        if not self.min_length <= len(value) <= self.max_length:
            return ck.error(path, f"{len(value)} entries; expected {_count(self.min_length, self.max_length)}")
        out = {}
        bad = False
        for k, v in value.items():
            ck_key = self.key.check(k, (*path, k), ck)
            ck_value = self.value.check(v, (*path, k), ck)
            bad = bad or ck_key is INVALID or ck_value is INVALID
            out[k] = ck_value
        return INVALID if bad else out


def _count(low: int, high: int) -> str:
    if low == high:
        return f"exactly {low}"
    if high >= 100_000:
        return f"at least {low}"
    return f"{low} to {high}"


_REQUIRED = object()


@dataclass(frozen=True)
class Field:
    """One key of a record: its type, its documentation and its default."""

    name: str
    spec: Spec
    doc: str
    default: Any = _REQUIRED

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED


@dataclass(frozen=True)
class Record(Spec):
    """A mapping with known keys. Unknown keys are warnings (errors under --strict)."""

    fields: tuple[Field, ...]
    what: str = "a mapping"

    def expected(self) -> str:
        return self.what

    def children(self) -> Iterator[tuple[str, Spec]]:
        for f in self.fields:
            yield f.name, f.spec

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        out = self.check_fields(value, path, ck)
        if out is INVALID or any(v is INVALID for v in out.values()):
            return INVALID
        return out

    def check_fields(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        """Like :meth:`check`, but keep the good fields; bad ones are INVALID."""
        if not isinstance(value, dict):
            return self.wrong(value, path, ck)
        known = {f.name for f in self.fields}
        for key in value:
            if key not in known:
                ck.warn((*path, key), f"unknown key {key!r} is ignored; expected one of {', '.join(sorted(known))}")
        out: dict[str, Any] = {}
        for f in self.fields:
            if f.name not in value or (value[f.name] is None and not f.required):
                if f.required:
                    ck.error(path, f"missing required key {f.name!r}: {f.doc}")
                    out[f.name] = INVALID
                else:
                    out[f.name] = f.default
                continue
            out[f.name] = f.spec.check(value[f.name], (*path, f.name), ck)
        return out


@dataclass(frozen=True)
class Variant(Spec):
    """A mapping whose ``tag`` key picks which record it is (a tagged union):
    ``{type: draw, count: 2}`` is checked against the ``draw`` variant."""

    tag: str
    variants: tuple[tuple[str, Record], ...]

    def expected(self) -> str:
        return f"a mapping with {self.tag!r} one of {', '.join(repr(n) for n, _ in self.variants)}"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if not isinstance(value, dict):
            return self.wrong(value, path, ck)
        chosen = value.get(self.tag)
        records = dict(self.variants)
        if chosen not in records:
            names = ", ".join(repr(n) for n in records)
            if self.tag not in value:
                return ck.error(path, f"missing {self.tag!r}; expected one of {names}")
            return ck.error((*path, self.tag), f"unknown {self.tag} {chosen!r}; expected one of {names}")
        rest = {k: v for k, v in value.items() if k != self.tag}
        checked = records[chosen].check(rest, path, ck)
        return INVALID if checked is INVALID else {self.tag: chosen, **checked}


def walk(spec: Spec, prefix: str = "") -> Iterator[tuple[str, Field]]:
    """Every record field below ``spec`` with its dotted schema path."""
    if isinstance(spec, Record):
        for f in spec.fields:
            here = f"{prefix}.{f.name}" if prefix else f.name
            yield here, f
            yield from walk(f.spec, here)
    else:
        for name, child in spec.children():
            if name == "[]":
                yield from walk(child, prefix + "[]")
            elif name == "<value>":
                yield from walk(child, prefix + ".NAME")
            elif name != "<key>":
                yield from walk(child, prefix)

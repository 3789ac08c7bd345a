"""The value types of the card-data schema, each able to check and convert.

A spec checks a YAML value found at a key path, reports what is wrong through
a :class:`Checker` (collecting every problem rather than stopping at the
first), and returns the converted value, or :data:`INVALID`.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, TypeVar, Union

from pnp.errors import Diagnostic, Level

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from pnp.loading.yamlsrc import Document, KeyPath


class Invalid(Enum):
    INVALID = "INVALID"

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Final = Invalid.INVALID
"""Returned by a spec for a value it reported as wrong."""


FileKind = Literal["template", "style", "art", "font", "data"]
"""The kinds of file a game folder names, each looked for in its own folders."""


@dataclass
class Checker:
    """Collects diagnostics for one document and knows the game's vocabulary."""

    doc: Document
    diagnostics: list[Diagnostic]
    sets: Mapping[str, frozenset[str]] = field(default_factory=dict)
    find_file: Callable[[FileKind, str], Path | None] | None = None
    rules: object = None
    """The game's checked ``rules:`` values, once known (INVALID after an error)."""

    def error(self, path: KeyPath, message: str) -> Invalid:
        """Report a problem at ``path``; :data:`INVALID`, which a check returns."""
        self.diagnostics.append(self.doc.error(path, message))
        return INVALID

    def warn(self, path: KeyPath, message: str) -> None:
        self.diagnostics.append(Diagnostic(self.doc.source(path), self.doc.key(path), message, Level.WARNING))


def _found(value: object) -> str:
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")
V = TypeVar("V")


class Spec(Generic[T_co]):
    """A value type, checking YAML values into ``T_co``. Subclasses implement
    :meth:`check` and :meth:`expected`."""

    def check(self, value: object, path: KeyPath, ck: Checker) -> T_co | Invalid:
        raise NotImplementedError

    def expected(self) -> str:
        raise NotImplementedError

    def wrong(self, value: object, path: KeyPath, ck: Checker) -> Invalid:
        """An error: what was expected, and the value found as written (``1e3``, not ``1000.0``)."""
        return ck.error(path, f"expected {self.expected()}, found {ck.doc.written(path, value) or _found(value)}")

    def children(self) -> Iterator[tuple[str, Spec[object]]]:
        """Nested specs, for walking the schema (documentation tests)."""
        return iter(())


@dataclass(frozen=True)
class ListOf(Spec[tuple[T, ...]]):
    item: Spec[T]
    min_length: int = 0
    max_length: int = 100_000

    def expected(self) -> str:
        return f"a list of {self.item.expected()}"

    def children(self) -> Iterator[tuple[str, Spec[object]]]:
        yield "[]", self.item

    def check(self, value: object, path: KeyPath, ck: Checker) -> tuple[T, ...] | Invalid:
        if not isinstance(value, list):
            return self.wrong(value, path, ck)
        if not self.min_length <= len(value) <= self.max_length:
            return ck.error(path, f"{len(value)} items; expected {_count(self.min_length, self.max_length)}")
        out = [self.item.check(v, (*path, i), ck) for i, v in enumerate(value)]
        good = tuple(v for v in out if v is not INVALID)
        return INVALID if len(good) < len(out) else good


@dataclass(frozen=True)
class MapOf(Spec[dict[object, V]]):
    """A mapping whose keys and values follow specs, e.g. symbol id -> +1/-1."""

    key: Spec[object]
    value: Spec[V]
    min_length: int = 0
    max_length: int = 100_000

    def expected(self) -> str:
        return f"a mapping of {self.key.expected()} to {self.value.expected()}"

    def children(self) -> Iterator[tuple[str, Spec[object]]]:
        yield "<key>", self.key
        yield "<value>", self.value

    def check(self, value: object, path: KeyPath, ck: Checker) -> dict[object, V] | Invalid:
        if not isinstance(value, dict):
            return self.wrong(value, path, ck)
        if not self.min_length <= len(value) <= self.max_length:
            return ck.error(path, f"{len(value)} entries; expected {_count(self.min_length, self.max_length)}")
        out: dict[object, V] = {}
        bad = False
        for k, v in value.items():
            ck_key = self.key.check(k, (*path, k), ck)
            ck_value = self.value.check(v, (*path, k), ck)
            bad = bad or ck_key is INVALID or ck_value is INVALID
            if ck_value is not INVALID:
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
    spec: Spec[object]
    doc: str
    default: object = _REQUIRED
    attr: str | None = None
    """The attribute of the model class the key fills, when it is not ``name``."""

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED


_KEY = "pnp.key"


def key(spec: Spec[object], doc: str, default: object = _REQUIRED, *, name: str | None = None, compare: bool = True, repr: bool = True) -> Any:
    """A model attribute that is also a key of the card-data schema: declared
    once, with its value type, documentation and default (a mutable default
    is copied for each value made without it). ``name`` is the YAML key when
    it differs from the attribute (``style`` fills ``styles``).
    :meth:`ModelRecord.of` reads these.

    Like :func:`dataclasses.field`, whose typeshed signature it follows, its
    result is typed to fit any attribute: it stands for the default, of any
    type, and the loader fills some attributes (a size worked out from a net)."""
    meta = {_KEY: Field(name or "", spec, doc, default)}
    if default is _REQUIRED:
        return field(metadata=meta, compare=compare, repr=repr)
    if getattr(type(default), "__hash__", None) is None:
        return field(default_factory=lambda: copy.copy(default), metadata=meta, compare=compare, repr=repr)
    return field(default=default, metadata=meta, compare=compare, repr=repr)


@dataclass(frozen=True)
class Keys(Spec[T_co]):
    """A mapping with known keys. Unknown keys are warnings (errors under --strict)."""

    fields: tuple[Field, ...]
    what: str = "a mapping"

    def expected(self) -> str:
        return self.what

    def children(self) -> Iterator[tuple[str, Spec[object]]]:
        for f in self.fields:
            yield f.name, f.spec

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def checked(self, value: object, path: KeyPath, ck: Checker) -> dict[str, object] | Invalid:
        """The value of each key, checked; INVALID when any is wrong."""
        out = self.check_fields(value, path, ck)
        if out is INVALID or any(v is INVALID for v in out.values()):
            return INVALID
        return out

    def check_fields(self, value: object, path: KeyPath, ck: Checker) -> dict[str, object] | Invalid:
        """Like :meth:`checked`, but keep the good fields; bad ones are INVALID."""
        if not isinstance(value, dict):
            return self.wrong(value, path, ck)
        known = {f.name for f in self.fields}
        for key in value:
            if key not in known:
                ck.warn((*path, key), f"unknown key {key!r} is ignored; expected one of {', '.join(sorted(known))}")
        out: dict[str, object] = {}
        for f in self.fields:
            if f.name not in value or (value[f.name] is None and not f.required):
                if f.required:
                    if ck.doc.sheet is not None:  # a spreadsheet: the empty cell is the place
                        ck.error((*path, f.name), f"empty cell; every row needs a value here: {f.doc}")
                    else:
                        ck.error(path, f"missing required key {f.name!r}: {f.doc}")
                    out[f.name] = INVALID
                else:
                    out[f.name] = f.default
                continue
            out[f.name] = f.spec.check(value[f.name], (*path, f.name), ck)
        return out


@dataclass(frozen=True)
class Record(Keys[dict[str, object]]):
    """A mapping with known keys, checked into a dict of their values."""

    def check(self, value: object, path: KeyPath, ck: Checker) -> dict[str, object] | Invalid:
        return self.checked(value, path, ck)


@dataclass(frozen=True)
class Variant(Spec[dict[str, object]]):
    """A mapping whose ``tag`` key picks which record it is (a tagged union):
    ``{type: draw, count: 2}`` is checked against the ``draw`` variant."""

    tag: str
    variants: tuple[tuple[str, Record], ...]

    def expected(self) -> str:
        return f"a mapping with {self.tag!r} one of {', '.join(repr(n) for n, _ in self.variants)}"

    def check(self, value: object, path: KeyPath, ck: Checker) -> dict[str, object] | Invalid:
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


def got(checked: Mapping[str, object], name: str, kind: type[V]) -> V:
    """``checked[name]``, which its key's spec made a ``kind``: how the loader
    reads a checked record's values as the types their specs give."""
    value = checked[name]
    if not isinstance(value, kind):
        raise TypeError(f"{name!r} was checked into {value!r}, not {kind.__name__}")
    return value


M = TypeVar("M", bound="DataclassInstance")


@dataclass(frozen=True)
class ModelRecord(Keys[Union[M, dict[str, object]]], Generic[M]):
    """A record whose keys are the :func:`key` attributes of a frozen model
    class, and which builds that class: :meth:`check` returns the model value
    itself, or, with ``by_loader``, the checked keys, for the loader to
    :meth:`build` with what only it knows (where the value came from ...);
    the loader asks for those keys with :meth:`Keys.checked`."""

    model: type[M] | None = None
    by_loader: bool = False

    @classmethod
    def of(
        cls, model: type[M], what: str, also: tuple[tuple[str | None, Field], ...] = (), by_loader: bool = False
    ) -> ModelRecord[M]:
        """The record of ``model``'s keys, in declaration order; ``also`` adds
        keys the loader reads but the model does not keep, each after the key
        named (None: first)."""
        fields = [
            dataclasses.replace(f.metadata[_KEY], name=f.metadata[_KEY].name or f.name, attr=f.name)
            for f in dataclasses.fields(model)
            if _KEY in f.metadata
        ]
        for after, extra in also:
            fields.insert(0 if after is None else next(i for i, f in enumerate(fields) if f.name == after) + 1, extra)
        return cls(tuple(fields), what, model, by_loader)

    def with_spec(self, name: str, spec: Spec[object]) -> ModelRecord[M]:
        """The same record with the key ``name`` checked by ``spec``."""
        fields = tuple(dataclasses.replace(f, spec=spec) if f.name == name else f for f in self.fields)
        return dataclasses.replace(self, fields=fields)

    def build(self, checked: Mapping[str, object], **context: object) -> M:
        """The model value of checked keys; ``context`` gives the attributes
        that are not keys, and overrides keys the loader converts further."""
        assert self.model is not None
        kept = {f.name for f in dataclasses.fields(self.model) if f.init}
        values = {f.attr or f.name: checked[f.name] for f in self.fields if (f.attr or f.name) in kept}
        return self.model(**{**values, **context})

    def check(self, value: object, path: KeyPath, ck: Checker) -> M | dict[str, object] | Invalid:
        out = self.checked(value, path, ck)
        return out if out is INVALID or self.by_loader else self.build(out)


class AnyValue(Spec[object]):
    """A YAML value of any kind; checked later by the code that knows what it means."""

    def expected(self) -> str:
        return "a value"

    def check(self, value: object, path: KeyPath, ck: Checker) -> object | Invalid:
        return value


def walk(spec: Spec[object], prefix: str = "") -> Iterator[tuple[str, Field]]:
    """Every record field below ``spec`` with its dotted schema path."""
    if isinstance(spec, Keys):
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

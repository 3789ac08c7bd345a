"""Hidden information: walk everything reachable from an observation (and the
decision an agent is given), find what an agent could change in place, and
compare observations and decisions by value (a determinized state must give
the seat the same decision it saw)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import cast

from pnp.engine.api import Decision

IMMUTABLE = (int, float, str, bool, type(None), bytes)

Canon = str | int | float | bool | None | Sequence["Canon"]
"""An observation's values as :func:`canon` gives them: comparable, and sortable beside each other."""


def reachable(root: object, skip: Callable[[object], bool]) -> Iterator[tuple[str, object]]:
    """Every object reachable from ``root`` with the path to it; ``skip(obj)``
    yields the object but does not look inside it."""
    seen: set[int] = set()
    stack: list[tuple[str, object]] = [("obs", root)]
    while stack:
        path, obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield path, obj
        if isinstance(obj, IMMUTABLE) or skip(obj):
            continue
        if isinstance(obj, (dict, MappingProxyType)):
            for k, v in obj.items():
                stack += [(f"{path}[key {k!r}]", k), (f"{path}[{k!r}]", v)]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack += [(f"{path}[{i}]", v) for i, v in enumerate(obj)]
        elif dataclasses.is_dataclass(obj):
            stack += [(f"{path}.{f.name}", getattr(obj, f.name)) for f in dataclasses.fields(obj)]
        else:
            slots = [s for klass in type(obj).__mro__ for s in getattr(klass, "__slots__", ())]
            names = list(getattr(obj, "__dict__", {})) + [s for s in slots if hasattr(obj, s)]
            if not names:
                raise AssertionError(f"{path}: cannot look inside a {type(obj).__name__}")
            stack += [(f"{path}.{n}", getattr(obj, n)) for n in names]


def writable(obj: object) -> bool:
    """Can an agent change ``obj`` in place? A list, dict, set or bytearray,
    or an object whose attributes can be set (a frozen dataclass's cannot)."""
    if isinstance(obj, (list, dict, set, bytearray)):
        return True
    if isinstance(obj, (*IMMUTABLE, tuple, frozenset, MappingProxyType)):
        return False
    if dataclasses.is_dataclass(obj):
        return not getattr(type(obj), "__dataclass_params__").frozen
    setter: object = type(obj).__setattr__
    settable = setter is object.__setattr__
    slots = [s for klass in type(obj).__mro__ for s in getattr(klass, "__slots__", ())]
    return settable and (hasattr(obj, "__dict__") or bool(slots))


def mutable_parts(root: object, own: Callable[[object], bool] = lambda o: False) -> list[str]:
    """The path to everything reachable from ``root`` an agent could change in
    place; ``own(obj)``: the agent's own (its notebook), neither reported nor walked."""
    return [path for path, obj in reachable(root, own) if not own(obj) and writable(obj)]


def canon(value: object, depth: int = 0) -> Canon:
    """A comparable copy of an observation: its values, not its objects (a
    seat's own notebook, ``notes``, left out: the agent writes it)."""
    assert depth < 60, "an observation nested this deep holds a cycle"
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, Mapping):
        return ("map", sorted((repr(canon(k, depth + 1)), canon(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, (frozenset, set)):
        return ("set", sorted(repr(canon(v, depth + 1)) for v in value))
    if isinstance(value, (list, tuple)):
        return tuple(canon(v, depth + 1) for v in value)
    if dataclasses.is_dataclass(value):
        return (type(value).__name__, tuple((f.name, canon(getattr(value, f.name), depth + 1)) for f in dataclasses.fields(value) if f.name != "notes"))
    if hasattr(value, "__len__") and hasattr(value, "__getitem__"):  # a lazy option sequence
        return tuple(canon(v, depth + 1) for v in cast(Iterable[object], value))
    slots = [s for cls in type(value).__mro__ for s in getattr(cls, "__slots__", ())]
    attrs = {**{s: getattr(value, s) for s in slots if hasattr(value, s)}, **getattr(value, "__dict__", {})}
    return (type(value).__name__, sorted((k, canon(v, depth + 1)) for k, v in attrs.items() if k != "notes"))


def same_decision(a: Decision, b: Decision) -> bool:
    """Whether two decisions are the same to the agent given them: seat, kind,
    options and context, by value (:func:`canon`)."""
    return (a.seat, a.kind, canon(list(a.options)), canon(dict(a.context))) == (b.seat, b.kind, canon(list(b.options)), canon(dict(b.context)))

"""Walk everything reachable from an observation (and the decision an agent is
given): what the hidden-information tests of both engines share."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any

IMMUTABLE = (int, float, str, bool, type(None), bytes)


def reachable(root: Any, skip: Callable[[Any], bool]) -> Iterator[tuple[str, Any]]:
    """Every object reachable from ``root`` with the path to it; ``skip(obj)``
    yields the object but does not look inside it."""
    seen: set[int] = set()
    stack: list[tuple[str, Any]] = [("obs", root)]
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


def writable(obj: Any) -> bool:
    """Can an agent change ``obj`` in place? A list, dict, set or bytearray,
    or an object whose attributes can be set (a frozen dataclass's cannot)."""
    if isinstance(obj, (list, dict, set, bytearray)):
        return True
    if isinstance(obj, (*IMMUTABLE, tuple, frozenset, MappingProxyType)):
        return False
    if dataclasses.is_dataclass(obj):
        return not type(obj).__dataclass_params__.frozen  # type: ignore[attr-defined]
    settable = type(obj).__setattr__ is object.__setattr__
    slots = [s for klass in type(obj).__mro__ for s in getattr(klass, "__slots__", ())]
    return settable and (hasattr(obj, "__dict__") or bool(slots))


def mutable_parts(root: Any, own: Callable[[Any], bool] = lambda o: False) -> list[str]:
    """The path to everything reachable from ``root`` an agent could change in
    place; ``own(obj)``: the agent's own (its notebook), neither reported nor walked."""
    return [path for path, obj in reachable(root, own) if not own(obj) and writable(obj)]

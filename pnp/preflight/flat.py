"""What PDF/X-1a forbids in a page: transparency (transparency groups, soft masks,
opacity below 1, blend modes other than Normal) and colour that is not device
colour (ICC-based, CalRGB, CalGray, Lab; RGB itself is the ``colour`` check's).

Unlike the content walk, this reads every resource a page, its forms, patterns,
annotations' appearances and Type3 glyphs list, used or not: X-1a validators
reject a soft mask a file carries even where nothing draws it. Each object is read
once per page; the findings name what was found and the resource path to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import pikepdf
from pikepdf import Name

_CIE = {"/ICCBased": "ICC-based", "/CalRGB": "CalRGB", "/CalGray": "CalGray", "/Lab": "Lab"}
_NORMAL = ("/Normal", "/Compatible")

Found = tuple[Literal["transparency", "colour"], str]
"""What kind of thing was found, and a description naming where."""


def flat_problems(page: pikepdf.Object) -> list[str]:
    """What in ``page`` (its dictionary) PDF/X-1a forbids, each once, in the order found."""
    return list(dict.fromkeys(text for _, text in _page(page, set())))


def transparency(page: pikepdf.Object) -> list[str]:
    """The transparency ``page`` carries (the part of :func:`flat_problems` flattening removes)."""
    return list(dict.fromkeys(text for kind, text in _page(page, set()) if kind == "transparency"))


def _page(page: pikepdf.Object, seen: set[tuple[int, int]]) -> Iterator[Found]:
    yield from _group(page, "the page")
    yield from _resources(page.get(Name.Resources), "", seen)
    for annotation in page.get(Name.Annots, ()):
        appearance = annotation.get(Name.AP) if isinstance(annotation, pikepdf.Dictionary) else None
        if isinstance(appearance, pikepdf.Dictionary):
            for state in appearance.values():
                if isinstance(state, pikepdf.Stream):
                    yield from _xobject(state, "annotation appearance", seen)


def _resources(resources: object, where: str, seen: set[tuple[int, int]]) -> Iterator[Found]:
    if not isinstance(resources, pikepdf.Dictionary):
        return
    for key, state in resources.get(Name.ExtGState, {}).items():
        yield from _state(state, f"{where}{key}")
    for key, space in resources.get(Name.ColorSpace, {}).items():
        yield from _space(space, f"{where}{key}")
    for key, shading in resources.get(Name.Shading, {}).items():
        yield from _space(shading.get(Name.ColorSpace), f"{where}{key}")
    for kind in (Name.XObject, Name.Pattern, Name.Font):
        for key, obj in resources.get(kind, {}).items():
            yield from _xobject(obj, f"{where}{key}", seen)


def _xobject(obj: pikepdf.Object, where: str, seen: set[tuple[int, int]]) -> Iterator[Found]:
    """An image, form, pattern or Type3 font, and what it contains."""
    if obj.is_indirect:
        if obj.objgen in seen:
            return
        seen.add(obj.objgen)
    if obj.get(Name.Subtype) == Name.Image:
        if obj.get(Name.SMask) is not None or obj.get(Name.SMaskInData, 0) != 0:
            yield "transparency", f"soft mask on image {where}"
        yield from _space(obj.get(Name.ColorSpace), where)
        return
    yield from _group(obj, where)
    shading = obj.get(Name.Shading)
    if isinstance(shading, (pikepdf.Dictionary, pikepdf.Stream)):
        yield from _space(shading.get(Name.ColorSpace), where)
    yield from _state(obj.get(Name.ExtGState), where)
    yield from _resources(obj.get(Name.Resources), f"{where} > ", seen)


def _group(obj: pikepdf.Object, where: str) -> Iterator[Found]:
    group = obj.get(Name.Group)
    if isinstance(group, pikepdf.Dictionary) and group.get(Name.S) == Name.Transparency:
        yield "transparency", f"transparency group on {where}"


def _state(state: object, where: str) -> Iterator[Found]:
    if not isinstance(state, pikepdf.Dictionary):
        return
    mask = state.get(Name.SMask)
    if mask is not None and mask != Name("/None"):
        yield "transparency", f"soft mask in graphics state {where}"
    for key in (Name.CA, Name.ca):
        value = state.get(key)
        if value is not None and float(value) < 1:
            yield "transparency", f"opacity {float(value):g} in graphics state {where}"
    mode = state.get(Name.BM)
    modes = list(mode) if isinstance(mode, pikepdf.Array) else [mode]
    if mode is not None and not any(str(m) in _NORMAL for m in modes):
        yield "transparency", f"blend mode {modes[0]} in graphics state {where}"


def _space(space: object, where: str, depth: int = 0) -> Iterator[Found]:
    if depth > 4 or not isinstance(space, pikepdf.Array) or len(space) == 0:
        return
    family = str(space[0])
    if family in _CIE:
        yield "colour", f"colour space {where} is {_CIE[family]}"
    elif family in ("/Indexed", "/I", "/Pattern") and len(space) > 1:
        yield from _space(space[1], where, depth + 1)
    elif family in ("/Separation", "/DeviceN") and len(space) > 2:
        yield from _space(space[2], where, depth + 1)

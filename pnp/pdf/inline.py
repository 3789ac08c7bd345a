"""A face drawn once, straight into its sheet's content stream.

A face placed once in a PDF gains nothing from being a form XObject of its
own: each form is a stream compressed by itself, where a sheet's faces, in
one stream, compress together (the 60 fronts of a poker deck: 31.5 KB as
forms, 9.4 KB in their seven sheets' streams). :func:`inline_face` gives the operators of a face's
form to draw in the sheet's stream instead of ``Do``, and adds the
resources they name to the sheet's, renaming any whose name the sheet
already gives something else.

A face keeps its form (None) when drawing it inline could draw differently:
its content paints with a pattern (a pattern's matrix is reckoned from the
space of the stream that uses it: the form's, not the page's), holds an
inline image, does not parse, or restores more graphics states than it
saves (or leaves some saved), or its form is a transparency group.
"""

from __future__ import annotations

from collections.abc import Sequence

import pikepdf

_NAMED = {"Tf": ("/Font", 0), "gs": ("/ExtGState", 0), "Do": ("/XObject", 0), "sh": ("/Shading", 0),
          "cs": ("/ColorSpace", 0), "CS": ("/ColorSpace", 0), "BDC": ("/Properties", 1), "DP": ("/Properties", 1)}
"""Operators naming a resource: the kind of resource and which operand names it."""
_READ = " ".join([*_NAMED, "q", "Q", "scn", "SCN", "BI", "ID", "EI"])
"""The operators :func:`_named` reads (the others are left unparsed into Python: most of a face's)."""
_DEVICE = frozenset({"/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern"})
"""Colour spaces ``cs`` names without a resource."""


def inline_face(form: pikepdf.Object, resources: pikepdf.Dictionary) -> bytes | None:
    """The operators drawing ``form`` (whose resources, once merged into
    ``resources``, are the page's) as they are, or with renamed resources;
    or None when the face must keep its form (see the module's docstring)."""
    own = form.get("/Resources")
    if not isinstance(form, pikepdf.Stream) or not isinstance(own, pikepdf.Dictionary) or "/Group" in form or "/Matrix" in form:
        return None
    try:
        named = _named(pikepdf.parse_content_stream(form, _READ))
    except pikepdf.PdfError:
        return None
    if named is None:
        return None
    values = {(kind, name): _resource(own, kind, name) for kind, name in sorted(named)}
    if any(value is None for value in values.values()):
        return None  # a name the form does not define: left to the form, as a viewer takes it
    renames: dict[tuple[str, str], str] = {}
    for (kind, name), value in values.items():
        given = _kind(resources, kind)
        fresh, n = name, 0
        while fresh in given and not _same(given[fresh], value):
            n += 1
            fresh = f"{name}_{n}"
        given[fresh] = value
        if fresh != name:
            renames[(kind, name)] = fresh
    if not renames:
        return form.read_bytes()
    return pikepdf.unparse_content_stream([_renamed(instruction, renames) for instruction in pikepdf.parse_content_stream(form)])


def _resource(resources: pikepdf.Dictionary, kind: str, name: str) -> pikepdf.Object | None:
    of_kind = resources.get(kind)
    value = of_kind.get(name) if isinstance(of_kind, pikepdf.Dictionary) else None
    return value if isinstance(value, pikepdf.Object) else None


def _renamed(
    instruction: pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage, renames: dict[tuple[str, str], str]
) -> pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage:
    if not isinstance(instruction, pikepdf.ContentStreamInstruction):
        return instruction
    kind, at = _NAMED.get(str(instruction.operator), ("", 0))
    operands = list(instruction.operands)
    if not kind or len(operands) <= at or (kind, str(operands[at])) not in renames:
        return instruction
    operands[at] = pikepdf.Name(renames[(kind, str(operands[at]))])
    return pikepdf.ContentStreamInstruction(operands, instruction.operator)


def _named(operations: Sequence[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage]) -> set[tuple[str, str]] | None:
    """(kind, name) of every resource the operations name, or None when
    they cannot be drawn inline."""
    named = set()
    depth = 0
    for instruction in operations:
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            return None
        operator = str(instruction.operator)
        if operator == "q":
            depth += 1
        elif operator == "Q":
            depth -= 1
            if depth < 0:
                return None
        elif operator in ("scn", "SCN"):
            operands = instruction.operands
            if operands and isinstance(operands[-1], pikepdf.Name):
                return None
        elif operator in _NAMED:
            kind, at = _NAMED[operator]
            operands = instruction.operands
            if len(operands) <= at or not isinstance(operands[at], pikepdf.Name):
                if operator in ("BDC", "DP"):
                    continue  # properties given in place
                return None
            if kind != "/ColorSpace" or str(operands[at]) not in _DEVICE:
                named.add((kind, str(operands[at])))
        else:
            return None  # nothing else is read (_READ)
    return named if depth == 0 else None


def _kind(resources: pikepdf.Dictionary, kind: str) -> pikepdf.Dictionary:
    given = resources.get(kind)
    if not isinstance(given, pikepdf.Dictionary):
        given = resources[kind] = pikepdf.Dictionary()
    return given


def _same(a: object, b: object) -> bool:
    """Whether two resources are one: the same object, or equal values written in place."""
    if isinstance(a, pikepdf.Object) and isinstance(b, pikepdf.Object):
        if a.is_indirect or b.is_indirect:
            return a.is_indirect and b.is_indirect and a.objgen == b.objgen
        return bool(a.unparse() == b.unparse())
    return False

"""The content walk: interpret a page's content streams with the transformation matrix and
follow them into form XObjects, tiling patterns, soft masks, Type3 glyphs and printing
annotations, noting the colours, fonts and images the content uses. The colour and font
modules judge what is found; the ppi module measures the images drawn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import pikepdf

from pnp.preflight.colour import group_space, image_space, rgb_space
from pnp.preflight.fonts import not_embedded
from pnp.preflight.summary import Acc, Draw, Finding, Memo, Summary, memoised
from pnp.preflight.values import (
    IDENTITY,
    Matrix,
    as_box,
    as_float,
    as_matrix,
    inherited,
    linear,
    lookup,
    mul,
    object_key,
)


def scan_page(memo: Memo, page: pikepdf.Object) -> Summary:
    """Everything a page draws: its content, its transparency group and its printing annotations."""
    unit = as_float(page.get("/UserUnit")) or 1.0
    start: Matrix = (unit, 0.0, 0.0, unit, 0.0, 0.0)
    resources = inherited(page, "/Resources")
    acc = Acc()
    acc.merge(_walk(memo, page, resources, start), None, IDENTITY)
    why = group_space(page)
    if why:
        acc.colour[Finding(f"the page transparency group is {why}")] = None
    annots = page.get("/Annots")
    for annot in annots if isinstance(annots, pikepdf.Array) else ():
        form, matrix = _appearance(annot)
        if form is not None and matrix is not None:
            label = f"annotation {annot.get('/Subtype')}"
            acc.merge(_form(memo, form, resources), label, mul(matrix, start))
    return acc.freeze()


def _appearance(annot: pikepdf.Object) -> tuple[pikepdf.Object | None, Matrix | None]:
    """A printing annotation's normal appearance and the matrix that places it (PDF 12.5.5)."""
    if not isinstance(annot, pikepdf.Dictionary):
        return None, None
    flags = int(as_float(annot.get("/F")) or 0)
    appearance = annot.get("/AP")
    if flags & 2 or not flags & 4 or not isinstance(appearance, pikepdf.Dictionary):
        return None, None
    form = appearance.get("/N")
    if isinstance(form, pikepdf.Dictionary) and not isinstance(form, pikepdf.Stream):
        state = annot.get("/AS")
        form = form.get(state) if isinstance(state, pikepdf.Name) else None
    rect, bbox = as_box(annot.get("/Rect")), as_box(form.get("/BBox")) if isinstance(form, pikepdf.Stream) else None
    if not isinstance(form, pikepdf.Stream) or rect is None or bbox is None:
        return None, None
    m = as_matrix(form.get("/Matrix")) or IDENTITY
    corners = [(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]) for x in bbox[0::2] for y in bbox[1::2]]
    x0, x1 = min(c[0] for c in corners), max(c[0] for c in corners)
    y0, y1 = min(c[1] for c in corners), max(c[1] for c in corners)
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        return None, None
    sx, sy = (rect[2] - rect[0]) / (x1 - x0), (rect[3] - rect[1]) / (y1 - y0)
    return form, (sx, 0.0, 0.0, sy, rect[0] - x0 * sx, rect[1] - y0 * sy)


def _form(memo: Memo, form: pikepdf.Object, outer: pikepdf.Object | None) -> Summary:
    """A form XObject's (or tiling pattern's) summary relative to the space it is drawn in,
    its /Matrix included. Without /Resources of its own it uses its caller's."""
    own = form.get("/Resources")
    key = (form.objgen, None if own is not None else object_key(outer))
    return memoised(memo, key, lambda: _walk(
        memo, form, own if own is not None else outer, as_matrix(form.get("/Matrix")) or IDENTITY
    ))


def _type3(memo: Memo, font: pikepdf.Object, outer: pikepdf.Object | None) -> Summary:
    """Everything a Type3 font's glyph procedures draw (their images are glyphs, not art)."""
    own = font.get("/Resources")
    key = ("type3", object_key(font), None if own is not None else object_key(outer))

    def walk() -> Summary:
        acc = Acc()
        procs = font.get("/CharProcs")
        for glyph in procs.values() if isinstance(procs, pikepdf.Dictionary) else ():
            if isinstance(glyph, pikepdf.Stream):
                acc.merge(_walk(memo, glyph, own if own is not None else outer, IDENTITY), None, IDENTITY)
        return acc.freeze()

    return memoised(memo, key, walk)


def _walk(memo: Memo, source: pikepdf.Object, resources: pikepdf.Object | None, start: Matrix) -> Summary:
    """Interpret one content stream: the colours, fonts and images it uses (images with their
    matrices) and the forms, patterns, soft masks and Type3 glyphs it draws. ``start`` is the
    matrix from the stream's user space to its caller's space.

    Only what the content uses counts: WeasyPrint gives every page one shared resource
    dictionary that lists every font, image and colour space of the document (and always
    two Lab spaces), so scanning resources would blame pages for what they never draw."""
    acc = Acc()
    try:
        instructions = pikepdf.parse_content_stream(source)
    except pikepdf.PdfError as exc:
        acc.errors[Finding(f"a content stream cannot be parsed: {exc}")] = None
        return acc.freeze()
    ctm, stack = start, []
    for instruction in instructions:
        op, operands = str(instruction.operator), instruction.operands
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop() if stack else ctm
        elif op == "cm":
            m = as_matrix(operands)
            ctm = mul(m, ctm) if m else ctm
        elif isinstance(instruction, pikepdf.ContentStreamInlineImage):
            _inline_image(acc, instruction, resources, ctm)
        else:
            _operator(memo, acc, op, operands, resources, ctm, start)
    return acc.freeze()


class _Operands(Protocol):
    """What the walk reads of an instruction's operands (pikepdf's object list)."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> object: ...
    def __iter__(self) -> Iterator[object]: ...


def _operator(
    memo: Memo, acc: Acc, op: str, operands: _Operands, resources: pikepdf.Object | None, ctm: Matrix, start: Matrix
) -> None:
    """What one painting or resource operator uses: colours, fonts, images, forms."""
    name = operands[-1] if operands else None
    if op in ("rg", "RG"):
        which = "fill" if op == "rg" else "stroke"
        acc.colour[Finding(f"the {op} operator sets a DeviceRGB {which} colour")] = None
    elif op in ("cs", "CS") and name is not None:
        if str(name) == "/DeviceRGB":
            acc.colour[Finding(f"the {op} operator selects DeviceRGB")] = None
        else:
            _note(acc, f"colour space {name} is", rgb_space(lookup(resources, "/ColorSpace", name)))
    elif op in ("scn", "SCN") and isinstance(name, pikepdf.Name):
        pattern = lookup(resources, "/Pattern", name)
        if isinstance(pattern, pikepdf.Dictionary) and pattern.get("/PatternType") == 2:
            shading = pattern.get("/Shading")
            space = shading.get("/ColorSpace") if isinstance(shading, pikepdf.Dictionary) else None
            _note(acc, f"pattern {name} has a", rgb_space(space), "shading")
        elif isinstance(pattern, pikepdf.Stream):
            acc.merge(_form(memo, pattern, resources), f"pattern {name}", start)  # pattern space: the stream's
    elif op == "sh" and name is not None:
        shading = lookup(resources, "/Shading", name)
        space = shading.get("/ColorSpace") if isinstance(shading, pikepdf.Dictionary) else None
        _note(acc, f"shading {name} is", rgb_space(space))
    elif op == "gs" and name is not None:
        state = lookup(resources, "/ExtGState", name)
        mask = state.get("/SMask") if isinstance(state, pikepdf.Dictionary) else None
        group = mask.get("/G") if isinstance(mask, pikepdf.Dictionary) else None
        if isinstance(group, pikepdf.Stream):
            _note(acc, f"the soft mask of {name} has a", group_space(group), "group")
            acc.merge(_form(memo, group, resources), f"soft mask of {name}", ctm)
    elif op == "Tf" and operands:
        _use_font(memo, acc, lookup(resources, "/Font", operands[0]), str(operands[0]), resources)
    elif op == "Do" and name is not None:
        _xobject(memo, acc, name, resources, ctm)


def _xobject(memo: Memo, acc: Acc, name: object, resources: pikepdf.Object | None, ctm: Matrix) -> None:
    xobject = lookup(resources, "/XObject", name)
    if not isinstance(xobject, pikepdf.Stream):
        return
    if xobject.get("/Subtype") == pikepdf.Name.Image:
        _note(acc, f"image {name} is", _image_space(memo, xobject))
        _draw(acc, f"image {name}", xobject.get("/Width"), xobject.get("/Height"), ctm)
    elif xobject.get("/Subtype") == pikepdf.Name.Form:
        _note(acc, f"form {name} has a", group_space(xobject), "transparency group")
        acc.merge(_form(memo, xobject, resources), f"form {name}", ctm)


def _inline_image(acc: Acc, instruction: pikepdf.ContentStreamInlineImage, resources: pikepdf.Object | None, ctm: Matrix) -> None:
    image = instruction.iimage
    space = image.obj.get("/ColorSpace")
    if isinstance(space, pikepdf.Name) and str(space) not in ("/DeviceRGB", "/DeviceCMYK", "/DeviceGray"):
        space = lookup(resources, "/ColorSpace", space)
    if not image.image_mask:
        _note(acc, "an inline image is", rgb_space(space))
    _draw(acc, "inline image", image.width, image.height, ctm)


def _note(acc: Acc, before: str, why: str | None, after: str = "") -> None:
    if why:
        acc.colour[Finding(f"{before} {why} {after}".rstrip())] = None


def _draw(acc: Acc, name: str, width: object, height: object, ctm: Matrix) -> None:
    w, h = as_float(width), as_float(height)
    if w and h:
        acc.draws[Draw(name, (), int(w), int(h), linear((1.0, 0.0, 0.0, 1.0), ctm))] = None


def _use_font(memo: Memo, acc: Acc, font: pikepdf.Object | None, name: str, resources: pikepdf.Object | None) -> None:
    if not isinstance(font, pikepdf.Dictionary):
        return
    acc.fonts.add(object_key(font))
    subtype = str(font.get("/Subtype"))[1:]
    if subtype == "Type3":
        acc.merge(_type3(memo, font, resources), f"Type3 font {name}", IDENTITY, draws=False)
        return
    why = not_embedded(font, name, subtype)
    if why:
        acc.unembedded[Finding(why)] = None


def _image_space(memo: Memo, image: pikepdf.Object) -> str | None:
    key = object_key(image)
    if key not in memo.images:
        memo.images[key] = image_space(image)
    return memo.images[key]

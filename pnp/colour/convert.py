"""Rewrite a PDF's colours as DeviceCMYK, in place.

WeasyPrint writes sRGB: ``rg``/``RG`` operators, RGB images, RGB shadings and
transparency groups (its ``device-cmyk()`` support does not reach SVG art). A
print export converts all of it after layout, so every template, stylesheet
and art file is handled the same way:

- a colour equal to a palette colour's screen value becomes that colour's
  declared ``print`` CMYK exactly;
- every other RGB colour, and every RGB image, goes through the ICC profile;
- gray (``g``/``G``) becomes the same darkness of black ink alone (exact);
- RGB transparency groups become CMYK groups, so blending happens in ink.

Anything it cannot convert faithfully (Lab colours, mesh or sampled shadings,
inline RGB images) is an error naming it, never left behind silently.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import SupportsFloat, cast

import pikepdf
from pikepdf import Name

from pnp.colour.icc import DEFAULT_PROFILE, image_to_cmyk, rgb_to_cmyk
from pnp.errors import BuildError
from pnp.model import Swatch

CMYK = Name.DeviceCMYK
_RGB_SPACES = (Name.DeviceRGB, Name.CalRGB)


class ColourError(BuildError):
    """A PDF holds colour that cannot be converted to CMYK faithfully."""


@dataclass
class Converter:
    """Converts one PDF; remembers what it has done so shared objects are done once."""

    palette: Mapping[tuple[int, int, int], tuple[float, float, float, float]]
    profile: Path = DEFAULT_PROFILE
    done: set[tuple[int, int]] = field(default_factory=set)
    colours: dict[tuple[int, int, int], tuple[float, float, float, float]] = field(default_factory=dict)
    images: int = 0
    operators: int = 0
    visited: list[pikepdf.Object] = field(default_factory=list)

    # -- colours ---------------------------------------------------------
    def cmyk(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        key = (_byte(rgb[0]), _byte(rgb[1]), _byte(rgb[2]))
        found = self.colours.get(key)
        if found is None:
            exact = self.palette.get(key)
            found = exact if exact is not None else _through_profile(key, self.profile)
            self.colours[key] = found
        return found

    def _values(self, values: Sequence[SupportsFloat], space: str) -> list[Decimal]:
        numbers = [float(v) for v in values]
        if space == "rgb":
            out = self.cmyk((numbers[0], numbers[1], numbers[2]))
        else:  # gray: black ink only, the same darkness
            out = (0.0, 0.0, 0.0, 1.0 - numbers[0])
        return [_dec(v) for v in out]

    # -- content streams -------------------------------------------------
    def stream(self, stream: pikepdf.Object, resources: pikepdf.Object | None) -> None:
        """Rewrite one content stream (a page's, a form's, a tiling pattern's)."""
        if self._seen(stream):
            return
        if resources is not None:
            self.resources(resources)
        spaces = {"fill": "", "stroke": ""}
        named = resources.get(Name.ColorSpace) if resources is not None else None
        out: list[pikepdf.ContentStreamInstruction | tuple[list[pikepdf.Object], pikepdf.Operator]] = []
        changed = False
        for instruction in pikepdf.parse_content_stream(stream):
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                raise ColourError("an inline image cannot be converted to CMYK; use an image file instead")
            operands, operator = list(instruction.operands), instruction.operator
            op = str(operator)
            if op in ("rg", "RG", "g", "G"):
                space = "rgb" if op.lower() == "rg" else "gray"
                out.append(pikepdf.ContentStreamInstruction(self._values(operands, space), pikepdf.Operator("k" if op.islower() else "K")))
                self.operators += 1
                changed = True
                continue
            if op in ("cs", "CS"):
                side = "fill" if op == "cs" else "stroke"
                name = operands[0]
                kind = _space_kind(name, named)
                spaces[side] = kind
                if kind in ("rgb", "gray"):
                    out.append(pikepdf.ContentStreamInstruction([CMYK], pikepdf.Operator(op)))
                    changed = True
                    continue
                if kind == "lab":
                    raise ColourError(f"a Lab colour ({name}) cannot be converted; use a palette colour")
            if op in ("sc", "scn", "SC", "SCN"):
                kind = spaces["fill" if op.islower() else "stroke"]
                numeric = [v for v in operands if not isinstance(v, Name)]
                if kind in ("rgb", "gray") and len(numeric) == len(operands):
                    out.append(pikepdf.ContentStreamInstruction(self._values(operands, kind), operator))
                    self.operators += 1
                    changed = True
                    continue
            out.append((operands, operator))
        if changed:
            stream.write(pikepdf.unparse_content_stream(out))

    def resources(self, resources: pikepdf.Object) -> None:
        """Every colour-bearing object a resource dictionary names."""
        if self._seen(resources):
            return
        for key, xobject in _items(resources.get(Name.XObject)):
            subtype = xobject.get(Name.Subtype)
            if subtype == Name.Form:
                self.group(xobject)
                self.stream(xobject, xobject.get(Name.Resources, resources))
            elif subtype == Name.Image:
                self.image(xobject, key)
        for _, pattern in _items(resources.get(Name.Pattern)):
            if pattern.get(Name.PatternType) == 1:
                self.stream(pattern, pattern.get(Name.Resources))
            elif Name.Shading in pattern:
                self.shading(pattern.Shading)
        for _, shading in _items(resources.get(Name.Shading)):
            self.shading(shading)
        for _, state in _items(resources.get(Name.ExtGState)):
            mask = state.get(Name.SMask)
            if isinstance(mask, pikepdf.Dictionary) and Name.G in mask:
                if Name.BC in mask and len(mask.BC) == 3:
                    mask.BC = pikepdf.Array(self._values(list(mask.BC), "rgb"))
                self.group(mask.G)
                self.stream(mask.G, mask.G.get(Name.Resources, resources))
        self.visited.append(resources)

    def finish(self) -> None:
        """Named colour spaces, once every stream that uses them is rewritten."""
        for resources in self.visited:
            spaces = resources.get(Name.ColorSpace)
            if not isinstance(spaces, pikepdf.Dictionary):
                continue
            for key in list(spaces.keys()):
                kind = _space_kind(Name(key), spaces)
                if kind in ("rgb", "gray"):
                    spaces[key] = CMYK
                elif kind == "lab":
                    # WeasyPrint declares Lab spaces on every page, used only for
                    # CSS lab() colours; a use is refused in stream().
                    del spaces[key]

    def group(self, obj: pikepdf.Object) -> None:
        group = obj.get(Name.Group)
        if isinstance(group, pikepdf.Dictionary) and group.get(Name.CS) in (*_RGB_SPACES, Name.DeviceGray):
            group.CS = CMYK

    def shading(self, shading: pikepdf.Object) -> None:
        if self._seen(shading):
            return
        space = shading.get(Name.ColorSpace)
        if space not in _RGB_SPACES:
            return
        if int(shading.get(Name.ShadingType, 0)) not in (2, 3):
            raise ColourError(f"a shading of type {shading.get(Name.ShadingType)} in RGB cannot be converted; use linear or radial gradients")
        shading.ColorSpace = CMYK
        if Name.Background in shading:
            shading.Background = pikepdf.Array(self._values(list(shading.Background), "rgb"))
        self.function(shading.Function)

    def function(self, function: pikepdf.Object) -> None:
        if isinstance(function, pikepdf.Array):
            raise ColourError("a gradient given as one function per colour channel cannot be converted")
        if self._seen(function):
            return
        kind = int(function.get(Name.FunctionType, -1))
        if kind == 2:
            c0 = list(function.get(Name.C0, pikepdf.Array([0, 0, 0])))
            c1 = list(function.get(Name.C1, pikepdf.Array([1, 1, 1])))
            function.C0 = pikepdf.Array(self._values(c0, "rgb"))
            function.C1 = pikepdf.Array(self._values(c1, "rgb"))
        elif kind == 3:
            for part in function.Functions:
                self.function(part)
        else:
            raise ColourError(f"a gradient function of type {kind} cannot be converted")

    def image(self, image: pikepdf.Object, key: str) -> None:
        if self._seen(image):
            return
        space = image.get(Name.ColorSpace)
        rgb = space in _RGB_SPACES or (
            isinstance(space, pikepdf.Array)
            and (
                (space[0] == Name.ICCBased and int(space[1].get(Name.N, 0)) == 3)
                or (space[0] == Name.Indexed and _base_is_rgb(space[1]))
                or space[0] == Name.CalRGB
            )
        )
        if not rgb:
            return
        picture = pikepdf.PdfImage(cast(pikepdf.Stream, image)).as_pil_image()
        converted = image_to_cmyk(picture, self.profile)
        image.write(zlib.compress(converted.tobytes(), 6), filter=Name.FlateDecode)
        image.ColorSpace = CMYK
        image.BitsPerComponent = 8
        for stale in (Name.DecodeParms, Name.Decode):
            if stale in image:
                del image[stale]
        self.images += 1

    def _seen(self, obj: pikepdf.Object) -> bool:
        if not obj.is_indirect:
            return False
        mark = obj.objgen
        if mark in self.done:
            return True
        self.done.add(mark)
        return False


def convert_pdf(pdf: pikepdf.Pdf, palette: Mapping[str, Swatch], profile: Path = DEFAULT_PROFILE) -> Converter:
    """Turn every colour of ``pdf`` into DeviceCMYK; returns what was done."""
    exact = {s.rgb: tuple(v / 100 for v in s.print) for s in palette.values() if s.print is not None}
    converter = Converter(exact, profile)  # type: ignore[arg-type]
    for page in pdf.pages:
        converter.group(page.obj)
        page.contents_coalesce()
        converter.stream(page.obj.Contents, page.obj.get(Name.Resources))
    converter.finish()
    return converter


def convert_document(document: bytes, palette: Mapping[str, Swatch], profile: Path = DEFAULT_PROFILE) -> bytes:
    """A PDF (its bytes) with every colour in DeviceCMYK (:func:`convert_pdf`),
    saved with its streams as the conversion left them (none compressed
    anew, none decoded), so a file made from it has the bytes it would have
    had from the PDF converted in place."""
    with pikepdf.open(io.BytesIO(document)) as pdf:
        convert_pdf(pdf, palette, profile)
        out = io.BytesIO()
        # The /ID's second half from the content, not qpdf's clock: a document
        # converted in another second (another worker) gives the same bytes.
        pdf.save(out, compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none, deterministic_id=True)
        return out.getvalue()


@cache
def _through_profile(rgb: tuple[int, int, int], profile: Path) -> tuple[float, float, float, float]:
    """An 8-bit sRGB colour as CMYK through ``profile``, each colour once a
    process however many documents it converts (an export's faces share
    their colours)."""
    c, m, y, k = rgb_to_cmyk([rgb], profile)[0]
    return (c / 255, m / 255, y / 255, k / 255)


def _space_kind(name: pikepdf.Object, named: pikepdf.Object | None) -> str:
    if name == Name.DeviceRGB or name == Name.CalRGB:
        return "rgb"
    if name == Name.DeviceGray:
        return "gray"
    if name == CMYK or name == Name.Pattern:
        return "other"
    space = named.get(Name(str(name))) if isinstance(named, pikepdf.Dictionary) else None
    if space is None:
        return "other"
    if isinstance(space, pikepdf.Name):
        return _space_kind(space, None)
    if isinstance(space, pikepdf.Array) and len(space):
        family = space[0]
        if family == Name.Lab:
            return "lab"
        if family == Name.ICCBased:
            n = int(space[1].get(Name.N, 0))
            return "rgb" if n == 3 else "gray" if n == 1 else "other"
        if family == Name.CalRGB:
            return "rgb"
        if family == Name.CalGray:
            return "gray"
    return "other"


def _base_is_rgb(base: pikepdf.Object) -> bool:
    return _space_kind(base, None) == "rgb" if isinstance(base, pikepdf.Name) else (
        isinstance(base, pikepdf.Array) and base[0] == Name.ICCBased and int(base[1].get(Name.N, 0)) == 3
    )


def _items(value: pikepdf.Object | None) -> list[tuple[str, pikepdf.Object]]:
    if not isinstance(value, pikepdf.Dictionary):
        return []
    return [(str(k), value[k]) for k in value.keys()]


def _byte(value: float) -> int:
    return max(0, min(255, round(value * 255)))


def _dec(value: float) -> Decimal:
    return Decimal(f"{value:.4f}").normalize() if value else Decimal(0)

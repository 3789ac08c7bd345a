"""Colour spaces that are not CMYK-safe: RGB or Lab in a colour space (also as the base of
Indexed or Pattern spaces and the alternate of Separation or DeviceN), an image, a
JPEG 2000 codestream or a transparency group. The content walk asks these where a colour
is used."""

from __future__ import annotations

import pikepdf


def rgb_space(space: object, depth: int = 0) -> str | None:
    """Why a colour space is not CMYK-safe (RGB or Lab), or None when it is fine."""
    if depth > 4:
        return None
    if isinstance(space, pikepdf.Name):
        return "DeviceRGB" if str(space) in ("/DeviceRGB", "/RGB") else None
    if not isinstance(space, pikepdf.Array) or len(space) == 0:
        return None
    family = str(space[0])
    if family in ("/DeviceRGB", "/CalRGB", "/Lab"):
        return family[1:]
    if family == "/ICCBased" and len(space) > 1 and isinstance(space[1], pikepdf.Stream):
        return "ICCBased RGB (/N 3)" if space[1].get("/N") == 3 else None
    if family in ("/Indexed", "/I", "/Pattern") and len(space) > 1:
        base = rgb_space(space[1], depth + 1)
        return f"{'Indexed' if family == '/I' else family[1:]} on {base}" if base else None
    if family in ("/Separation", "/DeviceN") and len(space) > 2:
        alternate = rgb_space(space[2], depth + 1)
        return f"{family[1:]} {space[1]} with a {alternate} alternate" if alternate else None
    return None


def image_space(image: pikepdf.Object) -> str | None:
    """Why an image XObject's colour is not CMYK-safe, or None (also for stencil masks)."""
    mask: object = image.get("/ImageMask")
    if mask is True:
        return None
    space = image.get("/ColorSpace")
    if space is None:
        filters = image.get("/Filter")
        names = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)]
        return _jpx_space(image.read_raw_bytes()) if "/JPXDecode" in names else None
    return rgb_space(space)


def group_space(obj: pikepdf.Object) -> str | None:
    """Why the colour space of a page's or form's transparency group is not CMYK-safe, or None."""
    group = obj.get("/Group")
    return rgb_space(group.get("/CS")) if isinstance(group, pikepdf.Dictionary) else None


def _jpx_space(raw: bytes) -> str | None:
    """The colour space a JPEG 2000 codestream declares in its 'colr' box, when it is RGB."""
    at = raw.find(b"colr", 0, 4096)
    if at < 0 or at + 11 > len(raw):
        return None
    method = raw[at + 4]
    if method == 1 and int.from_bytes(raw[at + 7:at + 11], "big") in (16, 18, 20, 21):
        return "JPEG 2000 RGB"
    if method == 2 and raw[at + 7 + 16:at + 7 + 20] == b"RGB ":
        return "JPEG 2000 with an RGB ICC profile"
    return None

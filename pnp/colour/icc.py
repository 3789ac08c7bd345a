"""sRGB to CMYK with an ICC output profile (Little CMS, through Pillow's ImageCms).

Vector colours and images use one transform: relative colorimetric with black
point compensation, the usual choice for print production. Ink limits come from
the profile itself (the shipped one caps total ink at 240 %).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.paths import PRESETS

if TYPE_CHECKING:
    from PIL.Image import Image
    from PIL.ImageCms import ImageCmsProfile, ImageCmsTransform

ICC_DIR = PRESETS / "icc"
DEFAULT_PROFILE = ICC_DIR / "pnp-fogra39-tac240.icc"


def _opened(profile: Path) -> ImageCmsProfile:
    """The profile read whole into memory. Little CMS reads a profile opened
    from a file lazily, through its file descriptor: forked workers (exports
    convert on every core) share that descriptor's offset, and their reads
    interleave ("Could not determine profile size")."""
    from PIL import ImageCms

    return ImageCms.getOpenProfile(io.BytesIO(profile.read_bytes()))


@cache
def _transform(profile: Path) -> ImageCmsTransform:
    from PIL import ImageCms

    return ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"),
        _opened(profile),
        "RGB",
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )


def description(profile: Path) -> str:
    from PIL import ImageCms

    return str(ImageCms.getProfileDescription(_opened(profile))).strip()


def image_to_cmyk(image: Image, profile: Path = DEFAULT_PROFILE) -> Image:
    """A PIL image (any mode; alpha is dropped, keep it apart) as CMYK.

    Through the transform's core, not ``ImageCmsTransform.apply``: that one
    writes the whole output profile into every result's ``icc_profile``
    (1.5 ms a call, most of an export's colour conversion), which nobody reads."""
    from PIL import Image as PILImage

    rgb = image.convert("RGB")
    out = PILImage.new("CMYK", rgb.size)
    _transform(profile).transform.apply(rgb.getim(), out.getim())
    return out


def rgb_to_cmyk(colours: Sequence[tuple[int, int, int]], profile: Path = DEFAULT_PROFILE) -> list[tuple[int, int, int, int]]:
    """8-bit sRGB colours as 8-bit CMYK (0 to 255 per ink), in one pass."""
    from PIL import Image

    if not colours:
        return []
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(list(colours))
    ink = image_to_cmyk(strip, profile).tobytes()  # four bytes a pixel: c, m, y, k
    return [(ink[i], ink[i + 1], ink[i + 2], ink[i + 3]) for i in range(0, 4 * len(colours), 4)]

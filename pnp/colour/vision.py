"""Colour as players with a colour-vision deficiency see it, and how far apart
two colours look (CIEDE2000).

The simulation is Machado, Oliveira and Fernandes (2009), "A Physiologically-
based Model for Simulation of Color Vision Deficiency", at full severity: one
3x3 matrix per deficiency, applied to *linear* sRGB (the sRGB transfer curve
is undone first and redone after). Protan (red cones missing or shifted, about
1 % of men), deutan (green cones, about 6 % of men: with protan, the "one
player in twelve" of a table of men) and tritan (blue cones, rare).

Distances are CIEDE2000 (Sharma, Wu and Dalal 2005) between CIELAB values
under D65, the white point of sRGB.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from PIL.Image import Image

Deficiency = Literal["protan", "deutan", "tritan"]
DEFICIENCIES: tuple[Deficiency, ...] = ("protan", "deutan", "tritan")

MACHADO: dict[Deficiency, NDArray[np.float64]] = {
    "protan": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
    "deutan": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
    "tritan": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]),
}
"""Machado et al. (2009), severity 1.0, on linear sRGB (rows: output R, G, B)."""

_SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]])
_D65 = np.array([0.95047, 1.0, 1.08883])


def linear(srgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """sRGB values 0..1 to linear light."""
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def encoded(lin: NDArray[np.float64]) -> NDArray[np.float64]:
    """Linear light to sRGB values 0..1 (clipped to the gamut first)."""
    lin = np.clip(lin, 0.0, 1.0)
    return np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)


def simulate(srgb: NDArray[np.float64], deficiency: Deficiency | None) -> NDArray[np.float64]:
    """sRGB values 0..1 (any shape ending in 3) as a player with ``deficiency``
    sees them; ``None`` is full colour vision (unchanged)."""
    if deficiency is None:
        return srgb
    return encoded(linear(srgb) @ MACHADO[deficiency].T)


def hex_rgb(value: str) -> NDArray[np.float64]:
    """``#rrggbb`` as sRGB values 0..1."""
    return np.array([int(value[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.float64) / 255


def lab(srgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """sRGB values 0..1 (last axis 3) as CIELAB under D65."""
    xyz = linear(srgb) @ _SRGB_TO_XYZ.T / _D65
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1: NDArray[np.float64], lab2: NDArray[np.float64]) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = (float(v) for v in lab1), (float(v) for v in lab2)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    lp, cp = (l1 + l2) / 2, (c1p + c2p) / 2
    hp = h1p + h2p
    if c1p * c2p != 0:
        if abs(h1p - h2p) <= 180:
            hp = hp / 2
        else:
            hp = (hp + 360) / 2 if hp < 360 else (hp - 360) / 2
    t = (1 - 0.17 * np.cos(np.radians(hp - 30)) + 0.24 * np.cos(np.radians(2 * hp))
         + 0.32 * np.cos(np.radians(3 * hp + 6)) - 0.20 * np.cos(np.radians(4 * hp - 63)))
    sl = 1 + 0.015 * (lp - 50) ** 2 / np.sqrt(20 + (lp - 50) ** 2)
    sc, sh = 1 + 0.045 * cp, 1 + 0.015 * cp * t
    rt = -2 * np.sqrt(cp**7 / (cp**7 + 25.0**7)) * np.sin(np.radians(60 * np.exp(-(((hp - 275) / 25) ** 2))))
    return float(np.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2 + rt * (dcp / sc) * (dhp / sh)))


def distance(colour1: str, colour2: str, deficiency: Deficiency | None = None) -> float:
    """CIEDE2000 between two ``#rrggbb`` colours as a player with ``deficiency`` sees them."""
    return ciede2000(lab(simulate(hex_rgb(colour1), deficiency)), lab(simulate(hex_rgb(colour2), deficiency)))


def simulate_image(image: Image, deficiency: Deficiency) -> Image:
    """A PIL image as a player with ``deficiency`` sees it (RGB; alpha kept)."""
    from PIL import Image as PilImage

    rgba = image.convert("RGBA")
    pixels = np.asarray(rgba, dtype=np.float64) / 255
    seen = simulate(pixels[..., :3], deficiency)
    out = np.concatenate([seen, pixels[..., 3:]], axis=-1)
    result = PilImage.fromarray(np.round(out * 255).astype(np.uint8), "RGBA")
    return result.convert(image.mode) if image.mode in ("RGB", "RGBA") else result.convert("RGB")

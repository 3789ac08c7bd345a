"""Raster images are checked before anything decodes them.

A decompression bomb or a huge image would eat memory inside WeasyPrint;
a corrupt one would fail deep inside it. Both are refused here with a clear
message, reading only the image's header and structure.
"""

from __future__ import annotations

from pathlib import Path

MAX_PIXELS = 40_000_000
"""About 6300 x 6300: far beyond a 300 ppi print of a 2 ft board."""

RASTER = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff"}


class ImageRefused(ValueError):
    """The image is too large, corrupt, or not an image."""


def check_image(path: Path) -> None:
    """Raise :class:`ImageRefused` unless ``path`` is a sane raster image.

    SVG and other non-raster files pass untouched.
    """
    if path.suffix.lower() not in RASTER:
        return
    from PIL import Image

    previous = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with Image.open(path) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise ImageRefused(f"{width} x {height} px is more than {MAX_PIXELS:,} pixels")
            image.verify()
    except ImageRefused:
        raise
    except Image.DecompressionBombError:
        raise ImageRefused(f"more than {MAX_PIXELS:,} pixels (a decompression bomb?)") from None
    except Exception as exc:  # Pillow raises many types for broken files
        raise ImageRefused(f"not a readable image ({type(exc).__name__}: {exc})") from None
    finally:
        Image.MAX_IMAGE_PIXELS = previous

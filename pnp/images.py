"""Raster images are checked before WeasyPrint decodes them.

A decompression bomb or a huge image would eat memory inside WeasyPrint; a
corrupt or truncated one would fail deep inside it, or print half a picture.
Each is refused here with a clear message. What counts is the content, never
the file name: WeasyPrint decodes with Pillow whatever Pillow recognises, so
whatever Pillow recognises is checked, wherever it comes from (an art file of
any name, a ``data:`` URI). An SVG is counted for what it draws
(:mod:`pnp.svgsize`); anything else (stylesheets, fonts) passes.
"""

from __future__ import annotations

import io
from pathlib import Path

from pnp.errors import ImageRefused

MAX_PIXELS = 40_000_000
"""About 6300 x 6300: far beyond a 300 ppi print of a 2 ft board."""

_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM", b"II*\x00", b"MM\x00*")
"""How raster formats begin: such a file that Pillow cannot open is damaged, not something else."""


def load_decoders() -> None:
    """Load all of Pillow's image formats now. The first file
    :func:`check_image_data` is given that is not an image (every font is)
    loads them all (about 30 ms), so a process that forks workers loads
    them first, once, rather than each worker for itself."""
    from PIL import Image

    Image.init()


def check_image(path: Path) -> None:
    """Raise :class:`ImageRefused` unless ``path`` is not a raster image, or a sane one."""
    check_image_data(path.read_bytes())


def check_image_data(data: bytes) -> None:
    """Raise :class:`ImageRefused` if ``data`` is a raster image Pillow can
    open that is larger than :data:`MAX_PIXELS` or does not decode whole."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<":  # SVG or other XML: markup, not Pillow's to decode
        from pnp.svgsize import check_svg_data

        check_svg_data(data)
        return
    from PIL import Image, UnidentifiedImageError

    previous = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise ImageRefused(f"{width} x {height} px is more than {MAX_PIXELS:,} pixels")
            image.load()  # every pixel: a truncated or damaged file fails here, not in the PDF
    except ImageRefused:
        raise
    except UnidentifiedImageError:
        if data.startswith(_SIGNATURES) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
            raise ImageRefused("not a readable image (it begins like one, but does not decode)") from None
        return  # not a raster image (SVG, CSS, a font): not Pillow's to decode
    except Image.DecompressionBombError:
        raise ImageRefused(f"more than {MAX_PIXELS:,} pixels (a decompression bomb?)") from None
    except Exception as exc:  # Pillow raises many types for broken files
        raise ImageRefused(f"not a readable image ({type(exc).__name__}: {exc})") from None
    finally:
        Image.MAX_IMAGE_PIXELS = previous

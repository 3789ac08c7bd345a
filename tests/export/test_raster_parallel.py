"""Image exports (TTS, PNG faces) rasterise their laid-out documents and
encode their PNGs on forked workers, with the bytes a one-worker run gives."""

from __future__ import annotations

import io
import multiprocessing
import os
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from PIL import Image

from pnp.output.raster import png, pngs, raster_pages

_MET = multiprocessing.get_context("fork").Barrier(2)
_REAL = pypdfium2.PdfDocument
_SEEN: Path | None = None


def _met() -> None:
    """Returns only once two processes are here at once, and leaves a file
    named by its process id in ``_SEEN``."""
    _MET.wait(timeout=20)  # one process alone never gets past: BrokenBarrierError
    assert _SEEN is not None
    (_SEEN / f"worker-{os.getpid()}").touch()


def _meeting(data: bytes) -> pypdfium2.PdfDocument:
    _met()
    return _REAL(data)


def _document(*fills: str) -> bytes:
    pdf = pikepdf.new()
    for rgb in fills:
        page = pdf.add_blank_page(page_size=(72, 108))
        page.Contents = pdf.make_stream(f"{rgb} rg 0 0 72 108 re f 0 g 10 10 20 30 re f\n".encode())
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _workers(folder: Path) -> set[str]:
    return {p.name for p in folder.glob("worker-*")}


def test_faces_are_rasterised_by_two_workers_with_one_worker_s_pixels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global _SEEN
    rendered: list[tuple[Path | bytes, list[str | None]]] = [  # four documents: two pairs, see _met
        (_document("1 0 0", "0 1 0"), ["red", "green"]),
        (_document("0 0 1", "1 1 0"), ["blue", None]),
        (_document("0.5 0.5 0.5"), ["grey"]),
        (_document("0 1 1", "1 0 1"), ["cyan", "magenta"]),
    ]
    pixels = {"red": (30, 45), "green": (31, 45), "blue": (30, 46), "grey": (60, 90), "cyan": (15, 22), "magenta": (30, 45)}
    alone = raster_pages(rendered, pixels.__getitem__, workers=1)
    assert {key: image.size for key, image in alone.items()} == pixels
    assert alone["red"].getpixel((25, 5)) == (255, 0, 0) and alone["cyan"].getpixel((12, 2)) == (0, 255, 255)

    _SEEN = tmp_path
    monkeypatch.setattr(pypdfium2, "PdfDocument", _meeting)
    spread = raster_pages(rendered, pixels.__getitem__, workers=2)

    assert list(spread) == list(alone)
    assert all(spread[key].mode == "RGB" and spread[key].tobytes() == alone[key].tobytes() for key in alone)
    workers = _workers(tmp_path)
    assert len(workers) == 2 and f"worker-{os.getpid()}" not in workers


def test_pngs_are_painted_and_encoded_by_two_workers_with_one_worker_s_bytes(tmp_path: Path) -> None:
    global _SEEN
    colours = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (90, 90, 90)]  # two pairs, see _met

    def paint(colour: tuple[int, int, int]) -> Image.Image:
        return Image.new("RGB", (40, 20), colour)

    alone = list(pngs(paint, colours, 150, workers=1))
    assert alone == [png(paint(c), 150) for c in colours]
    with Image.open(io.BytesIO(alone[2])) as third:
        assert third.getpixel((0, 0)) == (30, 30, 200) and round(third.info["dpi"][0]) == 150

    _SEEN = tmp_path

    def meeting(colour: tuple[int, int, int]) -> Image.Image:
        _met()
        return paint(colour)

    assert list(pngs(meeting, colours, 150, workers=2)) == alone
    workers = _workers(tmp_path)
    assert len(workers) == 2 and f"worker-{os.getpid()}" not in workers

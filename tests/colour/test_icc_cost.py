"""What an export's colour conversion spends its time on: each distinct
colour through the profile once a process, and no copy of the profile
serialised into every converted image."""

from __future__ import annotations

import io

import pikepdf
import pytest
from PIL import Image, ImageCms

from pnp.colour import convert, icc
from pnp.colour.convert import convert_document
from pnp.colour.icc import DEFAULT_PROFILE, image_to_cmyk


def test_an_image_is_converted_without_serialising_the_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    picture = Image.new("RGB", (3, 2), (200, 40, 90))
    picture.putpixel((1, 1), (10, 220, 30))
    expected = icc._transform(DEFAULT_PROFILE).apply(picture).tobytes()  # Pillow's way, profile and all

    def refused(self: ImageCms.ImageCmsProfile) -> bytes:
        raise AssertionError("the output profile was serialised for one image")

    monkeypatch.setattr(ImageCms.ImageCmsProfile, "tobytes", refused)
    converted = image_to_cmyk(picture)
    assert converted.mode == "CMYK" and converted.tobytes() == expected


def _document(*fills: str) -> bytes:
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(100, 100))
    page.Contents = pdf.make_stream("".join(f"{rgb} rg 0 0 10 10 re f\n" for rgb in fills).encode())
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_colour_shared_by_documents_goes_through_the_profile_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[int, int, int]] = []
    real = convert.rgb_to_cmyk

    def counted(colours: list[tuple[int, int, int]], profile: object) -> list[tuple[int, int, int, int]]:
        asked.extend(colours)
        return real(colours, profile)  # type: ignore[arg-type]

    monkeypatch.setattr(convert, "rgb_to_cmyk", counted)
    _forget()
    documents = [_document("0.2 0.4 0.6", "0.8 0.1 0.1"), _document("0.2 0.4 0.6"), _document("0.8 0.1 0.1", "0.2 0.4 0.6")]
    first = [convert_document(document, {}, DEFAULT_PROFILE) for document in documents]
    assert sorted(asked) == [(51, 102, 153), (204, 26, 26)]  # each once, not once a document
    _forget()
    assert [convert_document(document, {}, DEFAULT_PROFILE) for document in documents] == first  # remembered, the same ink


def _forget() -> None:
    """Start from no colour converted in this process (another test may have)."""
    remembered = getattr(convert, "_through_profile", None)
    if remembered is not None:
        remembered.cache_clear()

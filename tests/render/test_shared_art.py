"""Each picture once per PDF: a deck of a few hundred distinct faces, every
one showing the same SVG picture and the same raster image, holds one form
for the picture and one image, and every face still shows its own text."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from PIL import Image

from tests.conftest import run_pnp
from tests.pdftools import pdftotext

CARDS = 240

GRADIENT_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">'
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#a00"/><stop offset="1" stop-color="#00a"/></linearGradient></defs>'
    '<circle cx="5" cy="5" r="4" fill="url(#g)" opacity="0.6"/><rect x="1" y="1" width="3" height="3" fill="#333"/></svg>'
)


def _big_deck(mini: Path) -> Path:
    (mini / "art" / "sun.svg").write_text(GRADIENT_SVG)
    Image.new("RGB", (24, 24), (40, 120, 200)).save(mini / "art" / "moon.png")
    game = mini / "game.yaml"
    game.write_text(
        game.read_text()
        .replace("{id: sun, name: Sun, art: art/dot.svg}", "{id: sun, name: Sun, art: art/sun.svg}")
        .replace("{id: moon, name: Moon, art: art/dot.svg}", "{id: moon, name: Moon, art: art/moon.png}")
    )
    cards = [f"  - id: c{n}\n    title: Card{n:03d}\n    symbols: {{sun: 1, moon: -1}}\n" for n in range(CARDS)]
    (mini / "cards.yaml").write_text("cards:\n" + "".join(cards))
    return mini


def test_each_picture_is_one_object_per_pdf_and_each_face_keeps_its_text(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_pnp("build", str(_big_deck(mini_copy)), "--paper", "a4", "--out", str(out))
    assert result.returncode == 0, result.stderr
    home = next(out.rglob("*-home-a4.pdf"))
    with pikepdf.open(home) as pdf:
        faces = {o.objgen for page in pdf.pages for o in page.Resources.get("/XObject", {}).values()}
        assert len(faces) == CARDS + 1  # every front, and the one back (the sleeves show it too)
        pictures = set()
        for objgen in faces:
            for drawn in pdf.get_object(objgen).Resources.get("/XObject", {}).values():
                pictures.add((str(drawn.Subtype), drawn.objgen))
        assert sorted(kind for kind, _ in pictures) == ["/Form", "/Image"]  # sun.svg's form, moon.png
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        forms = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
        assert len(images) == 1
        assert len(forms) <= len(faces) + 3  # the picture's form and the groups inside it, once
    text = pdftotext(home)
    for n in range(CARDS):
        assert f"Card{n:03d}" in text

"""`pnp diff`: cards added, removed and changed between builds, with before/after sheets."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from tests.conftest import run_pnp


def _build(game: Path, out: Path) -> Path:
    result = run_pnp("build", str(game), "--paper", "a4", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out / "mini"


def test_diff_names_added_removed_and_changed_cards(mini_copy: Path, tmp_path: Path) -> None:
    old = _build(mini_copy, tmp_path / "old")
    cards = mini_copy / "cards.yaml"
    text = cards.read_text().replace("title: One", "title: Uno")  # changed
    text = text.replace("  - id: three\n    title: Three\n    symbols: {moon: 1}\n", "")  # removed
    text += "  - id: four\n    title: Four\n    symbols: {sun: 1}\n"  # added
    cards.write_text(text)
    new = _build(mini_copy, tmp_path / "new")
    result = run_pnp("diff", str(old), str(new / "manifest.json"), "--sheets", str(tmp_path / "sheets"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["added"] == [{"component": "cards", "card": "four"}]
    assert data["removed"] == [{"component": "cards", "card": "three"}]
    assert data["changed"] == [{"component": "cards", "card": "one", "sides": ["front"]}]
    (sheet,) = data["sheets"]
    image = Image.open(sheet).convert("RGB")
    half = image.width // 2
    before, after = image.crop((0, 20, half, image.height)), image.crop((half, 20, 2 * half, image.height))
    assert max(ImageStat.Stat(ImageChops.difference(before, after)).mean) > 0.5  # the sides differ


def test_diff_of_a_build_with_itself_is_empty(mini_copy: Path, tmp_path: Path) -> None:
    old = _build(mini_copy, tmp_path / "old")
    result = run_pnp("diff", str(old), str(old), "--sheets", str(tmp_path / "sheets"))
    assert result.returncode == 0 and "0 added, 0 removed, 0 changed" in result.stdout


def test_diff_needs_manifests(tmp_path: Path) -> None:
    result = run_pnp("diff", str(tmp_path), str(tmp_path))
    assert result.returncode == 2 and "no manifest.json" in result.stderr


def test_changed_since_reprints_only_the_changed_cards(mini_copy: Path, tmp_path: Path) -> None:
    from tests.pdftools import clip_rects, pdfinfo_pages, pdftotext

    out = tmp_path / "out"
    old = _build(mini_copy, out)
    baseline = (old / "manifest.json").read_bytes()
    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: Two", "title: Deux"))
    result = run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(out), "--changed-since", str(old))
    assert result.returncode == 0, result.stderr
    pdf = old / "mini-home-reprint-a4.pdf"
    # Instructions, one sheet with the changed card's two copies, and its backs.
    assert len(pdfinfo_pages(pdf)) == 3
    assert len(clip_rects(pdf, 2)) == 2 and "Deux" in pdftotext(pdf, 2, 2) and "One" not in pdftotext(pdf, 2, 2)
    assert (old / "manifest.json").read_bytes() == baseline  # the full build's manifest stays the baseline
    fresh = _build(mini_copy, tmp_path / "fresh")
    nothing = run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(tmp_path / "x"), "--changed-since", str(fresh))
    assert nothing.returncode == 2 and "no card changed since that build" in nothing.stderr


def test_changed_since_an_ink_saver_build_compares_ink_saver_faces(mini_copy: Path, tmp_path: Path) -> None:
    from tests.pdftools import clip_rects

    out = tmp_path / "out"
    built = run_pnp("build", str(mini_copy), "--paper", "a4", "--ink-saver", "--out", str(out))
    assert built.returncode == 0, built.stderr
    old = out / "mini"
    assert json.loads((old / "manifest.json").read_text())["ink_saver"] is True
    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: Two", "title: Deux"))
    result = run_pnp("build", str(mini_copy), "--paper", "a4", "--ink-saver", "--out", str(out), "--changed-since", str(old))
    assert result.returncode == 0, result.stderr
    assert len(clip_rects(old / "mini-home-inksaver-reprint-a4.pdf", 2)) == 2  # card two's two copies, not the deck


def test_diff_pictures_the_side_that_changed(mini_copy: Path, tmp_path: Path) -> None:
    """Only the backs changed: the picture is the back before and after (not
    two identical fronts); both sides changed: a row for each."""
    old = _build(mini_copy, tmp_path / "old")
    back = mini_copy / "templates" / "mini" / "back.html"
    back.write_text(back.read_text().replace("background: #ccc", "background: #3a6"))
    new = _build(mini_copy, tmp_path / "new")
    result = run_pnp("diff", str(old), str(new), "--sheets", str(tmp_path / "sheets"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    sides = {c["card"]: c["sides"] for c in data["changed"] if c["component"] == "cards"}
    assert sides == {"one": ["back"], "two": ["back"], "three": ["back"]}  # (the sleeves' fronts are the same template)
    image = Image.open(tmp_path / "sheets" / "cards-one.png").convert("RGB")
    half = image.width // 2
    before, after = image.crop((0, 20, half, image.height)), image.crop((half, 20, 2 * half, image.height))
    assert max(ImageStat.Stat(ImageChops.difference(before, after)).mean) > 20  # grey became green
    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: One", "title: Uno"))
    both = _build(mini_copy, tmp_path / "both")
    result = run_pnp("diff", str(old), str(both), "--sheets", str(tmp_path / "both-sheets"), "--json")
    assert [c["sides"] for c in json.loads(result.stdout)["changed"] if c["card"] == "one"] == [["front", "back"]]
    two_rows = Image.open(tmp_path / "both-sheets" / "cards-one.png")
    assert two_rows.height == 2 * image.height and two_rows.width == image.width


def test_a_stylesheet_edit_changes_the_cards_it_styles_for_diff_stamp_and_changed_since(mini_copy: Path, tmp_path: Path) -> None:
    """Issue 35: a rule's type size edited in a component's stylesheet changes
    every face of that component, so `pnp diff` names its cards, their build
    stamps carry a new hash and `--changed-since` reprints them (and no other)."""
    from tests.pdftools import clip_rects, pdftotext

    sheet = mini_copy / "templates" / "mini" / "cards.css"
    sheet.write_text("h1 { font-size: 12.5pt; }\n")
    spec = mini_copy / "game.yaml"
    spec.write_text(spec.read_text().replace("    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/cards.css]\n", 1))
    old = _build(mini_copy, tmp_path / "old")
    sheet.write_text("h1 { font-size: 12pt; }\n")
    new = _build(mini_copy, tmp_path / "new")
    result = run_pnp("diff", str(old), str(new), "--sheets", str(tmp_path / "sheets"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["added"] == data["removed"] == []
    assert data["changed"] == [{"component": "cards", "card": card, "sides": ["front", "back"]} for card in ("one", "three", "two")]

    def front(folder: Path, card: str) -> str:
        cards = json.loads((folder / "manifest.json").read_text())["components"][0]["cards"]
        return str(next(c["front"] for c in cards if c["id"] == card))

    printed = pdftotext(new / "mini-home-a4.pdf")
    assert front(old, "one")[:6] != front(new, "one")[:6]
    assert f"\u00b7 {front(new, 'one')[:6]}" in printed and f"\u00b7 {front(old, 'one')[:6]}" not in printed
    again = run_pnp("build", str(mini_copy), "--paper", "a4", "--out", str(tmp_path / "again"), "--changed-since", str(old))
    assert again.returncode == 0, again.stderr
    # The cards' four copies (one, two twice, three) on one sheet, no sleeve.
    assert len(clip_rects(tmp_path / "again" / "mini" / "mini-home-reprint-a4.pdf", 2)) == 4

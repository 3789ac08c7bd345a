"""The render cache: warm rebuilds lay nothing out again; any change to what a
page is made of (data, template, stylesheet, art, font) renders it anew."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pnp.output.fresh import RECORD
from pnp.output.kept import INDEX as KEPT_INDEX
from tests.conftest import MINI, run_pnp


def _counts(stdout: str) -> tuple[int, int, int]:
    found = re.search(r"laid out (\d+) documents \((\d+) of the faces\), (\d+) from the cache", stdout)
    assert found, stdout
    laid, faces, cached = map(int, found.groups())
    return laid, faces, cached


def _unrecorded(out: Path) -> None:
    """Drop the record of the last build (pnp.output.fresh), which would
    skip a build with nothing changed: these tests are of the cache."""
    (out / "mini" / RECORD).unlink(missing_ok=True)


def _build(game: Path, out: Path) -> tuple[int, int, str]:
    _unrecorded(out)
    result = run_pnp("build", str(game), "--paper", "a4", "--out", str(out))
    assert result.returncode == 0, result.stderr
    laid, _, cached = _counts(result.stdout)
    digest = hashlib.sha256((out / "mini" / "mini-home-a4.pdf").read_bytes()).hexdigest()
    return laid, cached, digest


def _faces_laid_out(game: Path, out: Path) -> int:
    _unrecorded(out)
    result = run_pnp("build", str(game), "--paper", "a4", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return _counts(result.stdout)[1]


def test_one_card_edit_lays_out_its_run_and_shared_changes_lay_out_all(mini_copy: Path, tmp_path: Path) -> None:
    """Faces are cached in short runs cut by their own keys: an edit lays out
    only the run of the face it changed, a shared template every run with a
    face made from it, a font every face."""
    from pnp.render.layout import LONGEST_RUN

    cards = mini_copy / "cards.yaml"
    cards.write_text("cards:\n" + "".join(f"  - {{id: c{n}, title: Card {n}, symbols: {{sun: 1}}}}\n" for n in range(40)))
    out = tmp_path / "out"
    cold = _faces_laid_out(mini_copy, out)
    assert cold > 40  # 40 fronts and the backs
    assert _faces_laid_out(mini_copy, out) == 0
    cards.write_text(cards.read_text().replace("title: Card 7,", "title: Card seven,", 1))
    assert 1 <= _faces_laid_out(mini_copy, out) <= LONGEST_RUN
    template = mini_copy / "templates/mini/card.html"
    template.write_text(template.read_text().replace("<h1>", "<h1>Dear ", 1))
    assert _faces_laid_out(mini_copy, out) >= 40  # every front uses card.html
    font = mini_copy / "game.yaml"
    font.write_text(font.read_text().replace("EBGaramond12-Regular.ttf", "EBGaramond12-Italic.ttf", 1))
    assert _faces_laid_out(mini_copy, out) == cold  # a font every face uses: all of them


def test_a_warm_rebuild_renders_nothing_and_writes_the_same_bytes(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = _build(mini_copy, out)
    assert first[0] >= 2 and first[1] == 0
    again = _build(mini_copy, out)
    assert again == (0, first[0], first[2])
    assert (out / "mini" / ".cache" / "render").is_dir()


def test_every_kind_of_change_is_rendered_again(mini_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _, _, original = _build(mini_copy, out)
    changes = [
        ("cards.yaml", "title: One", "title: Uno"),  # card data
        ("templates/mini/card.html", "<h1>", "<h1>Dear "),  # the template
        ("art/dot.svg", 'fill="#333"', 'fill="#933"'),  # art a face uses
    ]
    seen = {original}
    for file, old, new in changes:
        path = mini_copy / file
        path.write_text(path.read_text().replace(old, new, 1))
        laid, cached, digest = _build(mini_copy, out)
        assert laid >= 1, f"a change to {file} was served from the cache"
        assert digest not in seen, f"a change to {file} did not change the PDF"
        seen.add(digest)
    # A stylesheet the faces use: add one, then change it.
    (mini_copy / "templates/mini/extra.css").write_text("h1 { color: #000; }\n")
    text = (mini_copy / "game.yaml").read_text().replace("    front: mini/card.html\n", "    front: mini/card.html\n    style: [mini/extra.css]\n", 1)
    (mini_copy / "game.yaml").write_text(text)
    _build(mini_copy, out)
    (mini_copy / "templates/mini/extra.css").write_text("h1 { color: #a00; }\n")
    laid, _, digest = _build(mini_copy, out)
    assert laid >= 1 and digest not in seen


def test_deleting_output_gives_a_cold_build(mini_copy: Path, tmp_path: Path) -> None:
    import shutil

    out = tmp_path / "out"
    first = _build(mini_copy, out)
    shutil.rmtree(out)
    assert _build(mini_copy, out) == first


def test_the_cache_keeps_what_was_used_last_and_stays_under_its_limit(tmp_path: Path) -> None:
    import os

    from pnp.render.cache import RenderCache

    earlier = RenderCache(tmp_path / "render")
    import io

    import pikepdf

    blank = pikepdf.new()
    blank.add_blank_page()
    written = io.BytesIO()
    blank.save(written)
    page = written.getvalue()
    for number, key in enumerate(["old", "older-but-used", "kept", "new"]):
        earlier.put(key, page)
        os.utime(next((tmp_path / "render").glob(f"{key}-*.pdf")), ns=(0, (number + 1) * 10**9))  # written a second apart, in this order
    earlier.save_face_index({"f1": {"document": "old"}, "f2": {"document": "new"}})
    cache = RenderCache(tmp_path / "render")  # a later build
    assert cache.folder is not None
    assert cache.get("older-but-used") == page  # reading it marks it used now
    assert cache.prune(2 * len(page), keep={"kept"}) == 2
    assert sorted(p.stem.rsplit("-", 1)[0] for p in cache.folder.glob("*.pdf")) == ["kept", "older-but-used"]
    assert RenderCache(tmp_path / "render").face_index() == {}  # no entry points at a deleted page
    assert cache.prune(0, keep={"kept"}) == 1 and [p.stem.rsplit("-", 1)[0] for p in cache.folder.glob("*.pdf")] == ["kept"]


def test_a_build_trims_the_cache_to_its_limit_and_keeps_what_it_used(mini_copy: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    out = tmp_path / "out"
    folder = out / "mini" / ".cache" / "render"
    cards = mini_copy / "cards.yaml"

    def build(title: str | None = None, limit: str = "0") -> subprocess.CompletedProcess[str]:
        if title is not None:
            cards.write_text(re.sub(r"title: (Two|Deux|Dos)", f"title: {title}", cards.read_text(), count=1))
        command = [sys.executable, "-m", "pnp", "build", str(mini_copy), "--paper", "a4", "--out", str(out)]
        _unrecorded(out)
        return subprocess.run(command, env={**os.environ, "PNP_CACHE_MB": limit}, cwd=ROOT, capture_output=True, text=True)

    assert build().returncode == 0
    first = set(folder.glob("*.pdf"))
    assert build("Deux").returncode == 0
    second = set(folder.glob("*.pdf"))
    # The run holding card two was laid out anew and the one it replaced
    # deleted (a limit of 0 keeps only what this build used); the instructions
    # were used again. Card two's new key may also move where its run ends:
    # then two runs are new, or two replaced.
    assert 1 <= len(second - first) <= 2 and 1 <= len(first - second) <= 2
    assert build("Dos").returncode == 0
    third = set(folder.glob("*.pdf"))
    assert not (second - first) <= third and 1 <= len(third - second) <= 2  # "Deux" was used last build, not this one
    assert _counts(build().stdout)[0] == 0  # what the build used was kept: nothing to lay out again
    bad = build(limit="lots")
    assert bad.returncode == 2 and "PNP_CACHE_MB='lots': expected a number of megabytes" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_cache_limit_must_be_a_finite_number_of_megabytes(monkeypatch: "pytest.MonkeyPatch") -> None:
    import pytest

    from pnp.errors import UsageError
    from pnp.render.cachelimit import cache_limit

    monkeypatch.setenv("PNP_CACHE_MB", "0.5")
    assert cache_limit() == 500_000
    for bad in ("inf", "1e400", "nan", "-1", "lots"):
        monkeypatch.setenv("PNP_CACHE_MB", bad)
        with pytest.raises(UsageError, match="expected a number of megabytes"):
            cache_limit()


def test_a_page_that_vanishes_mid_build_stops_it_with_a_clear_error_and_nothing_written(
    mini_copy: Path, tmp_path: Path, monkeypatch: "pytest.MonkeyPatch"
) -> None:
    """Another build of the same folder (one that ignores its lock) trims its
    cache between lookup and use: the build holds its pages' paths, not their
    bytes, so it stops with a message saying to build again, and the files
    the last build wrote are left as they were."""
    from pnp.errors import BuildError
    from pnp.output.stage import build
    from pnp.loading.loader import load_game
    from pnp.render.cache import RenderCache

    game = load_game(mini_copy)
    build(game, ["a4"], tmp_path / "out")
    written = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*.pdf") if ".cache" not in p.parts}
    real_has_face = RenderCache.has_face
    vanished: list[str] = []

    def has_face_then_vanish(self: RenderCache, index: dict, key: str) -> bool:
        found = real_has_face(self, index, key)
        if found and self.folder is not None:
            page = next(self.folder.glob(f"{index[key]['document']}-*.pdf"), self.folder / "none")
            if page.exists():
                page.unlink()
                vanished.append(page.name)
        return found

    monkeypatch.setattr(RenderCache, "has_face", has_face_then_vanish)
    (tmp_path / "out" / KEPT_INDEX).unlink()  # else the files are kept, and their pages never read again
    with pytest.raises(BuildError, match="a cached page vanished during the build .*run the build again"):
        build(game, ["a4"], tmp_path / "out")
    assert vanished and written
    assert {p: p.read_bytes() for p in (tmp_path / "out").rglob("*.pdf") if ".cache" not in p.parts} == written


def test_cache_keys_carry_the_versions_of_what_lays_text_out() -> None:
    """Pango, HarfBuzz, fontconfig and FreeType come from the system: read
    without WeasyPrint, and the same as WeasyPrint's own bindings report."""
    from pnp.render.cache import engine_versions, job_key
    from pnp.render.libraries import library_versions
    from pnp.render.weasy import load_weasyprint

    load_weasyprint()
    from weasyprint.text.ffi import pango

    found = library_versions()
    major, minor, micro = (int(part) for part in found["pango"].split("."))
    assert major * 10000 + minor * 100 + micro == pango.pango_version()
    if shutil.which("dpkg-query"):  # Debian and Ubuntu: the packages' own versions
        packages = {"pango": "libpango-1.0-0", "harfbuzz": "libharfbuzz0b", "fontconfig": "libfontconfig1", "freetype": "libfreetype6"}
        for name, package in packages.items():
            listed = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True, check=True).stdout
            assert listed.split("+")[0].split("-")[0] == found[name], (name, listed, found)
    versions = engine_versions()
    for name, value in found.items():
        assert f"{name} {value}" in versions
    assert "weasyprint " in versions and "fontconfig.conf " in versions
    engine_versions.cache_clear()
    library_versions.cache_clear()
    try:
        before = job_key("<p>x</p>", [])
        library_versions()["pango"] = "0.0.0"  # another Pango: another key
        engine_versions.cache_clear()
        assert job_key("<p>x</p>", []) != before
    finally:
        engine_versions.cache_clear()
        library_versions.cache_clear()


def _damage_page(out: Path) -> None:
    page = sorted((out / "mini" / ".cache" / "render").glob("*.pdf"))[0]
    page.write_bytes(page.read_bytes()[:300])


def _damage_index(out: Path) -> None:
    index = out / "mini" / ".cache" / "render" / "faces.json"
    entries = json.loads(index.read_text())
    for entry in entries.values():  # faces' entries and documents' alike
        entry["page"] = 7
    index.write_text(json.dumps(entries))


def _count_more_pages(out: Path) -> None:
    index = out / "mini" / ".cache" / "render" / "faces.json"
    entries = json.loads(index.read_text())
    for entry in entries.values():
        if "pages" in entry:  # a face's entry (a document's holds only its findings)
            entry["pages"] += 3
            entry["page"] = entry["pages"] - 1
    index.write_text(json.dumps(entries))


def _scramble_page(out: Path) -> None:
    page = sorted((out / "mini" / ".cache" / "render").glob("*.pdf"))[0]
    data = bytearray(page.read_bytes())
    data[200:-200] = bytes(len(data) - 400)  # whole length, %%EOF kept, the body zeroed
    page.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [_damage_page, _damage_index, _count_more_pages, _scramble_page],
    ids=["truncated page", "page number past the end", "more pages than the document has", "zeroed body"],
)
def test_a_damaged_cache_is_dropped_with_a_warning_and_laid_out_again(tmp_path: Path, damage: Any) -> None:
    out = tmp_path / "out"
    assert run_pnp("build", str(MINI), "--out", str(out), "--paper", "a4").returncode == 0
    damage(out)
    for attempt in range(2):  # and the build after it is clean again
        _unrecorded(out)  # else nothing changed is all there is to say
        result = run_pnp("build", str(MINI), "--out", str(out), "--paper", "a4")
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        warned = re.search(r"held (1 damaged page or entry|\d+ damaged pages or entries); they were dropped and laid out again", result.stderr) is not None
        assert warned == (attempt == 0), result.stderr
    subprocess.run(["qpdf", "--check", str(out / "mini" / "mini-home-a4.pdf")], check=True, capture_output=True)


def test_files_a_page_names_indirectly_or_by_a_relative_url_are_laid_out_again(mini_copy: Path, tmp_path: Path) -> None:
    """Files named only inside another file (``@import "more.css"``, an SVG's
    ``<image href>``) or by a URL relative to the game folder are part of the
    key of the pages that use them."""
    from tests.render.test_face_identity import _dress

    _dress(mini_copy)
    out = tmp_path / "out"
    seen = {_build(mini_copy, out)[2]}
    edits = [
        ("templates/mini/more.css", "letter-spacing: 0", "letter-spacing: 0.2em"),  # imported by cards.css
        ("art/ray.svg", "#c90", "#09c"),  # shown by sun.svg
        ("art/mark.svg", "#09c", "#90c"),  # <img src="art/mark.svg">
    ]
    for file, old, new in edits:
        path = mini_copy / file
        path.write_text(path.read_text().replace(old, new, 1))
        laid, _, digest = _build(mini_copy, out)
        assert laid >= 1 and digest not in seen, f"an edit to {file} was served from the cache"
        seen.add(digest)

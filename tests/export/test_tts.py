"""The Tabletop Simulator export read as TTS reads it: the saved object's
decks and tiles, followed to the image region each card's face and back come
from, compared as pixels with that card's own faces rendered apart."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops, ImageStat

from pnp.output.parts import BLANK_BACK
from pnp.output.raster import face_images
from pnp.loading.loader import load_game, resolve_game_dir
from pnp.model import Game
from tests.conftest import run_pnp
from tests.pixels import TOLERANCE

ONLY = "ring-sleeves,crest-sleeves,symbol-markers,letterboxes"
PREFIX = "https://example.org/persuasion/"
MIN_DPI = 150
DPI_FLOOR = MIN_DPI - 1e-6
"""What 150 dpi measures as, given float points (63.5 mm is 2.5000000000000004 in)."""
KNOWN = {"DeckCustom", "Card", "Custom_Tile", "Bag"}


@pytest.fixture(scope="module")
def tts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    result = run_pnp("build", "persuasion-b04", "--profile", "tts", "--only", ONLY, "--out", str(out))
    assert result.returncode == 0, result.stderr
    # B04 declares the plain backs of its one-sided components, so none is warned of.
    assert "one-sided" not in result.stderr
    return out / "persuasion-b04" / "tts"


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(resolve_game_dir("persuasion-b04"))


@pytest.fixture(scope="module")
def expected(game: Game) -> dict[tuple[str, str], tuple[Any, Any]]:
    """Each card's own front and back, by (component name, card title),
    rendered apart from the export at its resolution (no bleed, 150 dpi)."""
    out: dict[tuple[str, str], tuple[Any, Any]] = {}
    for component_id in ONLY.split(","):
        component = game.component(component_id)
        component = replace(component, bleed=0.0, back=component.back or BLANK_BACK)
        plan, images = face_images(game, [component], None, MIN_DPI)
        titles = {card.id: card.title for card in component.cards}
        for card_id, front, back in plan.cards[component.id]:
            assert back is not None
            out[(component.name, titles[card_id])] = (images[front], images[back])
    return out


def _saved(folder: Path) -> dict[str, Any]:
    return dict(json.loads((folder / "persuasion-b04.json").read_text()))


def _objects(states: list[dict[str, Any]], holder: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object, with the name of the deck or bag holding it."""
    for state in states:
        yield holder, state
        yield from _objects(state.get("ContainedObjects", []), state.get("Nickname", ""))


def _urls(document: dict[str, Any]) -> list[str]:
    urls = []
    for _, state in _objects(document["ObjectStates"]):
        for entry in state.get("CustomDeck", {}).values():
            urls += [entry["FaceURL"], entry["BackURL"]]
        if "CustomImage" in state:
            urls += [state["CustomImage"]["ImageURL"], state["CustomImage"]["ImageSecondaryURL"]]
    return urls


def _local(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def _slot(sheet: Image.Image, entry: dict[str, Any], index: int) -> Image.Image:
    w, h = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
    assert (w * entry["NumWidth"], h * entry["NumHeight"]) == sheet.size
    x, y = index % entry["NumWidth"], index // entry["NumWidth"]
    return sheet.crop((x * w, y * h, (x + 1) * w, (y + 1) * h))


def _same(actual: Image.Image, wanted: Any, what: str) -> None:
    assert actual.size == wanted.size, what
    diff = max(ImageStat.Stat(ImageChops.difference(actual.convert("RGB"), wanted.convert("RGB"))).mean)
    assert diff <= TOLERANCE, f"{what}: mean difference {diff:.2f}"


def _differ(images: list[Any]) -> bool:
    return all(
        max(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) > 5
        for i, a in enumerate(images) for b in images[i + 1 :]
    )


def test_saved_object_has_the_tts_fields_and_consistent_ids(tts: Path) -> None:
    document = _saved(tts)
    assert document["SaveName"] == "Persuasion B04" and isinstance(document["ObjectStates"], list)
    seen = {state["Name"] for _, state in _objects(document["ObjectStates"])}
    assert seen <= KNOWN and {"DeckCustom", "Custom_Tile", "Bag"} <= seen
    keys: dict[str, str] = {}
    for _, state in _objects(document["ObjectStates"]):
        assert set(state["Transform"]) == {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
        assert len(state["GUID"]) == 6
        if state["Name"] == "DeckCustom":
            assert state["DeckIDs"] == [card["CardID"] for card in state["ContainedObjects"]]
            for key, entry in state["CustomDeck"].items():
                assert set(entry) >= {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"}
                assert keys.setdefault(key, entry["FaceURL"]) == entry["FaceURL"]  # a key is one sheet in the whole save
        if state["Name"] == "Card":
            (key,) = state["CustomDeck"]
            entry = state["CustomDeck"][key]
            assert state["CardID"] // 100 == int(key)
            assert state["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"] - 1  # never the hidden slot
    decks = {state["Nickname"]: state for _, state in _objects(document["ObjectStates"]) if state["Name"] == "DeckCustom"}
    assert len(decks["Sealed crest sleeves"]["ContainedObjects"]) == 80 and len(decks["Ring sleeves"]["ContainedObjects"]) == 8
    bags = {state["Nickname"]: state for _, state in _objects(document["ObjectStates"]) if state["Name"] == "Bag"}
    markers = bags["Symbol markers"]["ContainedObjects"]
    assert len(markers) == 40 and all(m["CustomImage"]["CustomTile"]["Type"] == 2 for m in markers)  # round tokens
    boards = [s for s in document["ObjectStates"] if s["Name"] == "Custom_Tile"]
    assert len(boards) == 8 and all(b["CustomImage"]["CustomTile"]["Type"] == 0 for b in boards)


def test_every_card_shows_its_own_front_and_back(tts: Path, expected: dict[tuple[str, str], tuple[Any, Any]]) -> None:
    document = _saved(tts)
    sheets: dict[str, Image.Image] = {}

    def image(url: str) -> Image.Image:
        if url not in sheets:
            sheets[url] = Image.open(_local(url)).convert("RGB")
        return sheets[url]

    checked = 0
    for holder, state in _objects(document["ObjectStates"]):
        if state["Name"] == "Card":
            entry = state["CustomDeck"][str(state["CardID"] // 100)]
            index = state["CardID"] % 100
            front, back = expected[(holder, state["Nickname"])]
            _same(_slot(image(entry["FaceURL"]), entry, index), front, f"{holder}/{state['Nickname']} front")
            shown = _slot(image(entry["BackURL"]), entry, index) if entry["UniqueBack"] else image(entry["BackURL"])
            _same(shown, back, f"{holder}/{state['Nickname']} back")
            checked += 1
        elif state["Name"] == "Custom_Tile":
            name = holder or "Letterbox boards"
            front, back = expected[(name, state["Nickname"])]
            _same(image(state["CustomImage"]["ImageURL"]), front, f"{name}/{state['Nickname']} front")
            _same(image(state["CustomImage"]["ImageSecondaryURL"]), back, f"{name}/{state['Nickname']} back")
            checked += 1
    assert checked == 80 + 8 + 40 + 8
    # The test can fail: the ring sleeves' eight backs (one crest each) and the
    # markers' five backs really differ, so a deck given one back would not pass.
    assert _differ([expected[("Ring sleeves", t)][1] for t in ("Ashford", "Bellamy", "Carrow", "Hollis")])
    assert _differ([back for (name, _), (_, back) in expected.items() if name == "Symbol markers"])
    ring = next(s for _, s in _objects(document["ObjectStates"]) if s.get("Nickname") == "Ring sleeves")
    assert all(entry["UniqueBack"] for entry in ring["CustomDeck"].values())
    crest = next(s for _, s in _objects(document["ObjectStates"]) if s.get("Nickname") == "Sealed crest sleeves")
    assert not any(entry["UniqueBack"] for entry in crest["CustomDeck"].values())


def test_every_image_is_at_least_150_dpi_and_a_local_file(tts: Path, game: Game) -> None:
    document = _saved(tts)
    printed = {c.name: (c.size.width / 72, c.size.height / 72) for c in game.components}
    urls = _urls(document)
    assert urls and all(_local(url).is_file() and _local(url).is_relative_to(tts) for url in urls)
    for holder, state in _objects(document["ObjectStates"]):
        if state["Name"] == "Card":
            entry = state["CustomDeck"][str(state["CardID"] // 100)]
            w, h = printed[holder]
            sheet = Image.open(_local(entry["FaceURL"]))
            assert sheet.width / entry["NumWidth"] / w >= DPI_FLOOR and sheet.height / entry["NumHeight"] / h >= DPI_FLOOR
            if not entry["UniqueBack"]:
                back = Image.open(_local(entry["BackURL"]))
                assert back.width / w >= DPI_FLOOR and back.height / h >= DPI_FLOOR
        elif state["Name"] == "Custom_Tile":
            w, h = printed[holder or "Letterbox boards"]
            for url in (state["CustomImage"]["ImageURL"], state["CustomImage"]["ImageSecondaryURL"]):
                size = Image.open(_local(url)).size
                assert size[0] / w >= DPI_FLOOR and size[1] / h >= DPI_FLOOR, (url, size)
    board = Image.open(tts / "letterboxes" / "ashford-front.png")
    assert board.size[0] >= 232 / 25.4 * MIN_DPI  # not 409 px (45 dpi) any more


def test_url_prefix_names_every_image_under_it(tmp_path: Path) -> None:
    result = run_pnp(
        "build", "persuasion-b04", "--profile", "tts", "--only", "ring-sleeves,symbol-markers", "--url-prefix", PREFIX.rstrip("/"),
        "--out", str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "persuasion-b04" / "tts"
    urls = _urls(_saved(folder))
    assert urls and all(url.startswith(PREFIX) for url in urls)
    assert all((folder / url[len(PREFIX) :]).is_file() for url in urls)  # hosted as the folder is laid out
    wrong = run_pnp("build", "persuasion-b04", "--profile", "drivethrucards", "--url-prefix", PREFIX, "--out", str(tmp_path))
    assert wrong.returncode == 2 and "only the tts profile" in wrong.stderr

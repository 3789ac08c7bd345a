"""The 60-card poker deck every peer script in bench/poker/ makes (issue 41).

Sixty cards (63 x 88 mm): a title, a line of text and three SVG icons on
each front, one back shared by all; printed 9-up on A4 with crop marks,
each sheet of fronts followed by its backs, mirrored for long-edge duplex.
:func:`write_game` writes it as a pnp game folder; the peers read
:data:`CARDS` and :func:`icon_files` to draw the same cards their own way.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "pnp" / "resources" / "fonts" / "ebgaramond" / "EBGaramond12-Regular.ttf"
MM = 72 / 25.4
CARD_W, CARD_H = 63 * MM, 88 * MM
PAGE_W, PAGE_H = 210 * MM, 297 * MM
COLUMNS, ROWS = 3, 3
BACK_COLOUR = "#23395b"

ICONS = {
    "sun": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
    '<circle cx="12" cy="12" r="5" fill="#e0a020"/>'
    '<path d="M12 1v4M12 19v4M1 12h4M19 12h4M4.2 4.2l2.8 2.8M17 17l2.8 2.8M4.2 19.8 7 17M17 7l2.8-2.8" '
    'stroke="#e0a020" stroke-width="2" stroke-linecap="round"/></svg>',
    "drop": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
    '<path d="M12 2C9 7 5 11 5 15a7 7 0 0 0 14 0c0-4-4-8-7-13z" fill="#2a6fb0"/></svg>',
    "leaf": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
    '<path d="M4 20C4 10 10 4 20 4c0 10-6 16-16 16z" fill="#3c8c3c"/><path d="M4 20 14 10" stroke="#fff" stroke-width="1.5"/></svg>',
}

def cards(count: int = 60) -> list[tuple[str, str]]:
    """(title, line of text) of each card: each card a distinct face."""
    return [(f"Card {n + 1}", f"Gain {n % 5 + 1} and draw a card.") for n in range(count)]


CARDS = cards()


def icon_files(folder: Path) -> dict[str, Path]:
    """The icons written as SVG files in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, svg in ICONS.items():
        paths[name] = folder / f"{name}.svg"
        paths[name].write_text(svg)
    return paths


FRONT = """<div class="bleed" style="background: #fff"></div>
<div class="safe" style="font-family: 'EB Garamond'">
  <h1 style="font-size: 16pt; margin: 0 0 4mm">{{ card.title }}</h1>
  <p style="font-size: 10pt; margin: 0 0 4mm">{{ card.text }}</p>
  {% for icon in set_lists.icons %}<img src="{{ icon.art }}" style="width: 12mm; margin-right: 2mm">{% endfor %}
</div>
"""

BACK = f"""<div class="bleed" style="background: {BACK_COLOUR}"></div>
<div class="safe" style="font-family: 'EB Garamond'; color: #fff; text-align: center; font-size: 24pt; padding-top: 30mm">Poker</div>
"""


def write_game(folder: Path, count: int = 60) -> Path:
    """The deck (of ``count`` cards) as a pnp game folder."""
    icon_files(folder / "art")
    (folder / "templates" / "poker").mkdir(parents=True, exist_ok=True)
    (folder / "templates" / "poker" / "front.html").write_text(FRONT)
    (folder / "templates" / "poker" / "back.html").write_text(BACK)
    icons = "".join(f"    - {{id: {name}, name: {name.title()}, art: art/{name}.svg}}\n" for name in ICONS)
    (folder / "game.yaml").write_text(
        "schema: 1\nid: poker\nname: Poker\nversion: \"1\"\nplayers: {min: 2, max: 4}\n"
        "fonts:\n  - {family: EB Garamond, file: fonts/ebgaramond/EBGaramond12-Regular.ttf}\n"
        f"sets:\n  icons:\n{icons}"
        "components:\n  - id: cards\n    name: Cards\n    size: poker\n    cards: cards.yaml\n"
        "    front: poker/front.html\n    back: poker/back.html\n"
        "    fields:\n      text: {type: text, doc: A line of text.}\n"
    )
    listed = "".join(f"  - id: c{n}\n    title: {title}\n    text: {text}\n" for n, (title, text) in enumerate(cards(count)))
    (folder / "cards.yaml").write_text("cards:\n" + listed)
    return folder


def slots(mirrored: bool) -> list[tuple[float, float]]:
    """The lower-left corner (PDF points, y up) of each card of a sheet, in
    reading order; ``mirrored``: columns swapped, for a sheet of backs."""
    left = (PAGE_W - COLUMNS * CARD_W) / 2
    bottom = (PAGE_H - ROWS * CARD_H) / 2
    out = []
    for row in range(ROWS):
        for column in range(COLUMNS):
            col = COLUMNS - 1 - column if mirrored else column
            out.append((left + col * CARD_W, bottom + (ROWS - 1 - row) * CARD_H))
    return out


def crop_marks() -> list[tuple[float, float, float, float]]:
    """Lines (x1, y1, x2, y2) outside the grid, one pair per cut."""
    left = (PAGE_W - COLUMNS * CARD_W) / 2
    bottom = (PAGE_H - ROWS * CARD_H) / 2
    right, top = left + COLUMNS * CARD_W, bottom + ROWS * CARD_H
    lines = []
    for i in range(COLUMNS + 1):
        x = left + i * CARD_W
        lines += [(x, bottom - 5 * MM, x, bottom - 1 * MM), (x, top + 1 * MM, x, top + 5 * MM)]
    for j in range(ROWS + 1):
        y = bottom + j * CARD_H
        lines += [(left - 5 * MM, y, left - 1 * MM, y), (right + 1 * MM, y, right + 5 * MM, y)]
    return lines

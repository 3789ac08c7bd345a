"""Page 1's shopping list and assembly steps: what players get besides a
printer (the stocks and sheets the parts print on, punches for round pieces,
and the game's ``prepare:`` list) and how the printed pieces become the ones
the rules name (``prepare[].how`` and each component's ``assembly``)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from pnp.model import Game, Module
from pnp.units import to_mm
from pnp.words import count, listed

if TYPE_CHECKING:
    from pnp.output.home.pages import PartRow


def needs(game: Game, parts: Sequence[PartRow], module: Module | None = None) -> list[str]:
    """Everything to get for one file's parts, one line each: sheets of each
    stock (the label product is named in What to print), the punches for round
    pieces (their sizes as shops sell them; Cutting gives millimetres), then the
    game's own list (the base game's file only: a module's file holds only its
    extra cards)."""
    sheets: dict[str, int] = {}
    for part in parts:
        sheets[part["material"]] = sheets.get(part["material"], 0) + part["sheets"]
    lines = [f"{count(n, 'sheet')} of {stock}" for stock, n in sheets.items()]
    lines += _punches([(p["width_mm"], p["name"]) for p in parts if p["round"]])
    return lines + (_prepared(game) if module is None else [])


def document_needs(game: Game, paper: str) -> list[str]:
    """The same list for a rulebook, which knows no sheet counts: each stock
    the components print on, the punches, the game's own list."""
    stocks = list(dict.fromkeys(c.stock for c in game.components))
    round_items = [
        (round(to_mm(c.size.width), 1), c.name) for c in game.components
        if c.layout_for(paper) in game.layouts and game.layouts[c.layout_for(paper)].guides is not None
    ]
    return stocks + _punches(round_items) + _prepared(game)


def _punches(round_items: Sequence[tuple[float, str]]) -> list[str]:
    """One line naming a punch for each size of round piece, largest first."""
    punches: dict[str, list[str]] = {}
    for width_mm, name in sorted(round_items, key=lambda item: -item[0]):
        punches.setdefault(inch_text(width_mm / 25.4), []).append(name.lower())
    if not punches:
        return []
    sizes = "; ".join(f"{inches} for the {listed(names)}" for inches, names in punches.items())
    return [f"{'a round craft punch' if len(punches) == 1 else 'round craft punches'} (or scissors): {sizes}"]


def _prepared(game: Game) -> list[str]:
    return [f"{p.count} {p.need}" if p.count else p.need for p in game.prepare]


def steps(game: Game, parts: Sequence[PartRow], module: Module | None = None) -> list[dict[str, str]]:
    """How the pieces go together: the game's ``prepare[].how`` (base file
    only), then the ``assembly`` of each component printed in this file."""
    out = [{"name": "", "how": p.how} for p in game.prepare if p.how and module is None]
    here = {part["id"] for part in parts}
    out += [{"name": c.name, "how": c.assembly} for c in game.components if c.assembly and c.id in here]
    return out


def inch_text(inches: float) -> str:
    """A punch size as shops sell it: ``1-inch``, ``3/4-inch``, ``5/8-inch``
    (to the nearest sixteenth when within a hundredth), else two decimals."""
    near = Fraction(round(inches * 16), 16)
    if abs(float(near) - inches) > 0.01 or near == 0:
        return f"{inches:.2f}-inch"
    whole, part = divmod(near, 1)
    if part == 0:
        return f"{whole}-inch"
    return f"{whole} {part}-inch" if whole else f"{part}-inch"

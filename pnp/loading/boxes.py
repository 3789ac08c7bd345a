"""``boxes:`` in game.yaml: tuck boxes sized from the decks they hold."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from pnp.errors import Diagnostic
from pnp.schema.scalars import SLUG, FileRef, Length, Text
from pnp.schema.spec import Field, ListOf, Record, got
from pnp.loading.yamlsrc import Document
from pnp.model import Component, TuckBox

PANELS = ("front", "back", "side", "top")

SLEEVES = Record(
    (
        Field("width", Length(5, 600), "The sleeve's outer width."),
        Field("height", Length(5, 600), "The sleeve's outer height."),
        Field("thickness", Length(0, 1), "What a sleeve adds to a card's thickness (both films)."),
    ),
    "{width, height, thickness}",
)

BOX = Record(
    (
        Field("id", SLUG, "The box's id."),
        Field("name", Text(max_length=80), "The box's name, as the printing instructions say it."),
        Field("holds", ListOf(SLUG, 1), "The components whose cards it holds, together (of one card size)."),
        Field("stock", Length(0.05, 2), "The thickness of one card, such as 0.3mm."),
        Field("sleeves", SLEEVES, "The sleeves the cards are in; leave out for unsleeved cards.", None),
        Field("tolerance", Length(0, 10), "Play added to each inner dimension (it also takes up the board's thickness).", 72 / 25.4),
        Field(
            "panels",
            Record(tuple(Field(name, FileRef("template"), f"The template printed on the {name} panel{'s' if name in ('side', 'top') else ''}.", None)
                         for name in PANELS), "{front, back, side, top}"),
            "Templates printed on the panels; a panel without one is left blank.", {},
        ),
        Field("style", ListOf(FileRef("style")), "Stylesheets the panels use.", ()),
    ),
    "a box {id, name, holds, stock, ...}",
)


def tuck_boxes(
    checked: Sequence[Mapping[str, object]], components: Sequence[Component], doc: Document, diagnostics: list[Diagnostic],
    template_name: Callable[[Path], str],
) -> tuple[TuckBox, ...]:
    """The checked ``boxes:``, each holding components that exist and share a card size."""
    known = {c.id: c for c in components}
    out = []
    for index, box in enumerate(checked):
        holds: tuple[str, ...] = got(box, "holds", tuple)
        held = [known.get(name) for name in holds]
        for j, (name, component) in enumerate(zip(holds, held)):
            if component is None:
                diagnostics.append(doc.error(("boxes", index, "holds", j), f"no component {name!r}; expected one of {', '.join(known) or 'none'}"))
        sizes = {(round(c.size.width, 2), round(c.size.height, 2)) for c in held if c is not None}
        if len(sizes) > 1:
            diagnostics.append(doc.error(("boxes", index, "holds"), "the components are of different card sizes; expected one size a box"))
        sleeves = box["sleeves"]
        given = box["panels"]
        panels = {name: template_name(path) for name, path in given.items() if path is not None} if isinstance(given, dict) else {}
        out.append(TuckBox(
            got(box, "id", str), got(box, "name", str), holds, got(box, "stock", float),
            (got(sleeves, "width", float), got(sleeves, "height", float), got(sleeves, "thickness", float)) if isinstance(sleeves, dict) else None,
            got(box, "tolerance", float), MappingProxyType(panels), got(box, "style", tuple),
        ))
    return tuple(out)

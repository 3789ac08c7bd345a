"""Components whose pieces the data implies: dice printed as cube nets
(``net:``), the faces of those dice as labels (``faces_of:``), and tokens in
the denominations of a rules table (``denominations:``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from pnp.errors import Diagnostic, Source
from pnp.loading.yamlsrc import KeyPath
from pnp.schema.shapes import SizeValue
from pnp.schema.spec import Checker, got
from pnp.model import Card, Component, DieNet
from pnp.nets import cube_net, layout

FACES = 6


def die_net(c: Mapping[str, object], path: KeyPath, ck: Checker) -> tuple[DieNet, SizeValue] | None:
    """The net a component declares and the piece size it needs (the size
    comes from the net, so the component may not give one)."""
    net = got(c, "net", dict)
    if c["size"] is not None:
        ck.error((*path, "size"), "a net works out its own size from its face and tabs; leave 'size' out")
        return None
    if c["back"] is not None:
        ck.error((*path, "back"), "a net is printed on one side only; leave 'back' out")
        return None
    face = net["face"]
    tab = net["tab"] if net["tab"] is not None else 0.3 * face
    if tab > face / 2:
        ck.error((*path, "net", "tab"), f"expected a tab at most half the face ({face / 2 * 25.4 / 72:.1f}mm), so facing tabs never meet")
        return None
    box = layout(cube_net(), face, tab)
    return DieNet(net["faces"], face, tab), {"name": "custom", "width": box.width, "height": box.height}


def check_faces(component: Component, path: KeyPath, ck: Checker) -> None:
    """Every die of a net component lists exactly six faces."""
    assert component.net is not None
    for card in component.cards:
        faces = card.fields.get(component.net.faces)
        if not isinstance(faces, (list, tuple)) or len(faces) != FACES:
            found = len(faces) if isinstance(faces, (list, tuple)) else "a mapping" if isinstance(faces, dict) else repr(faces)
            message = f"card {card.id!r}: expected a list of {FACES} faces for a cube net, found {found}"
            ck.diagnostics.append(Diagnostic(card.source, component.net.faces, message))


def face_cards(name: str, path: KeyPath, ck: Checker, before: Sequence[Component]) -> tuple[Card, ...]:
    """One card per face of every die of the net component ``name`` (listed
    earlier): the die's fields, with ``face`` (the face as listed) and
    ``face_number`` (1 to 6); printed as many times as the die is."""
    nets = {c.id: c for c in before if c.net is not None}
    if name not in nets:
        ck.error(path, f"unknown net component {name!r}; expected one listed before this one with 'net': {', '.join(nets) or 'none'}")
        return ()
    source = nets[name]
    assert source.net is not None
    cards = []
    for die in source.cards:
        faces = die.fields.get(source.net.faces)
        for number, face in enumerate(faces if isinstance(faces, (list, tuple)) else (), start=1):
            fields = MappingProxyType({**die.fields, "face": face, "face_number": number})
            cards.append(Card(f"{die.id}-{number}", f"{die.title}, face {number}", die.copies, fields, die.source))
    return tuple(cards)


def denomination_cards(key: str, path: KeyPath, ck: Checker, source: Source) -> tuple[Card, ...]:
    """One piece per value of the rules table ``key`` (``{1: 30, 5: 16}``:
    value to count), printed count times, with the field ``value``; so the
    printed supply is the one the rules count with."""
    rules = ck.rules if isinstance(ck.rules, dict) else {}
    table = rules.get(key)
    if not isinstance(table, dict) or not table:
        tables = sorted(k for k, v in rules.items() if isinstance(v, dict))
        ck.error(path, f"rules.{key} is not a table of value: count; expected one of {', '.join(tables) or 'none'}")
        return ()
    cards = []
    for value, count in table.items():
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 10_000:
            ck.error(path, f"rules.{key}.{value}: expected a count from 0 to 10000, found {count!r}")
            continue
        cards.append(Card(str(value), str(value), count, MappingProxyType({"value": value}), source))
    return tuple(cards)

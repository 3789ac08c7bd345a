"""Checks over a card's numbers and a game's chance pieces, from the data alone:

- ``checks.profile``: several whole-number fields of a card read as one profile
  (four traits graded 1-5): the total and spread of every card, no card beaten
  or matched on every field by another of its group, each field's total alike
  within a group, and the means of the cards sharing a value (a family);
- ``checks.dice``: the exact odds of each value a die turns up, a face that
  stands in for a card's own value (its preference) counted over the cards;
- ``checks.tokens``: a supply of tokens in denominations against the start
  each player takes and the most a turn can take: how short a game can be.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from pnp.schema.checks import Dice, Means, Profile, Tokens
from pnp.model import Card, Component
from pnp.rules.figures import ProfileGroup, TokenTable
from pnp.rules.findings import Severity
from pnp.rules.run import Run


def _cards(component: Component) -> list[Card]:
    return [card for card in component.cards if card.copies]


def _numbers(run: Run, component: Component, fields: Sequence[str], path: str) -> dict[str, tuple[int, ...]] | None:
    """Each card's values of ``fields``, by card id; None after an error at the first card lacking one."""
    out = {}
    for card in _cards(component):
        values = [card.fields.get(f) for f in fields]
        bad = next((f for f, v in zip(fields, values) if type(v) is not int), None)
        if bad is not None:
            run.add(Severity.ERROR, "profile", f"{card.title}: {bad} is {card.fields.get(bad)!r}, not a whole number ({path}.fields)", str(card.source))
            return None
        out[card.id] = tuple(v for v in values if isinstance(v, int))  # each is an int (checked above)
    return out


def _groups(component: Component, field: str | None) -> dict[str, list[Card]]:
    groups: dict[str, list[Card]] = {}
    for card in _cards(component):
        groups.setdefault("all" if field is None else str(card.fields.get(field)), []).append(card)
    return groups


def profile(run: Run, rule: Profile, path: str) -> None:
    component = run.component("profile", rule.component, f"{path}.component")
    if component is None:
        return
    fields = list(rule.fields)
    numbers = _numbers(run, component, fields, path)
    total = None if rule.total is None else run.number("profile", rule.total, f"{path}.total")
    spread = None if rule.spread_max is None else run.number("profile", rule.spread_max, f"{path}.spread_max")
    if numbers is None or (rule.total is not None and total is None) or (rule.spread_max is not None and spread is None):
        return
    why = rule.why
    for card in _cards(component):
        values = numbers[card.id]
        if total is not None and sum(values) != total:
            run.add(Severity.ERROR, "profile", f"{card.title}: {' + '.join(map(str, values))} = {sum(values)}, expected {total} ({why})", str(card.source))
        if spread is not None and max(values) - min(values) > spread:
            run.add(Severity.ERROR, "profile", f"{card.title}: highest {max(values)} less lowest {min(values)} is more than {spread} ({why})", str(card.source))
    groups = _groups(component, rule.group)
    report: dict[str, ProfileGroup] = {}
    for name, cards in groups.items():
        rows = [numbers[c.id] for c in cards]
        if rule.undominated:
            _dominated(run, cards, numbers, fields, why)
        totals = {f: sum(r[i] for r in rows) for i, f in enumerate(fields)}
        if rule.even and len(set(totals.values())) > 1:
            said = ", ".join(f"{f} {t}" for f, t in totals.items())
            run.add(Severity.ERROR, "profile", f"{component.name} ({name}): field totals differ: {said} ({why})", str(cards[0].source))
        report[name] = {
            "cards": len(cards), "totals": totals,
            "histograms": {f: {v: sum(r[i] == v for r in rows) for v in sorted({r[i] for r in rows})} for i, f in enumerate(fields)},
            "sums": _tally(sum(r) for r in rows), "spreads": _tally(max(r) - min(r) for r in rows),
        }
    means = _means(run, component, numbers, fields, rule.means, why) if rule.means else {}
    run.exact.setdefault("profile", {})[component.id] = {"groups": report, "means": means, "why": why}


def _tally(values: Iterable[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


def _dominated(run: Run, cards: list[Card], numbers: dict[str, tuple[int, ...]], fields: list[str], why: str) -> None:
    """An error at each card some other card of its group matches or beats on every field and beats on one."""
    for card in cards:
        mine = numbers[card.id]
        for other in cards:
            theirs = numbers[other.id]
            if other is not card and theirs != mine and all(t >= m for t, m in zip(theirs, mine)):
                run.add(Severity.ERROR, "profile", f"{card.title} is dominated by {other.title}: {mine} against {theirs} ({why})", str(card.source))
                break


def _means(run: Run, component: Component, numbers: dict[str, tuple[int, ...]], fields: list[str], means: Means, why: str) -> dict[str, dict[str, float]]:
    """Per value of ``means.by`` held by at least ``means.size_min`` cards: each field's mean, within [min, max]."""
    out: dict[str, dict[str, float]] = {}
    for value, cards in _groups(component, means.by).items():
        if len(cards) < means.size_min:
            continue
        row = {f: Fraction(sum(numbers[c.id][i] for c in cards), len(cards)) for i, f in enumerate(fields)}
        out[value] = {f: float(m) for f, m in row.items()}
        for f, m in row.items():
            if not means.min <= m <= means.max:
                run.add(
                    Severity.ERROR, "profile", f"{means.by} {value}: mean {f} {float(m):.2f} outside {means.min}-{means.max} ({why})",
                    str(cards[0].source),
                )
    return out


def dice(run: Run, rule: Dice, path: str) -> None:
    """The exact odds of each value a die turns up."""
    faces: object = rule.faces
    if isinstance(faces, str):
        if faces not in run.game.rules:
            run.no_key("dice", faces, f"{path}.faces", "a list of faces or ")
            return
        faces = run.game.rules[faces]
    if not isinstance(faces, (list, tuple)) or not faces or not all(isinstance(f, (str, int)) for f in faces):
        run.add(Severity.ERROR, "dice", f"{path}.faces: expected a list of faces (texts or numbers), found {faces!r}", run.where(f"{path}.faces"))
        return
    counts = {str(f): Fraction(list(faces).count(f), len(faces)) for f in dict.fromkeys(faces)}
    odds = dict(counts)
    stand_in = rule.stand_in
    if stand_in is not None:
        component = run.component("dice", stand_in.component, f"{path}.stand_in.component")
        if component is None:
            return
        share = odds.pop(stand_in.face, Fraction(0))
        cards = [c for c in component.cards for _ in range(c.copies)]
        for card in cards:
            value = str(card.fields.get(stand_in.field))
            odds[value] = odds.get(value, Fraction(0)) + share / len(cards)
    entries = run.game.sets.get(rule.cover, ()) if rule.cover else ()
    for entry in entries:
        if odds.get(entry.id, 0) == 0:
            run.add(Severity.ERROR, "dice", f"no face turns up {entry.id} ({rule.why})", run.where(f"{path}.faces"))
    run.exact.setdefault("dice", {})[rule.label or "dice"] = {
        "faces": {f: str(p) for f, p in counts.items()}, "odds": {v: str(p) for v, p in sorted(odds.items())}, "why": rule.why,
    }


def tokens(run: Run, rule: Tokens, path: str) -> None:
    """The supply's value against each table's start, and the fewest turns that can empty it."""
    key = rule.denominations
    table = run.game.rules.get(key)
    if key not in run.game.rules:
        run.no_key("tokens", key, f"{path}.denominations")
        return
    if not isinstance(table, Mapping) or not all(type(k) is int and type(v) is int and k > 0 and v >= 0 for k, v in table.items()):
        run.add(Severity.ERROR, "tokens", f"rules.{key}: expected {{value: tokens}} of whole numbers, found {table!r}", run.where(f"rules.{key}"))
        return
    start = run.number("tokens", rule.start, f"{path}.start")
    most = run.number("tokens", rule.most_per_turn, f"{path}.most_per_turn")
    if start is None or most is None or most == 0:
        return
    value = sum(k * v for k, v in table.items())
    rows: dict[int, TokenTable] = {}
    low, high = run.game.players
    for players in range(low, high + 1):
        left = value - start * players
        if left <= 0:
            run.add(Severity.ERROR, "tokens", f"{players} players take {start * players} at the start; the supply is worth {value} ({rule.why})", run.where(f"rules.{key}"))
            continue
        shortest = -(-left // most)
        rows[players] = {"left": left, "shortest_turns": shortest, "shortest_rounds": -(-shortest // players)}
        if rule.turns_at_least and shortest < rule.turns_at_least:
            run.add(
                Severity.WARNING, "tokens",
                f"{players} players: the supply can run out in {shortest} turns, fewer than {rule.turns_at_least} ({rule.why})", run.where(path),
            )
    run.exact.setdefault("tokens", {})[rule.label or key] = {
        "value": value, "tokens": sum(table.values()), "start": start, "most_per_turn": most, "tables": rows, "why": rule.why,
    }


__all__ = ["dice", "profile", "tokens"]

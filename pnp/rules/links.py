"""Checks that card fields naming other things name real ones, consistently:

- ``checks.links``: a field's values are ids of another component's cards (a
  character's home is a house) or keys of a rules value (its circle); a
  link may have to be returned (two cards intended for each other), share
  some fields with the card it names and differ in others, and every target
  may have to be named at least once;
- ``checks.agree``: cards sharing one field's value agree on others (a family
  shares one home and one circle).
"""

from __future__ import annotations

from collections.abc import Mapping

from pnp.schema.checks import Agree, Links
from pnp.model import Card
from pnp.rules.findings import Severity
from pnp.rules.run import Run


def _targets(run: Run, rule: Links, path: str) -> tuple[dict[str, Card | None], str] | None:
    """The ids a link may name (with the card, when they are cards) and what they are called."""
    if (rule.to is None) == (rule.to_rules is None):
        run.add(Severity.ERROR, "links", f"{path}: expected one of to (a component) or to_rules (a rules key)", run.where(path))
        return None
    if rule.to is not None:
        component = run.component("links", rule.to, f"{path}.to")
        if component is None:
            return None
        return {c.id: c for c in component.cards}, component.name.lower()
    key = rule.to_rules
    assert key is not None  # exactly one of to and to_rules, said above
    if key not in run.game.rules:
        run.no_key("links", key, f"{path}.to_rules")
        return None
    value = run.game.rules[key]
    if not isinstance(value, (Mapping, list, tuple)) or not value:
        run.add(Severity.ERROR, "links", f"rules.{key}: expected a mapping or a list of ids ({path} links to it), found {value!r}", run.where(f"rules.{key}"))
        return None
    return {str(k): None for k in value}, f"rules.{key}"


def links(run: Run, rule: Links, path: str) -> None:
    component = run.component("links", rule.component, f"{path}.component")
    found = _targets(run, rule, path)
    if component is None or found is None:
        return
    targets, called = found
    field, why = rule.field, rule.why
    named: dict[str, int] = {}
    for card in component.cards:
        value = card.fields.get(field)
        if value in (None, ""):
            if not rule.optional:
                run.add(Severity.ERROR, "links", f"{card.title}: {field} is empty; expected one of the {called} ({why})", str(card.source))
            continue
        if str(value) not in targets:
            run.add(Severity.ERROR, "links", f"{card.title}: {field} {value!r} is none of the {called}: {', '.join(targets)} ({why})", str(card.source))
            continue
        named[str(value)] = named.get(str(value), 0) + 1
        other = targets[str(value)]
        if other is not None:
            _pair(run, rule, card, other)
    if rule.every:
        for target in targets:
            if target not in named:
                run.add(Severity.ERROR, "links", f"no {component.name.lower()} names {target!r} in {field} ({why})", run.where(f"{path}.field"))
    run.exact.setdefault("links", {})[f"{component.id}.{field}"] = {"named": named, "targets": len(targets), "why": why}


def _pair(run: Run, rule: Links, card: Card, other: Card) -> None:
    field, why = rule.field, rule.why
    if rule.mutual and other.fields.get(field) != card.id:
        run.add(Severity.ERROR, "links", f"{card.title} names {other.title} in {field}, who does not name {card.title} back ({why})", str(card.source))
    for f in rule.same:
        if card.fields.get(f) != other.fields.get(f):
            run.add(Severity.ERROR, "links", f"{card.title} and {other.title} differ in {f} ({card.fields.get(f)!r}, {other.fields.get(f)!r}) ({why})", str(card.source))
    for f in rule.differ:
        if card.fields.get(f) == other.fields.get(f):
            run.add(Severity.ERROR, "links", f"{card.title} and {other.title} share {f} {card.fields.get(f)!r} ({why})", str(card.source))


def agree(run: Run, rule: Agree, path: str) -> None:
    component = run.component("agree", rule.component, f"{path}.component")
    if component is None:
        return
    by = rule.by
    first: dict[str, Card] = {}
    sizes: dict[str, int] = {}
    for card in component.cards:
        key = str(card.fields.get(by))
        sizes[key] = sizes.get(key, 0) + card.copies
        lead = first.setdefault(key, card)
        for f in rule.fields:
            if card.fields.get(f) != lead.fields.get(f):
                run.add(
                    Severity.ERROR, "agree",
                    f"{card.title}: {f} {card.fields.get(f)!r}, but {lead.title} of the same {by} has {lead.fields.get(f)!r} ({rule.why})", str(card.source),
                )
    run.exact.setdefault("agree", {})[f"{component.id}.{by}"] = {"sizes": _sizes(sizes), "groups": len(sizes), "why": rule.why}


def _sizes(sizes: dict[str, int]) -> dict[int, int]:
    """How many groups have each size."""
    out: dict[int, int] = {}
    for n in sizes.values():
        out[n] = out.get(n, 0) + 1
    return dict(sorted(out.items()))


__all__ = ["agree", "links"]

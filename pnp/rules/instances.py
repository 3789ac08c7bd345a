"""``checks.instances``: how often each value of a card field appears in a
chosen part of a deck, against a number the rules give.

A card whose field holds a list (a card of two suits) counts once for each
value on it. The selection is the component's cards whose fields hold one of
the listed values (``where``), ``decks`` times over (two decks shuffled
together). With ``draw: N`` the count is the worst case over any N cards of
the selection (the most cards of one value a deal of N can turn up), so a
supply can be proved to cover it however the cards fall. Cards in optional
modules count only with ``modules: true``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from pnp.schema.checks import Instances
from pnp.model import Card, Component, Game
from pnp.rules.figures import Exact
from pnp.rules.findings import Severity

Comparison = Literal["more_than", "at_most", "equals"]
COMPARISONS: dict[Comparison, str] = {"more_than": "more than", "at_most": "at most", "equals": "exactly"}


@dataclass(frozen=True)
class Counted:
    """The outcome of one ``instances`` rule."""

    label: str
    counts: dict[str, int]
    """Per value: its instances (or, with ``draw``, the most among any N cards)."""
    comparison: Comparison
    bound: int
    failing: tuple[str, ...]
    """The values that break the comparison."""
    first: dict[str, Card]
    """Per value: the first card of the selection holding it (where its copies are given)."""


class RuleProblem(ValueError):
    """The rule names a rules key or value that is not usable (message says which)."""

    def __init__(self, message: str, at: str, key: str | None = None):
        super().__init__(message)
        self.at = at
        """The faulty value: ``rules.KEY``, or the rule's own key (``more_than``, ``where.kind``)."""
        self.key = key
        """The rules key whose value is faulty, if that is the fault."""


def _rules_value(value: str, rules: Mapping[str, object], what: str) -> object:
    if value not in rules:
        keys = ", ".join(str(k) for k in rules) or "none"
        raise RuleProblem(f"{what}: no rules key {value!r}; expected {_EXPECTED[what.split('.')[0]]} or one of the rules keys: {keys}", what)
    return rules[value]


_EXPECTED = {"where": "a list of values", **dict.fromkeys(("draw", *COMPARISONS), "a whole number")}


def _number(value: int | str, rules: Mapping[str, object], what: str) -> int:
    """A whole number given inline or as the name of a rules key holding one."""
    found = _rules_value(value, rules, what) if isinstance(value, str) else value
    if not isinstance(found, int) or isinstance(found, bool) or found < 0:
        raise RuleProblem(f"rules.{value}: expected a whole number ({what} counts with it), found {found!r}", f"rules.{value}", _key(value))
    return found


def _allowed(value: Sequence[object] | str, rules: Mapping[str, object], what: str) -> set[object]:
    """The values a ``where`` entry allows: a list, or the name of a rules key holding one."""
    found = _rules_value(value, rules, what) if isinstance(value, str) else value
    if not isinstance(found, (list, tuple)) or not found:
        raise RuleProblem(f"rules.{value}: expected a list of values ({what} selects with it), found {found!r}", f"rules.{value}", _key(value))
    return set(found)


def _key(value: object) -> str | None:
    """The rules key a faulty value was taken from (None: it was given inline)."""
    return value if isinstance(value, str) else None


def _values(card: Card, field: str) -> list[object]:
    value = card.fields.get(field)
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _holds(comparison: Comparison, n: int, bound: int) -> bool:
    if comparison == "more_than":
        return n > bound
    return n <= bound if comparison == "at_most" else n == bound


def count(game: Game, rule: Instances, cards: Iterable[Card], every: Iterable[Card]) -> Counted:
    """Count one rule over ``cards`` (the component's cards the rule may see);
    ``every`` (all the component's cards) names the values that count even
    when the selection lacks them."""
    rules = game.rules
    where = {f: _allowed(v, rules, f"where.{f}") for f, v in (rule.where or {}).items()}
    decks = rule.decks
    field = rule.field
    comparison = next((c for c in COMPARISONS if getattr(rule, c) is not None), None)
    if comparison is None:
        raise RuleProblem("expected one of more_than, at_most or equals", "")
    bound = _number(getattr(rule, comparison), rules, comparison)
    values = sorted({str(v) for card in every for v in _values(card, field)})
    chosen = [c for c in cards if all(c.fields.get(f) in allowed for f, allowed in where.items())]
    totals = dict.fromkeys(values, 0)
    if rule.draw is None:
        for card in chosen:
            for v in _values(card, field):
                totals[str(v)] = totals.get(str(v), 0) + card.copies * decks
    else:
        draw = _number(rule.draw, rules, "draw")
        for v in values:
            per_card = sorted(([str(x) for x in _values(c, field)].count(v) for c in chosen for _ in range(c.copies * decks)), reverse=True)
            totals[v] = sum(per_card[:draw])
    failing = tuple(v for v, n in totals.items() if not _holds(comparison, n, bound))
    label = rule.label or f"{rule.component}.{field}"
    first: dict[str, Card] = {}
    for card in chosen:
        for v in _values(card, field):
            first.setdefault(str(v), card)
    return Counted(label, totals, comparison, bound, failing, first)


class Run(Protocol):
    """What a check run offers a check (pnp.rules.run.Run)."""

    game: Game
    exact: Exact
    unusable: set[str]

    def add(self, level: Severity, check: str, message: str, where: str) -> None: ...

    def where(self, path: str) -> str: ...

    def card_where(self, component: Component, card: Card) -> str: ...

    def component(self, check: str, component_id: str, path: str) -> Component | None: ...


R = TypeVar("R", bound=Run)


def report(run: R, rule: Instances, path: str, core: Callable[[R, Component], list[Card]]) -> None:
    """Run one ``checks.instances`` rule: an error per value out of bounds,
    the counts in ``exact.instances.LABEL``. ``core``: the component's cards
    outside optional modules."""
    component = run.component("instances", rule.component, f"{path}.component")
    if component is None:
        return
    cards = component.cards if rule.modules else core(run, component)
    try:
        counted = count(run.game, rule, cards, component.cards)
    except RuleProblem as exc:
        if exc.key is None:
            run.add(Severity.ERROR, "instances", str(exc), run.where(f"{path}.{exc.at}" if exc.at else path))
        elif exc.key not in run.unusable:  # a rules value is told once, however many rules use it
            run.unusable.add(exc.key)
            run.add(Severity.ERROR, "instances", str(exc), run.where(exc.at))
        return
    words = COMPARISONS[counted.comparison]
    worst = "at most " if rule.draw is not None else ""
    for value in counted.failing:
        message = f"{counted.label}: {value} {worst}{counted.counts[value]} times, expected {words} {counted.bound} ({rule.why})"
        card = counted.first.get(value)
        run.add(Severity.ERROR, "instances", message, run.where(path) if card is None else run.card_where(component, card))
    run.exact.setdefault("instances", {})[counted.label] = {
        "counts": counted.counts, "expected": f"{words} {counted.bound}", "ok": not counted.failing, "why": rule.why,
    }


__all__ = ["COMPARISONS", "Counted", "Run", "RuleProblem", "count", "report"]

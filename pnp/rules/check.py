"""Run a game's declared checks: static invariants, balance facts, exact odds.

Everything is computed from the loaded card data; nothing is rendered or
simulated. Findings say where (``file:line:col`` of the value they are about) and what.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from pnp.errors import InputError
from pnp.schema.checks import AmountValue, Deal, FieldRef, Odds, PerValue, SetSize, Supply
from pnp.model import Card, Component, Game
from pnp.rules import instances, links, numbers
from pnp.rules.figures import DealRow, GoalOdds, SymbolTotals
from pnp.rules.findings import Report, Severity
from pnp.rules.odds import OddsCache, at_least_of_kind
from pnp.rules.run import Run


def check_game(game: Game, odds_store: Path | None = None) -> Report:
    """Every check the game declares. Raises :class:`InputError` when one cannot
    be worked out from the data at all (a deck with no copies to count).
    ``odds_store``: where exact odds are kept from one run to the next
    (:class:`OddsCache`)."""
    run = Run(game)
    checks = game.checks
    # Each kind of check, in the order its findings are reported.
    _each(run, "deal", checks.deal, _deal)
    _each(run, "supply", checks.supply, _supply)
    _each(run, "set_size", checks.set_size, _set_size)
    _each(run, "per_value", checks.per_value, _per_value)
    _each(run, "vocabulary", checks.vocabulary, _vocabulary)
    _each(run, "balance", checks.balance, _balance)
    _each(run, "instances", checks.instances, lambda run, rule, path: instances.report(run, rule, path, _core))
    _each(run, "profile", checks.profile, numbers.profile)
    _each(run, "dice", checks.dice, numbers.dice)
    _each(run, "tokens", checks.tokens, numbers.tokens)
    _each(run, "links", checks.links, links.links)
    _each(run, "agree", checks.agree, links.agree)
    cache = OddsCache(odds_store)
    for i, odds in enumerate(checks.odds):
        if odds.kind == "suit-matches":
            _suit_odds(run, odds, f"checks.odds[{i}]")
        else:
            _odds(run, odds, f"checks.odds[{i}]", cache)
    if run.refused:
        raise InputError(run.refused)
    report = Report(game.id, tuple(run.findings), run.exact)
    if not report.errors():  # a game refused leaves nothing behind in its output folder
        cache.save()
    return report


R = TypeVar("R")


def _each(run: Run, key: str, rules: tuple[R, ...], run_check: Callable[[Run, R, str], None]) -> None:
    """Run one kind of check for each rule of it, in the order declared."""
    for i, rule in enumerate(rules):
        run_check(run, rule, f"checks.{key}[{i}]")


def _deal(run: Run, deal: Deal, path: str) -> None:
    deck = run.component("deal", deal.deck, f"{path}.deck")
    table = run.table("deal", deal.hand, f"{path}.hand")
    if deck is None or table is None:
        return
    rows: dict[int, DealRow] = {}
    core = sum(card.copies for card in _core(run, deck))
    per_value = run.value_table("deal", deal.per_value, f"{path}.per_value") if deal.per_value else None
    if deal.per_value and per_value is None:
        return
    values = {card.fields.get(deal.field) for card in _core(run, deck)} if deal.field else set()
    for players in range(run.game.players[0], run.game.players[1] + 1):
        if players not in table:
            continue
        size = core
        given = per_value.get(players) if isinstance(per_value, dict) else None
        if isinstance(given, int) and values:
            size = given * len(values)
        dealt = players * (table[players] + deal.extra)
        left = size - dealt
        rows[players] = {"deck": size, "dealt": dealt, "left": left}
        if left < deal.reserve_min:
            need = f"and {deal.reserve_min} left over " if deal.reserve_min else ""
            run.add(
                Severity.ERROR, "deal",
                f"{players} players need {dealt} {deck.name.lower()} {need}but the deck has {size}",
                run.where(path),
            )
        elif left < deal.reserve_per_player * players:
            run.add(
                Severity.WARNING, "deal",
                f"{players} players: {left} {deck.name.lower()} stay in the deck after the deal, fewer than "
                f"{deal.reserve_per_player} per player for draws in play",
                run.where(path),
            )
    run.exact.setdefault("deal", {})[deck.id] = rows


def _supply(run: Run, supply: Supply, path: str) -> None:
    component = run.component("supply", supply.component, f"{path}.component")
    if component is None:
        return
    each = _amount(run, "supply", supply.each_at_least, f"{path}.each_at_least")
    total = _amount(run, "supply", supply.total_at_least, f"{path}.total_at_least")
    if (each is None and supply.each_at_least is not None) or (total is None and supply.total_at_least is not None):
        return
    if each is not None and supply.plus_powers:
        each += _power_extras(run, supply.plus_powers, f"{path}.plus_powers")
    if each is not None:
        short = [c for c in component.cards if c.copies < each]
        for card in short:
            run.add(
                Severity.ERROR, "supply",
                f"{component.name}: {card.copies} of {card.title}, but the largest table needs {each} ({supply.why})",
                run.card_where(component, card),
            )
    if total is not None and component.copies < total:
        run.add(
            Severity.ERROR, "supply",
            f"{component.name}: {component.copies} in all, but the largest table needs {total} ({supply.why})",
            run.where(path),
        )


def _power_extras(run: Run, component_id: str, path: str) -> int:
    """Cards one player may hold beyond the hand size because of powers: every
    at-start draw and every positive hand-size change, as if one player held
    all those cards (they can: each is dealt like any other)."""
    component = run.component("supply", component_id, path)
    if component is None:
        return 0
    extra = 0
    for card in component.cards:
        powers = card.fields.get("powers") or ()
        for power in powers if isinstance(powers, Iterable) else ():
            effect = power.get("effect") or {}
            if effect.get("type") == "draw" and power.get("kind") == "at-start":
                extra += int(effect.get("count", 0)) * card.copies
            elif effect.get("type") == "hand-size":
                extra += max(0, int(effect.get("delta", 0))) * card.copies
    return extra


def _amount(run: Run, check: str, value: AmountValue | None, path: str) -> int | None:
    """An amount (:class:`pnp.schema.checks.Amount`) for the largest table;
    None when it is not given, or after an error at the faulty value's place."""
    if value is None or isinstance(value, int):
        return value
    arg: Any  # a rules key; a number given to max_of is looked up as a key too, and reported missing
    (form, arg), = value.items()
    if form == "max_of":
        table = run.table(check, arg, f"{path}.{form}")
        return None if table is None else max(table.values())
    count = run.number(check, arg, f"{path}.{form}")
    most = run.game.players[1]
    return None if count is None else count * (most if form == "per_player" else most - 1)


def _core(run: Run, component: Component) -> list[Card]:
    """The component's cards outside every optional module."""
    return [c for c in component.cards if not any(m.holds(c) for m in run.game.modules)]


def _per_value(run: Run, rule: PerValue, path: str) -> None:
    component = run.component("per-value", rule.component, f"{path}.component")
    table = run.value_table("per-value", rule.table, f"{path}.table")
    if component is None or table is None:
        return
    have: dict[object, int] = {}
    first: dict[object, Card] = {}
    for card in _core(run, component):
        value = card.fields.get(rule.field)
        if isinstance(value, (dict, list)):
            run.add(Severity.ERROR, "per-value", f"{component.id}.{rule.field} holds more than one value on {card.title}; per-value counts a field of one value per card", str(card.source))
            return
        if value is not None:
            have[value] = have.get(value, 0) + card.copies
            first.setdefault(value, card)
    low, high = run.game.players
    for n in range(low, high + 1):
        need = table[n]
        wanted = need if isinstance(need, dict) else {v: need for v in have}
        for value, count in wanted.items():
            if have.get(value, 0) < count:
                run.add(
                    Severity.ERROR, "per-value",
                    f"{n} players need {count} {component.name.lower()} of {value}, but there are {have.get(value, 0)} ({rule.why})",
                    run.card_where(component, first[value]) if value in first else run.where(f"rules.{rule.table}[{n}]"),
                )
    run.exact.setdefault("per_value", {})[f"{component.id}.{rule.field}"] = {str(k): v for k, v in have.items()}


def _set_size(run: Run, rule: SetSize, path: str) -> None:
    entries = run.game.sets.get(rule.set)
    if entries is None:
        run.add(Severity.ERROR, "set-size", f"no set {rule.set!r}", run.where(f"{path}.set"))
        return
    need = _amount(run, "set-size", rule.at_least, f"{path}.at_least")
    if need is not None and len(entries) < need:
        run.add(Severity.ERROR, "set-size", f"{len(entries)} {rule.set}, but the largest table needs {need} ({rule.why})", run.where(f"sets.{rule.set}"))


def _ids_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        yield from (k for k in value if isinstance(k, str))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _ids_in(item)


def _field_set(run: Run, check: str, component: Component, field: str, path: str) -> str | None:
    """The set a field's ids belong to, found from the values cards hold."""
    for name, entries in run.game.sets.items():
        ids = {e.id for e in entries}
        used = {i for card in component.cards for i in _ids_in(card.fields.get(field))}
        if used and used <= ids:
            return name
    run.add(Severity.ERROR, check, f"{component.id}.{field} holds no ids of any set", run.where(path))
    return None


def _vocabulary(run: Run, rule: FieldRef, path: str) -> None:
    component = run.component("vocabulary", rule.component, f"{path}.component")
    if component is None:
        return
    set_name = _field_set(run, "vocabulary", component, rule.field, path)
    if set_name is None:
        return
    used = {i for card in component.cards for i in _ids_in(card.fields.get(rule.field))}
    for entry in run.game.sets[set_name]:
        if entry.id not in used:
            at = run.where(f"sets.{set_name}[{run.game.sets[set_name].index(entry)}]")
            run.add(Severity.WARNING, "vocabulary", f"{set_name} entry {entry.id!r} is on no {component.name.lower()}", at)


def _signed(card: Card, field: str) -> dict[str, int]:
    value = card.fields.get(field)
    return dict(value) if isinstance(value, dict) else {}


def _dealt(run: Run, component: Component, path: str) -> bool:
    """Whether ``component`` has a copy to deal; if not, the check naming it
    (at ``path``) cannot be worked out: unusable input."""
    if component.copies:
        return True
    run.refuse(path, f"every card of {component.id!r} has copies: 0, so there is no deck to count; expected a component with at least one copy")
    return False


def _balance(run: Run, rule: FieldRef, path: str) -> None:
    component = run.component("balance", rule.component, f"{path}.component")
    if component is None or not _dealt(run, component, f"{path}.component"):
        return
    totals: dict[str, SymbolTotals] = {}
    for card in component.cards:
        for symbol, sign in _signed(card, rule.field).items():
            row = totals.setdefault(symbol, {"plus": 0, "minus": 0, "cards": 0})
            row["plus" if sign > 0 else "minus"] += card.copies
            row["cards"] += card.copies
    deck = component.copies
    for symbol, row in totals.items():
        row["share"] = str(Fraction(row["cards"], deck))
        run.add(
            Severity.INFO, "balance",
            f"{symbol}: +{row['plus']} / -{row['minus']} (net {row['plus'] - row['minus']:+d}), on {row['cards']} of {deck} cards ({row['cards'] / deck:.0%})",
            run.where(path),
        )
    run.exact.setdefault("balance", {})[f"{component.id}.{rule.field}"] = totals


def _odds(run: Run, rule: Odds, path: str, cache: OddsCache) -> None:
    deck = run.component("odds", rule.deck, f"{path}.deck")
    goal_component = run.component("odds", rule.goals or rule.deck, f"{path}.goals")
    table = run.table("odds", rule.hand, f"{path}.hand")
    if deck is None or goal_component is None or table is None:
        return
    if not (_dealt(run, deck, f"{path}.deck") and _dealt(run, goal_component, f"{path}.goals" if rule.goals else f"{path}.deck")):
        return
    same = goal_component.id == deck.id
    field = rule.field
    cards = [card for card in deck.cards for _ in range(card.copies)]
    sizes = sorted({table[n] for n in range(run.game.players[0], run.game.players[1] + 1) if n in table})
    results: dict[str, dict[str, GoalOdds]] = {}
    for goal in (c for c in goal_component.cards if c.copies):  # a card at copies 0 is never dealt
        wanted = _signed(goal, field)
        if len(wanted) < rule.need:
            run.add(Severity.ERROR, "odds", f"{goal.title} names {len(wanted)} signed symbols; no hand can match {rule.need}", str(goal.source))
            continue
        pool = list(cards)
        if same:
            pool.remove(goal)  # the goal card is not in anyone's hand
        hands = [_signed(card, field) for card in pool]
        if max(sizes) > len(hands):
            run.add(Severity.ERROR, "odds", f"a hand of {max(sizes)} cannot be dealt from {len(hands)} cards", run.where(path))
            return
        probs = cache.probabilities(hands, wanted, sizes, rule.need)
        per_players = {n: probs[table[n]] for n in range(run.game.players[0], run.game.players[1] + 1) if n in table}
        results[goal.id] = _judge(run, rule, goal, goal.title, per_players, table)
    run.exact.setdefault("odds", {})[f"{goal_component.id}.{field}"] = {
        "need": rule.need,
        "hand_sizes": {str(n): table[n] for n in sorted(table)},
        "goals": results,
        "dp_runs": cache.runs,
    }


def _judge(
    run: Run, rule: Odds, goal: Card, name: str, odds: dict[int, Fraction], hands: dict[int, int]
) -> dict[str, GoalOdds]:
    """Report a goal card no hand can satisfy (error) or whose odds leave the
    declared band (warning); return its exact odds for the report."""
    where = str(goal.source)
    if odds and all(p == 0 for p in odds.values()):
        run.add(Severity.ERROR, "odds", f"{name}: no hand at any player count can satisfy it", where)
    else:
        for n, p in odds.items():
            if p == 0:
                run.add(Severity.ERROR, "odds", f"{name}: no {hands[n]}-card hand ({n} players) can satisfy it", where)
            elif not rule.band_min <= p <= rule.band_max:
                run.add(
                    Severity.WARNING, "odds",
                    f"{name}: {float(p):.1%} of {hands[n]}-card hands ({n} players) satisfy it, outside "
                    f"{rule.band_min:.0%}-{rule.band_max:.0%}",
                    where,
                )
    return {str(n): {"probability": str(p), "value": float(p), "hand": hands[n]} for n, p in odds.items()}


def _suit_odds(run: Run, rule: Odds, path: str) -> None:
    """Exact odds that a random hand holds ``need`` letters of the suits a goal
    card seeks, the deck being built with so many letters of each suit."""
    deck = run.component("odds", rule.deck, f"{path}.deck")
    goal_component = run.component("odds", rule.goals or rule.deck, f"{path}.goals")
    hands = run.table("odds", rule.hand, f"{path}.hand")
    if deck is None or goal_component is None or hands is None:
        return
    if rule.seeks is None or rule.deck_per_value is None:
        run.add(Severity.ERROR, "odds", "suit-matches needs 'seeks' and 'deck_per_value' (a rules table)", run.where(path))
        return
    per_value = run.table("odds", rule.deck_per_value, f"{path}.deck_per_value")
    if per_value is None:
        return
    values = {card.fields.get(rule.field) for card in _core(run, deck)}
    label = rule.label or f"at least {rule.need}"
    results: dict[str, dict[str, GoalOdds]] = {}
    for goal in (c for c in goal_component.cards if c.copies):  # a card at copies 0 is never drawn
        sought = goal.fields.get(rule.seeks) or ()
        seeks = set(sought) if isinstance(sought, Iterable) else set()
        per_players = {}
        for n in range(run.game.players[0], run.game.players[1] + 1):
            k = per_value[n]
            if hands[n] > k * len(values):
                run.add(Severity.ERROR, "odds", f"{n} players: a hand of {hands[n]} cannot be dealt from {k * len(values)} cards", run.where(path))
                return
            per_players[n] = at_least_of_kind(k * len(values), k * len(seeks & values), hands[n], rule.need)
        results[goal.id] = _judge(run, rule, goal, f"{goal.title} ({label})", per_players, hands)
    run.exact.setdefault("odds", {})[f"{goal_component.id}.{label}"] = {
        "need": rule.need,
        "hand_sizes": {str(n): hands[n] for n in sorted(hands)},
        "goals": results,
    }

"""The ``checks:`` section of game.yaml: which invariants a game declares.

Each check is generic: it names components, fields and keys of ``rules:``,
so a new game declares its invariants as data rather than code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pnp.schema.scalars import IDENT, SLUG, Boolean, Integer, Number, PaletteColor, Text
from pnp.schema.spec import INVALID, Invalid, Checker, ListOf, MapOf, ModelRecord, Spec, key

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from pnp.loading.yamlsrc import KeyPath


AmountValue = int | Mapping[Literal["max_of", "per_player", "per_other_player"], int | str]
"""A checked :class:`Amount`: a number, or one form and its argument."""


class Amount(Spec[AmountValue]):
    """A count: ``8``, ``{max_of: hand_size}`` (the largest value of a rules
    table), ``{per_player: 1}`` (times the most players) or
    ``{per_other_player: 3}`` (times the most players less one). The number
    may also name a key of ``rules:``."""

    FORMS = ("max_of", "per_player", "per_other_player")

    def expected(self) -> str:
        return "a whole number, or {max_of: KEY}, {per_player: N} or {per_other_player: N}"

    def check(self, value: object, path: KeyPath, ck: Checker) -> AmountValue | Invalid:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        if isinstance(value, dict) and len(value) == 1:
            (form, arg), = value.items()
            if form in self.FORMS and (isinstance(arg, str) or (isinstance(arg, int) and not isinstance(arg, bool))):
                return {form: arg}
        return self.wrong(value, path, ck)


class Share(Spec[float]):
    def expected(self) -> str:
        return "a probability from 0 to 1"

    def check(self, value: object, path: KeyPath, ck: Checker) -> float | Invalid:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
            return float(value)
        return self.wrong(value, path, ck)


@dataclass(frozen=True, kw_only=True)
class Deal:
    deck: str = key(SLUG, "The component cards are dealt from.")
    hand: str = key(IDENT, "The key of rules: holding the hand size for each player count.")
    extra: int = key(Integer(0, 100), "Cards more each player takes from the same deck besides the hand (1 for a goal card drawn from it).", 0)
    reserve_min: int = key(Integer(0), "The fewest cards that must stay in the deck after the deal.", 0)
    reserve_per_player: int = key(Integer(0), "Cards per player that should stay for draws in play (a warning if fewer).", 0)
    per_value: str | None = key(IDENT, "A rules key: when the deck is built with so many cards of each value (suit) per player count.", None)
    field: str | None = key(IDENT, "With per_value: the card field holding the value (suit).", None)


@dataclass(frozen=True, kw_only=True)
class Supply:
    component: str = key(SLUG, "The component whose copies are counted.")
    each_at_least: AmountValue | None = key(Amount(), "For components made with each: the fewest copies of every entry.", None)
    total_at_least: AmountValue | None = key(Amount(), "The fewest copies in all.", None)
    plus_powers: str | None = key(
        SLUG, "A card component whose powers add to each_at_least: every at-start draw and positive hand-size change.", None
    )
    why: str = key(Text(max_length=200), "What the rule needs them for, shown in the message.")


@dataclass(frozen=True, kw_only=True)
class SetSize:
    set: str = key(SLUG, "The set whose entries are counted.")
    at_least: AmountValue = key(Amount(), "The fewest entries.")
    why: str = key(Text(max_length=200), "What the rule needs them for.")


@dataclass(frozen=True, kw_only=True)
class FieldRef:
    component: str = key(SLUG, "The component.")
    field: str = key(IDENT, "The card field (a ref, a list of refs or a map keyed by refs).")


@dataclass(frozen=True, kw_only=True)
class PerValue:
    component: str = key(SLUG, "The component whose cards are counted (cards in optional modules are not).")
    field: str = key(IDENT, "The card field whose values are counted (a suit).")
    table: str = key(IDENT, "The rules key: per player count, the cards of each value needed (a number, or a mapping of value to number).")
    why: str = key(Text(max_length=200), "What the rules need them for.")


OddsKind = Literal["dominant-signs", "suit-matches"]


@dataclass(frozen=True, kw_only=True)
class Odds:
    kind: OddsKind = key(
        Text(r"dominant-signs|suit-matches", "dominant-signs or suit-matches"), "How a hand satisfies a goal card: dominant-signs or suit-matches."
    )
    deck: str = key(SLUG, "The component hands are dealt from.")
    field: str = key(IDENT, "The signed-symbol field ({symbol: +1 or -1}) of hand and goal cards.")
    goals: str | None = key(SLUG, "The component goal cards come from; the deck itself if the same.", None)
    need: int = key(Integer(1, 20), "How many of a goal card's signed symbols must be dominant.")
    hand: str = key(IDENT, "The key of rules: with the hand size for each player count.")
    band_min: float = key(Share(), "Odds below this are a warning.", 0.0)
    band_max: float = key(Share(), "Odds above this are a warning.", 1.0)
    seeks: str | None = key(IDENT, "suit-matches: the goal card's field listing the matching values.", None)
    deck_per_value: str | None = key(IDENT, "suit-matches: the rules key with the deck's cards of each value per player count.", None)
    label: str | None = key(Text(max_length=40), "A name for these odds in reports (prim, proper ...).", None)


CountValue = int | str
"""A checked :class:`CountOrKey`: a number, or the rules key holding one."""


class CountOrKey(Spec[CountValue]):
    """A whole number, or the name of a ``rules:`` key holding one (or a list, for ``where``)."""

    def expected(self) -> str:
        return "a whole number or a key of rules:"

    def check(self, value: object, path: KeyPath, ck: Checker) -> CountValue | Invalid:
        if (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or (isinstance(value, str) and value):
            return value
        return self.wrong(value, path, ck)


class Allowed(Spec[list[object] | str]):
    """The values a field may hold to be counted: a list, or a key of rules: holding one."""

    def expected(self) -> str:
        return "a list of values or a key of rules: holding one"

    def check(self, value: object, path: KeyPath, ck: Checker) -> list[object] | str | Invalid:
        if (isinstance(value, list) and value) or (isinstance(value, str) and value):
            return value
        return self.wrong(value, path, ck)


@dataclass(frozen=True, kw_only=True)
class Instances:
    component: str = key(SLUG, "The component whose cards are counted.")
    field: str = key(IDENT, "The card field whose values are counted; a card with a list (two suits) counts once per value.")
    where: Mapping[str, list[object] | str] | None = key(
        MapOf(IDENT, Allowed()), "Only cards whose fields hold one of these values (a list, or a rules key holding one).", None
    )
    decks: int = key(Integer(1, 100), "Copies of the selection shuffled together (2: two decks).", 1)
    draw: CountValue | None = key(CountOrKey(), "Count the most instances any this many cards of the selection can hold (the worst deal).", None)
    modules: bool = key(Boolean(), "Count cards in optional modules too.", False)
    more_than: CountValue | None = key(CountOrKey(), "Every value must appear more often than this.", None)
    at_most: CountValue | None = key(CountOrKey(), "Every value may appear at most this often.", None)
    equals: CountValue | None = key(CountOrKey(), "Every value must appear exactly this often.", None)
    label: str | None = key(Text(max_length=60), "A name for the count in reports (base game, double deck ...).", None)
    why: str = key(Text(max_length=200), "What the rules need it for.")


@dataclass(frozen=True, kw_only=True)
class Means:
    by: str = key(IDENT, "The card field whose value makes a group (family).")
    min: float = key(Number(), "The least mean of each field in a group.")
    max: float = key(Number(), "The greatest mean of each field in a group.")
    size_min: int = key(Integer(1, 1000), "Only groups of at least this many cards count.", 2)


@dataclass(frozen=True, kw_only=True)
class Profile:
    component: str = key(SLUG, "The component whose cards are read.")
    fields: tuple[str, ...] = key(ListOf(IDENT, 2, 20), "The whole-number fields read together as a card's profile (four traits).")
    group: str | None = key(IDENT, "Compare cards only within each value of this field (ladies with ladies).", None)
    total: CountValue | None = key(CountOrKey(), "Every card's fields add up to this (a number or a rules key).", None)
    spread_max: CountValue | None = key(CountOrKey(), "A card's highest field exceeds its lowest by at most this.", None)
    undominated: bool = key(Boolean(), "No card is matched or beaten on every field, and beaten on one, by another of its group.", False)
    even: bool = key(Boolean(), "Each field adds up to the same total within each group.", False)
    means: Means | None = key(
        ModelRecord.of(Means, "{by, min, max, size_min}"),
        "The mean of each field over the cards sharing a value (a family) stays within bounds.", None,
    )
    why: str = key(Text(max_length=200), "What the design needs it for.")


@dataclass(frozen=True, kw_only=True)
class StandIn:
    face: str = key(Text(max_length=40), "The face that reads as a card's own value.")
    component: str = key(SLUG, "The cards whose value it reads (each equally likely).")
    field: str = key(IDENT, "The card field it reads.")


@dataclass(frozen=True, kw_only=True)
class Dice:
    faces: list[object] | str = key(Allowed(), "The die's faces: a list, or a rules key holding one.")
    stand_in: StandIn | None = key(
        ModelRecord.of(StandIn, "{face, component, field}"), "A face that turns up a card's own value (its preference).", None
    )
    cover: str | None = key(SLUG, "A set every entry of which some face must turn up.", None)
    label: str | None = key(Text(max_length=60), "A name for the die in reports.", None)
    why: str = key(Text(max_length=200), "What the rules need it for.")


@dataclass(frozen=True, kw_only=True)
class Tokens:
    denominations: str = key(IDENT, "The rules key holding {token value: tokens}.")
    start: CountValue = key(CountOrKey(), "What each player takes at the start (a number or a rules key).")
    most_per_turn: CountValue = key(CountOrKey(), "The most value one turn can take from the supply (a number or a rules key).")
    turns_at_least: int = key(Integer(0, 10000), "Warn when the supply can run out in fewer turns than this.", 0)
    label: str | None = key(Text(max_length=60), "A name for these figures in reports.", None)
    why: str = key(Text(max_length=200), "What the rules need it for.")


@dataclass(frozen=True, kw_only=True)
class Links:
    component: str = key(SLUG, "The component whose cards hold the link.")
    field: str = key(IDENT, "The card field naming something.")
    to: str | None = key(SLUG, "The component whose card ids it names.", None)
    to_rules: str | None = key(IDENT, "Instead of to: the rules key whose keys (a mapping) or items (a list) it names.", None)
    optional: bool = key(Boolean(), "An empty value is allowed.", False)
    mutual: bool = key(Boolean(), "The card named names this one back in the same field.", False)
    same: tuple[str, ...] = key(ListOf(IDENT), "Fields the card named must share with this one.", ())
    differ: tuple[str, ...] = key(ListOf(IDENT), "Fields the card named must not share with this one.", ())
    every: bool = key(Boolean(), "Every target is named by at least one card.", False)
    why: str = key(Text(max_length=200), "What the rules need it for.")


@dataclass(frozen=True, kw_only=True)
class Agree:
    component: str = key(SLUG, "The component whose cards are compared.")
    by: str = key(IDENT, "The field whose value makes a group (family).")
    fields: tuple[str, ...] = key(ListOf(IDENT, 1), "The fields every card of a group must hold alike (home, circle).")
    why: str = key(Text(max_length=200), "What the rules need it for.")


@dataclass(frozen=True, kw_only=True)
class Simulation:
    """Target bands for simulated play."""

    winners_share_min: float = key(Share(), "The least share of players who should win, with heuristic agents.", 0.0)
    winners_share_max: float = key(Share(), "The most share of players who should win.", 1.0)
    no_winner_max: float = key(Share(), "The most games that may end with no winner.", 1.0)
    rounds_min: int = key(Integer(0, 1000), "The fewest rounds a typical (median) game should last.", 0)
    rounds_max: int = key(Integer(0, 1000), "The most rounds a typical (median) game should last.", 1000)
    seat_balance_min: float = key(Share(), "1 - the largest gap between seats' win rates: the least allowed.", 0.0)
    skill_gap_min: int = key(Integer(-100, 100), "Percentage points a heuristic seat should beat a random one by.", -100)


@dataclass(frozen=True, kw_only=True)
class Colours:
    name: str = key(Text(max_length=40), "What the colours tell apart (suits, families), as findings name it.")
    colours: tuple[str, ...] = key(ListOf(PaletteColor(), 2), "The colours players tell them apart by: palette names or '#rrggbb'.")
    also: str | None = key(
        Text(max_length=200), "What else tells them apart (a symbol, a name): close colours are then a note, not a warning.", None
    )


def _list(model: type[DataclassInstance], what: str) -> ListOf[object]:
    return ListOf(ModelRecord.of(model, what))


@dataclass(frozen=True, kw_only=True)
class Checks:
    """The invariants and bands a game declares (``checks:`` in game.yaml)."""

    deal: tuple[Deal, ...] = key(
        _list(Deal, "{deck, hand, extra, reserve_min, reserve_per_player}"),
        "Decks that must hold every hand, goal card and reserve at every player count.", (),
    )
    supply: tuple[Supply, ...] = key(
        _list(Supply, "{component, each_at_least or total_at_least, plus_powers, why}"),
        "Components that must be plentiful enough for the largest table.", (),
    )
    set_size: tuple[SetSize, ...] = key(
        _list(SetSize, "{set, at_least, why}"), "Sets that must have enough entries (a family for every player).", ()
    )
    per_value: tuple[PerValue, ...] = key(
        _list(PerValue, "{component, field, table, why}"),
        "Enough cards of each value (suit) for the deck the rules build at each player count.", (),
    )
    vocabulary: tuple[FieldRef, ...] = key(
        _list(FieldRef, "{component, field}"), "Fields whose set must be used in full: an unused entry is a warning.", ()
    )
    balance: tuple[FieldRef, ...] = key(_list(FieldRef, "{component, field}"), "Signed-symbol fields to report plus and minus totals for.", ())
    odds: tuple[Odds, ...] = key(
        _list(Odds, "{kind, deck, field, need, hand, band_min, band_max}"), "Exact odds that a random hand satisfies each goal card.", ()
    )
    instances: tuple[Instances, ...] = key(
        _list(Instances, "{component, field, where, more_than or at_most or equals, why}"),
        "How often each value of a field appears in part of a deck, against a rules number.", (),
    )
    profile: tuple[Profile, ...] = key(
        _list(Profile, "{component, fields, group, total, spread_max, undominated, even, means, why}"),
        "Whole-number fields read as a card's profile: totals, spreads, domination, group means.", (),
    )
    dice: tuple[Dice, ...] = key(_list(Dice, "{faces, stand_in, cover, label, why}"), "The exact odds of each value a die turns up.", ())
    tokens: tuple[Tokens, ...] = key(
        _list(Tokens, "{denominations, start, most_per_turn, turns_at_least, label, why}"),
        "A supply of tokens in denominations against the start and the most a turn takes.", (),
    )
    links: tuple[Links, ...] = key(
        _list(Links, "{component, field, to or to_rules, optional, mutual, same, differ, every, why}"),
        "Fields that name other cards or rules entries, and how the pair must agree.", (),
    )
    agree: tuple[Agree, ...] = key(_list(Agree, "{component, by, fields, why}"), "Cards sharing a field's value agree on other fields.", ())
    colours: tuple[Colours, ...] = key(
        _list(Colours, "{name, colours, also}"),
        "Colours players tell things apart by, checked for colour-vision deficiencies (default: the palette).", (),
    )
    simulation: Simulation | None = key(
        ModelRecord.of(Simulation, "simulation bands"), "Target bands for the engine's simulated play (pnp check --games).", None
    )


CHECKS = ModelRecord.of(Checks, "the checks a game declares")


__all__ = ["CHECKS", "INVALID", "Checks"]

"""The ``checks:`` section of game.yaml: which invariants a game declares.

Each check is generic: it names components, fields and keys of ``rules:``,
so a new game declares its invariants as data rather than code.
"""

from __future__ import annotations

from typing import Any

from pnp.loading.scalars import IDENT, SLUG, Boolean, Integer, Number, PaletteColor, Text
from pnp.loading.spec import INVALID, Checker, Field, ListOf, MapOf, Record, Spec
from pnp.loading.yamlsrc import KeyPath


class Amount(Spec):
    """A count: ``8``, ``{max_of: hand_size}`` (the largest value of a rules
    table), ``{per_player: 1}`` (times the most players) or
    ``{per_other_player: 3}`` (times the most players less one). The number
    may also name a key of ``rules:``."""

    FORMS = ("max_of", "per_player", "per_other_player")

    def expected(self) -> str:
        return "a whole number, or {max_of: KEY}, {per_player: N} or {per_other_player: N}"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        if isinstance(value, dict) and len(value) == 1:
            (form, arg), = value.items()
            if form in self.FORMS and (isinstance(arg, str) or (isinstance(arg, int) and not isinstance(arg, bool))):
                return {form: arg}
        return self.wrong(value, path, ck)


class Share(Spec):
    def expected(self) -> str:
        return "a probability from 0 to 1"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
            return float(value)
        return self.wrong(value, path, ck)


DEAL = Record(
    (
        Field("deck", SLUG, "The component cards are dealt from."),
        Field("hand", IDENT, "The key of rules: holding the hand size for each player count."),
        Field("extra", Integer(0, 100), "Cards more each player takes from the same deck besides the hand (1 for a goal card drawn from it).", 0),
        Field("reserve_min", Integer(0), "The fewest cards that must stay in the deck after the deal.", 0),
        Field("reserve_per_player", Integer(0), "Cards per player that should stay for draws in play (a warning if fewer).", 0),
        Field("per_value", IDENT, "A rules key: when the deck is built with so many cards of each value (suit) per player count.", None),
        Field("field", IDENT, "With per_value: the card field holding the value (suit).", None),
    ),
    "{deck, hand, extra, reserve_min, reserve_per_player}",
)

SUPPLY = Record(
    (
        Field("component", SLUG, "The component whose copies are counted."),
        Field("each_at_least", Amount(), "For components made with each: the fewest copies of every entry.", None),
        Field("total_at_least", Amount(), "The fewest copies in all.", None),
        Field("plus_powers", SLUG, "A card component whose powers add to each_at_least: every at-start draw and positive hand-size change.", None),
        Field("why", Text(max_length=200), "What the rule needs them for, shown in the message."),
    ),
    "{component, each_at_least or total_at_least, plus_powers, why}",
)

SET_SIZE = Record(
    (
        Field("set", SLUG, "The set whose entries are counted."),
        Field("at_least", Amount(), "The fewest entries."),
        Field("why", Text(max_length=200), "What the rule needs them for."),
    ),
    "{set, at_least, why}",
)

FIELD_REF = Record(
    (
        Field("component", SLUG, "The component."),
        Field("field", IDENT, "The card field (a ref, a list of refs or a map keyed by refs)."),
    ),
    "{component, field}",
)

PER_VALUE = Record(
    (
        Field("component", SLUG, "The component whose cards are counted (cards in optional modules are not)."),
        Field("field", IDENT, "The card field whose values are counted (a suit)."),
        Field("table", IDENT, "The rules key: per player count, the cards of each value needed (a number, or a mapping of value to number)."),
        Field("why", Text(max_length=200), "What the rules need them for."),
    ),
    "{component, field, table, why}",
)

ODDS = Record(
    (
        Field("kind", Text(r"dominant-signs|suit-matches", "dominant-signs or suit-matches"), "How a hand satisfies a goal card: dominant-signs or suit-matches."),
        Field("deck", SLUG, "The component hands are dealt from."),
        Field("field", IDENT, "The signed-symbol field ({symbol: +1 or -1}) of hand and goal cards."),
        Field("goals", SLUG, "The component goal cards come from; the deck itself if the same.", None),
        Field("need", Integer(1, 20), "How many of a goal card's signed symbols must be dominant."),
        Field("hand", IDENT, "The key of rules: with the hand size for each player count."),
        Field("band_min", Share(), "Odds below this are a warning.", 0.0),
        Field("band_max", Share(), "Odds above this are a warning.", 1.0),
        Field("seeks", IDENT, "suit-matches: the goal card's field listing the matching values.", None),
        Field("deck_per_value", IDENT, "suit-matches: the rules key with the deck's cards of each value per player count.", None),
        Field("label", Text(max_length=40), "A name for these odds in reports (prim, proper ...).", None),
    ),
    "{kind, deck, field, need, hand, band_min, band_max}",
)

class CountOrKey(Spec):
    """A whole number, or the name of a ``rules:`` key holding one (or a list, for ``where``)."""

    def expected(self) -> str:
        return "a whole number or a key of rules:"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or (isinstance(value, str) and value):
            return value
        return self.wrong(value, path, ck)


class Allowed(Spec):
    """The values a field may hold to be counted: a list, or a key of rules: holding one."""

    def expected(self) -> str:
        return "a list of values or a key of rules: holding one"

    def check(self, value: Any, path: KeyPath, ck: Checker) -> Any:
        if (isinstance(value, list) and value) or (isinstance(value, str) and value):
            return value
        return self.wrong(value, path, ck)


INSTANCES = Record(
    (
        Field("component", SLUG, "The component whose cards are counted."),
        Field("field", IDENT, "The card field whose values are counted; a card with a list (two suits) counts once per value."),
        Field("where", MapOf(IDENT, Allowed()), "Only cards whose fields hold one of these values (a list, or a rules key holding one).", None),
        Field("decks", Integer(1, 100), "Copies of the selection shuffled together (2: two decks).", 1),
        Field("draw", CountOrKey(), "Count the most instances any this many cards of the selection can hold (the worst deal).", None),
        Field("modules", Boolean(), "Count cards in optional modules too.", False),
        Field("more_than", CountOrKey(), "Every value must appear more often than this.", None),
        Field("at_most", CountOrKey(), "Every value may appear at most this often.", None),
        Field("equals", CountOrKey(), "Every value must appear exactly this often.", None),
        Field("label", Text(max_length=60), "A name for the count in reports (base game, double deck ...).", None),
        Field("why", Text(max_length=200), "What the rules need it for."),
    ),
    "{component, field, where, more_than or at_most or equals, why}",
)

MEANS = Record(
    (
        Field("by", IDENT, "The card field whose value makes a group (family)."),
        Field("min", Number(), "The least mean of each field in a group."),
        Field("max", Number(), "The greatest mean of each field in a group."),
        Field("size_min", Integer(1, 1000), "Only groups of at least this many cards count.", 2),
    ),
    "{by, min, max, size_min}",
)

PROFILE = Record(
    (
        Field("component", SLUG, "The component whose cards are read."),
        Field("fields", ListOf(IDENT, 2, 20), "The whole-number fields read together as a card's profile (four traits)."),
        Field("group", IDENT, "Compare cards only within each value of this field (ladies with ladies).", None),
        Field("total", CountOrKey(), "Every card's fields add up to this (a number or a rules key).", None),
        Field("spread_max", CountOrKey(), "A card's highest field exceeds its lowest by at most this.", None),
        Field("undominated", Boolean(), "No card is matched or beaten on every field, and beaten on one, by another of its group.", False),
        Field("even", Boolean(), "Each field adds up to the same total within each group.", False),
        Field("means", MEANS, "The mean of each field over the cards sharing a value (a family) stays within bounds.", None),
        Field("why", Text(max_length=200), "What the design needs it for."),
    ),
    "{component, fields, group, total, spread_max, undominated, even, means, why}",
)

STAND_IN = Record(
    (
        Field("face", Text(max_length=40), "The face that reads as a card's own value."),
        Field("component", SLUG, "The cards whose value it reads (each equally likely)."),
        Field("field", IDENT, "The card field it reads."),
    ),
    "{face, component, field}",
)

DICE = Record(
    (
        Field("faces", Allowed(), "The die's faces: a list, or a rules key holding one."),
        Field("stand_in", STAND_IN, "A face that turns up a card's own value (its preference).", None),
        Field("cover", SLUG, "A set every entry of which some face must turn up.", None),
        Field("label", Text(max_length=60), "A name for the die in reports.", None),
        Field("why", Text(max_length=200), "What the rules need it for."),
    ),
    "{faces, stand_in, cover, label, why}",
)

TOKENS = Record(
    (
        Field("denominations", IDENT, "The rules key holding {token value: tokens}."),
        Field("start", CountOrKey(), "What each player takes at the start (a number or a rules key)."),
        Field("most_per_turn", CountOrKey(), "The most value one turn can take from the supply (a number or a rules key)."),
        Field("turns_at_least", Integer(0, 10000), "Warn when the supply can run out in fewer turns than this.", 0),
        Field("label", Text(max_length=60), "A name for these figures in reports.", None),
        Field("why", Text(max_length=200), "What the rules need it for."),
    ),
    "{denominations, start, most_per_turn, turns_at_least, label, why}",
)

LINKS = Record(
    (
        Field("component", SLUG, "The component whose cards hold the link."),
        Field("field", IDENT, "The card field naming something."),
        Field("to", SLUG, "The component whose card ids it names.", None),
        Field("to_rules", IDENT, "Instead of to: the rules key whose keys (a mapping) or items (a list) it names.", None),
        Field("optional", Boolean(), "An empty value is allowed.", False),
        Field("mutual", Boolean(), "The card named names this one back in the same field.", False),
        Field("same", ListOf(IDENT), "Fields the card named must share with this one.", ()),
        Field("differ", ListOf(IDENT), "Fields the card named must not share with this one.", ()),
        Field("every", Boolean(), "Every target is named by at least one card.", False),
        Field("why", Text(max_length=200), "What the rules need it for."),
    ),
    "{component, field, to or to_rules, optional, mutual, same, differ, every, why}",
)

AGREE = Record(
    (
        Field("component", SLUG, "The component whose cards are compared."),
        Field("by", IDENT, "The field whose value makes a group (family)."),
        Field("fields", ListOf(IDENT, 1), "The fields every card of a group must hold alike (home, circle)."),
        Field("why", Text(max_length=200), "What the rules need it for."),
    ),
    "{component, by, fields, why}",
)

SIMULATION = Record(
    (
        Field("winners_share_min", Share(), "The least share of players who should win, with heuristic agents.", 0.0),
        Field("winners_share_max", Share(), "The most share of players who should win.", 1.0),
        Field("no_winner_max", Share(), "The most games that may end with no winner.", 1.0),
        Field("rounds_min", Integer(0, 1000), "The fewest rounds a typical (median) game should last.", 0),
        Field("rounds_max", Integer(0, 1000), "The most rounds a typical (median) game should last.", 1000),
        Field("seat_balance_min", Share(), "1 - the largest gap between seats' win rates: the least allowed.", 0.0),
        Field("skill_gap_min", Integer(-100, 100), "Percentage points a heuristic seat should beat a random one by.", -100),
    ),
    "simulation bands",
)

COLOURS = Record(
    (
        Field("name", Text(max_length=40), "What the colours tell apart (suits, families), as findings name it."),
        Field("colours", ListOf(PaletteColor(), 2), "The colours players tell them apart by: palette names or '#rrggbb'."),
        Field("also", Text(max_length=200), "What else tells them apart (a symbol, a name): close colours are then a note, not a warning.", None),
    ),
    "{name, colours, also}",
)

CHECKS = Record(
    (
        Field("deal", ListOf(DEAL), "Decks that must hold every hand, goal card and reserve at every player count.", ()),
        Field("supply", ListOf(SUPPLY), "Components that must be plentiful enough for the largest table.", ()),
        Field("set_size", ListOf(SET_SIZE), "Sets that must have enough entries (a family for every player).", ()),
        Field("per_value", ListOf(PER_VALUE), "Enough cards of each value (suit) for the deck the rules build at each player count.", ()),
        Field("vocabulary", ListOf(FIELD_REF), "Fields whose set must be used in full: an unused entry is a warning.", ()),
        Field("balance", ListOf(FIELD_REF), "Signed-symbol fields to report plus and minus totals for.", ()),
        Field("odds", ListOf(ODDS), "Exact odds that a random hand satisfies each goal card.", ()),
        Field("instances", ListOf(INSTANCES), "How often each value of a field appears in part of a deck, against a rules number.", ()),
        Field("profile", ListOf(PROFILE), "Whole-number fields read as a card's profile: totals, spreads, domination, group means.", ()),
        Field("dice", ListOf(DICE), "The exact odds of each value a die turns up.", ()),
        Field("tokens", ListOf(TOKENS), "A supply of tokens in denominations against the start and the most a turn takes.", ()),
        Field("links", ListOf(LINKS), "Fields that name other cards or rules entries, and how the pair must agree.", ()),
        Field("agree", ListOf(AGREE), "Cards sharing a field's value agree on other fields.", ()),
        Field("colours", ListOf(COLOURS), "Colours players tell things apart by, checked for colour-vision deficiencies (default: the palette).", ()),
        Field("simulation", SIMULATION, "Target bands for the engine's simulated play (pnp check --games).", None),
    ),
    "the checks a game declares",
)


__all__ = ["CHECKS", "INVALID"]

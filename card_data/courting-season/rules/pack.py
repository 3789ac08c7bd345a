"""The printed pieces as the engine plays them: characters, influence cards,
the dice, the prestige supply and the rules' numbers, read once from the
loaded game (:func:`read_pack`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pnp.engine.api import EngineError, rules_option, whole_option
from pnp.model import Component, Game

LADY, GENTLEMAN = 0, 1
KINDS = ("lady", "gentleman")
HOST, APPROVAL = "host", "approval"
PREFERENCE = -1
"""A die face that reads as the rolling character's preference."""


@dataclass(frozen=True)
class Character:
    index: int
    id: str
    title: str
    kind: int
    """LADY or GENTLEMAN."""
    family: str
    home: str
    traits: tuple[int, ...]
    """By the pack's trait order."""
    preference: int
    """A trait index."""
    circle: str
    intended: int
    """The index of the character this one is destined to marry, or -1."""
    meddler: bool


@dataclass(frozen=True)
class Influence:
    index: int
    id: str
    title: str
    kind: str
    """HOST or APPROVAL."""
    trait: int
    house: str
    circle: str


@dataclass(frozen=True)
class Pack:
    """Everything the rules read from the data; public, shared by every game."""

    traits: tuple[str, ...]
    characters: tuple[Character, ...]
    influence: tuple[Influence, ...]
    """One entry per printed copy."""
    faces: tuple[int, ...]
    """Each die face: a trait index or PREFERENCE."""
    supply: int
    """The prestige tokens' total value."""
    start_prestige: int
    society: int
    start_kinds: tuple[int, int]
    """Ladies and gentlemen in each first society."""
    start_influence: int
    penalty: int
    """The trait index of the end-of-game penalty."""
    players: tuple[int, int]
    meddlers: bool = False
    """Advanced: a face-up meddler lets its player re-roll for another character."""
    welcome: bool = False
    """Advanced: hosting a character at their home gives an extra turn."""
    intended: bool = False
    """Advanced: approval doubled for an intended match, tripled with a patron of its circle."""
    intended_factor: int = 2
    circle_factor: int = 3
    turn_cap: int = 1000
    means: tuple[tuple[float, ...], ...] = ()
    """:func:`expected`'s table, made once: per character, per preference of the roller."""

    @property
    def advanced(self) -> tuple[str, ...]:
        """The advanced rules in play, by their power names."""
        on = (self.meddlers, self.welcome, self.intended)
        return tuple(name for name, flag in zip(POWERS, on) if flag)


def approval(pack: Pack, card: int, mine: int, other: int) -> int:
    """What approval ``card`` is worth to the player of ``mine`` on its match
    with ``other``: the other's value in the card's trait, times the advanced
    rules' factor for an intended match (more with a patron of its circle)."""
    influence, chars = pack.influence[card], pack.characters
    worth = chars[other].traits[influence.trait]
    if pack.intended and chars[mine].intended == other:
        worth *= pack.circle_factor if influence.circle == chars[mine].circle else pack.intended_factor
    return worth


def expected(pack: Pack, mine: int, other: int) -> float:
    """The mean value of ``other``'s trait that a die rolled for ``mine`` names."""
    return pack.means[other][pack.characters[mine].preference]


def _means(characters: tuple[Character, ...], faces: tuple[int, ...], traits: int) -> tuple[tuple[float, ...], ...]:
    """Per character, per preference of the roller: the mean value a roll takes from it."""
    return tuple(
        tuple(sum(c.traits[pref if f == PREFERENCE else f] for f in faces) / len(faces) for pref in range(traits)) for c in characters
    )


POWERS = ("meddler re-roll", "welcome home", "intended approval")
"""The advanced rules' powers, as ``Outcome.powers`` counts them."""


def _component(game: Game, options: Mapping[str, Any], key: str) -> Component:
    found = next((c for c in game.components if c.id == options.get(key, key)), None)
    if found is None:
        raise EngineError(f"engine.options.{key}: no component {options.get(key, key)!r}")
    return found


def _characters(component: Component, traits: tuple[str, ...]) -> tuple[Character, ...]:
    cards = [card for card in component.cards for _ in range(card.copies)]
    ids = [card.id for card in cards]
    out = []
    for i, card in enumerate(cards):
        f = card.fields
        intended = str(f.get("intended") or "")
        if intended and intended not in ids:
            raise EngineError(f"characters: {card.id} is intended for {intended!r}, who is no character")
        out.append(Character(
            i, card.id, card.title, KINDS.index(str(f["kind"])), str(f["family"]), str(f["home"]),
            tuple(card.whole(t) for t in traits), traits.index(str(f["preference"])), str(f["circle"]),
            ids.index(intended) if intended else -1, bool(f.get("meddler", False)),
        ))
    return tuple(out)


def _influence(component: Component, traits: tuple[str, ...]) -> tuple[Influence, ...]:
    cards = [card for card in component.cards for _ in range(card.copies)]
    return tuple(
        Influence(i, c.id, c.title, str(c.fields["kind"]), traits.index(str(c.fields["trait"])), str(c.fields.get("house") or ""), str(c.fields.get("circle") or ""))
        for i, c in enumerate(cards)
    )


def read_pack(game: Game, options: Mapping[str, Any]) -> Pack:
    """The pack from the game's data and the engine options (game.yaml ``engine:``)."""
    rules = game.rules
    traits = tuple(e.id for e in game.sets.get(str(options.get("traits", "traits")), ()))
    if len(traits) < 2:
        raise EngineError(f"engine.options.traits: no set of traits {options.get('traits', 'traits')!r}")
    faces = rules_option(rules, options, "dice")
    if not isinstance(faces, (list, tuple)) or not faces or any(f != "preference" and f not in traits for f in faces):
        raise EngineError(f"engine.options.dice: expected a list of die faces (traits or 'preference'), found {faces!r}")
    tokens = rules_option(rules, options, "prestige")
    if not isinstance(tokens, Mapping) or not tokens:
        raise EngineError(f"engine.options.prestige: expected {{value: tokens}}, found {tokens!r}")
    penalty = rules_option(rules, options, "penalty")
    if penalty not in traits:
        raise EngineError(f"engine.options.penalty: expected a trait, found {penalty!r}")
    pack = Pack(
        traits, _characters(_component(game, options, "characters"), traits), _influence(_component(game, options, "influence"), traits),
        tuple(PREFERENCE if f == "preference" else traits.index(f) for f in faces),
        sum(int(value) * int(count) for value, count in tokens.items()),
        whole_option(rules_option(rules, options, "start_prestige"), "start_prestige"),
        whole_option(rules_option(rules, options, "society", 4), "society", 2),
        (whole_option(rules_option(rules, options, "start_ladies"), "start_ladies"), whole_option(rules_option(rules, options, "start_gentlemen"), "start_gentlemen")),
        whole_option(rules_option(rules, options, "start_influence", 1), "start_influence"),
        traits.index(penalty), game.players,
        bool(options.get("meddlers", False)), bool(options.get("welcome", False)), bool(options.get("intended", False)),
        whole_option(rules_option(rules, options, "intended_factor", 2), "intended_factor", 1),
        whole_option(rules_option(rules, options, "circle_factor", 3), "circle_factor", 1),
        whole_option(options.get("turn_cap", 1000), "turn_cap", 1),
    )
    _enough(pack)
    return replace(pack, means=_means(pack.characters, pack.faces, len(traits)))


def _enough(pack: Pack) -> None:
    """The most players must get their first societies, hands and prestige."""
    most = pack.players[1]
    for kind, need in enumerate(pack.start_kinds):
        have = sum(c.kind == kind for c in pack.characters)
        if have <= need * most:
            raise EngineError(f"{most} players need more than {need * most} {KINDS[kind]} cards; there are {have}")
    if len(pack.influence) <= pack.start_influence * most:
        raise EngineError(f"{most} players need more than {pack.start_influence * most} influence cards; there are {len(pack.influence)}")
    if pack.supply < pack.start_prestige * most:
        raise EngineError(f"{most} players take {pack.start_prestige * most} prestige; the supply holds {pack.supply}")

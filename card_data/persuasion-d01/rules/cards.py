"""Persuasion D01's cards as the engine uses them, read from the game, and
the one scorer of matrimony (the engine's and `pnp score`'s)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pnp.engine.api import EngineError, frozen


@dataclass(frozen=True)
class Letter:
    id: str
    suit: str
    powers: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Desire:
    id: str
    suit: str
    seeks: frozenset[str]
    condition: Mapping[str, Any]


@dataclass(frozen=True)
class Pack:
    """The D01 cards and tables as the engine uses them."""

    letters: tuple[Letter, ...]
    desires: tuple[Desire, ...]
    suits: tuple[str, ...]
    deck_per_suit: Mapping[int, int]
    desires_per_suit: Mapping[int, Mapping[str, int]]
    hand: int = 5
    hearts: int = 3
    prim: int = 3
    proper: int = 4
    victory_points: int = 3
    heart_points: int = 1
    crests: tuple[str, ...] = ()
    """The families' crest ids (for reading a real table); empty: any name."""
    optional: tuple[Letter, ...] = ()
    """Letters of optional modules left out of play (a real table may still hold them)."""


# -- scoring: the one scorer of D01 (the engine's matrimony and `pnp score`) -------


@dataclass(frozen=True)
class AtMatrimony:
    """One player at matrimony step 3: what lies in front of them."""

    desires: Desire
    front: tuple[str, ...]
    """The suits of the letters in front of the player."""
    hearts: int
    """Suitors' hearts the player holds."""
    fiance: int = -1
    """The fiance's index among the players, or -1."""


@dataclass(frozen=True)
class Score:
    victories: Mapping[str, bool]
    hearts: int
    points: int
    wins: bool

    @property
    def why(self) -> str:
        won = ", ".join(k for k, v in self.victories.items() if v) or "no victory"
        return f"{self.points} points ({won}, {self.hearts} hearts)"


def score_players(pack: Pack, players: Sequence[AtMatrimony]) -> list[Score]:
    """Matrimony steps 4 to 8: prim, proper, unique, hearts, and the winners.

    The most points wins; among equal highest totals the most suitors' hearts
    wins ("hearts ... also break ties"), and players level on both share the
    win. A player with no points does not win (so a table where nobody scored
    has no winner).
    """
    out: list[tuple[dict[str, bool], int, int]] = []
    for p in players:
        seeks = p.desires.seeks
        got: dict[str, bool] = {}
        if p.fiance >= 0:
            got["prim"] = sum(map(seeks.__contains__, players[p.fiance].front)) >= pack.prim
        got["proper"] = sum(map(seeks.__contains__, p.front)) >= pack.proper
        got["unique"] = unique_met(p.desires.condition, p.front, p.hearts, pack.suits)
        points = pack.victory_points * sum(got.values()) + pack.heart_points * p.hearts
        out.append((got, p.hearts, points))
    best = max((points for _, _, points in out), default=0)
    most = max((hearts for _, hearts, points in out if points == best), default=0)  # "hearts also break ties"
    return [Score(MappingProxyType(got), hearts, points, points == best and hearts == most and points > 0) for got, hearts, points in out]


def unique_met(condition: Mapping[str, Any], suits_in_front: Sequence[str], hearts: int, all_suits: Sequence[str]) -> bool:
    kind = condition["type"]
    if kind == "suit-count":
        return sum(1 for s in suits_in_front if s == condition["suit"]) >= int(condition["count"])
    if kind == "all-suits":
        return all(s in suits_in_front for s in all_suits)
    if kind == "hearts":
        return hearts >= int(condition["count"])
    if kind == "no-suit":
        return condition["suit"] not in suits_in_front
    raise EngineError(f"unknown unique victory {kind!r}")


def pack_from_game(game: Any, options: Mapping[str, Any]) -> Pack:
    traits = game.component(options["deck"])
    modules = list(getattr(game, "modules", ()))
    def chosen(card: Any) -> bool:
        return bool(options.get("with_modules")) or not any(m.holds(card) for m in modules)

    def letters_of(cards: Any) -> tuple[Letter, ...]:
        return tuple(
            Letter(card.id, card.fields[options["suit"]], frozen(card.fields.get(options.get("powers", "powers")) or ()))
            for card in cards for _ in range(card.copies)
        )

    letters = letters_of(c for c in traits.cards if chosen(c))
    optional = letters_of(c for c in traits.cards if not chosen(c))
    desires = tuple(
        Desire(card.id, card.fields[options["suit"]], frozenset(card.fields[options["seeks"]]), frozen(card.fields[options["unique"]]["condition"]))
        for card in game.component(options["desires"]).cards
    )
    rules = game.rules
    suits = tuple(e.id for e in game.sets[options["suits"]])
    return Pack(
        letters, desires, suits,
        {int(k): int(v) for k, v in rules[options["deck_per_suit"]].items()},
        {int(k): dict(v) for k, v in rules[options["desires_per_suit"]].items()},
        int(options.get("hand", 5)), int(options.get("hearts", 3)),
        int(rules.get("prim_matches", 3)), int(rules.get("proper_matches", 4)),
        int(rules.get("victory_points", 3)), int(rules.get("heart_points", 1)),
        tuple(e.id for e in game.sets.get(options.get("crests", "crests"), ())), optional,
    )

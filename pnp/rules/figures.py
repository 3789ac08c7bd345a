"""The figures a check reports, by shape: what ``pnp check`` (its ``exact``
part: :class:`Exact`) and ``pnp simulate --json`` write, and what their text
summaries read back (:mod:`pnp.rules.summary`). Plain dicts at run time
(they go to JSON as they are); typed here so that every reader names a key
that is there. The simulation's figures are made by :mod:`pnp.engine`, which
sits beside this package and imports it (never the other way)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class Rate(TypedDict):
    """A rate with its 95 % Wilson interval (:func:`pnp.engine.simulate.wilson`)."""

    rate: float
    low: float
    high: float


class Mean(TypedDict):
    """A per-game mean with its 95 % interval (:func:`pnp.engine.simulate.mean_interval`)."""

    mean: float
    low: float
    high: float


class Measure(Mean):
    """One of the engine's ``MEASURES``: its mean per game, and the share of games that had any."""

    games_with: Rate


class OutcomeFigures(TypedDict):
    """One of the engine's ``CATEGORIES``: seats ending so, and how often they won."""

    wins: int
    losses: int
    share: Rate
    win_rate: Rate


class Rounds(TypedDict):
    mean: float
    p10: int
    p50: int
    p90: int
    max: int


class SkillGap(TypedDict):
    """How far a heuristic seat among random ones beats them (:func:`pnp.engine.skill.skill_gap`)."""

    heuristic_seat: float
    random_seat: float
    points: float
    low: float
    high: float


class Metrics(TypedDict):
    """One run's figures (:func:`pnp.engine.simulate.metrics`); ``pnp check``
    adds the level played, the skill gap and the band it judged the seats by."""

    games: int
    players: int
    variant: str | None
    agents: list[str]
    words: dict[str, str]
    seed: int
    win_rate_by_seat: list[Rate]
    seat_balance: float
    seat_balance_high: float
    winners_share: Rate
    no_winner_rate: Rate
    capped_rate: Rate
    outcomes: dict[str, OutcomeFigures]
    rounds: Rounds
    actions: dict[str, float]
    powers: dict[str, float]
    held_by_winner: dict[str, float]
    measures: dict[str, Measure]
    level: NotRequired[str]
    skill_gap: NotRequired[SkillGap]
    seat_balance_band: NotRequired[float]


Verdict = Literal["none won", "stronger", "weaker", "even"]


class Step(TypedDict):
    """One pair of ladder levels at one player count (:func:`pnp.engine.skill.step`)."""

    games: int
    games_won: int
    share: Rate
    fair: float
    times_fair: dict[str, float]
    verdict: Verdict


class TracePair(TypedDict):
    weaker: str
    stronger: str
    by_players: dict[str, Step]


class Usage(TypedDict):
    """Uses per game of each action and power at one level and player count."""

    games: int
    actions: dict[str, float]
    powers: dict[str, float]
    never_used: NotRequired[dict[str, list[str]]]


class PowerChange(TypedDict):
    """One power switched off (:func:`pnp.engine.whatif.rows`)."""

    power: str
    changed: Rate
    used: Rate


class WhatIf(TypedDict):
    agent: str
    games: int
    why: NotRequired[str]
    by_players: dict[str, list[PowerChange]]


class LevelPlayed(TypedDict):
    agent: str
    games: int
    why: NotRequired[str]


class LadderFigures(TypedDict):
    """The skill ladder as ``pnp check`` reports it (:func:`pnp.engine.balance.simulate_game`)."""

    levels: list[LevelPlayed]
    balance_level: str | None
    budget: float | None
    seed: int
    trace: list[TracePair]
    usage: dict[str, dict[str, Usage]]
    whatif: NotRequired[WhatIf]


class DealRow(TypedDict):
    deck: int
    dealt: int
    left: int


class SymbolTotals(TypedDict):
    """One symbol of ``checks.balance``: cards with it signed + and -."""

    plus: int
    minus: int
    cards: int
    share: NotRequired[str]


class GoalOdds(TypedDict):
    """One goal card at one player count: the exact probability (a fraction's text), as a float, and the hand size."""

    probability: str
    value: float
    hand: int


class OddsFigures(TypedDict):
    need: int
    hand_sizes: dict[str, int]
    goals: dict[str, dict[str, GoalOdds]]
    dp_runs: NotRequired[int]


class InstanceCounts(TypedDict):
    counts: dict[str, int]
    expected: str
    ok: bool
    why: str


class LinkFigures(TypedDict):
    named: dict[str, int]
    """How many cards name each target named."""
    targets: int
    why: str


class AgreeFigures(TypedDict):
    sizes: dict[int, int]
    groups: int
    why: str


class ProfileGroup(TypedDict):
    cards: int
    totals: dict[str, int]
    histograms: dict[str, dict[int, int]]
    sums: dict[int, int]
    spreads: dict[int, int]


class ProfileFigures(TypedDict):
    groups: dict[str, ProfileGroup]
    means: dict[str, dict[str, float]]
    why: str


class DiceFigures(TypedDict):
    faces: dict[str, str]
    odds: dict[str, str]
    why: str


class TokenTable(TypedDict):
    left: int
    shortest_turns: int
    shortest_rounds: int


class TokenFigures(TypedDict):
    value: int
    tokens: int
    start: int
    most_per_turn: int
    tables: dict[int, TokenTable]
    why: str


class Exact(TypedDict, total=False):
    """A check's exact figures, by check (``pnp check --json``: ``exact``);
    a section is there when its check ran."""

    deal: dict[str, dict[int, DealRow]]
    per_value: dict[str, dict[str, int]]
    balance: dict[str, dict[str, SymbolTotals]]
    odds: dict[str, OddsFigures]
    instances: dict[str, InstanceCounts]
    links: dict[str, LinkFigures]
    agree: dict[str, AgreeFigures]
    profile: dict[str, ProfileFigures]
    dice: dict[str, DiceFigures]
    tokens: dict[str, TokenFigures]
    simulation: dict[str, Metrics]
    variants: dict[str, dict[str, Metrics]]
    ladder: LadderFigures

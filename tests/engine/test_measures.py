"""An engine's measures (Outcome.measures): the simulator's per-game means,
their 95 % intervals and how many games had any, exactly as defined, and the
same however the games are split between workers."""

from __future__ import annotations

import math
from types import SimpleNamespace

from pnp.engine.api import Outcome
from pnp.engine.simulate import Z95, Tally, measured


def _outcome(**measures: float) -> Outcome:
    return Outcome((True, False), ("won", "lost"), 1, False, ((), ()), measures=measures)


VALUES = [0.0, 2.0, 1.0, 0.0, 3.0, 0.0, 1.0, 1.0]


def test_mean_interval_and_share_are_computed_exactly() -> None:
    tally = Tally()
    for v in VALUES:
        tally.add(_outcome(ties=v, flag=float(v > 1)))
    engine = SimpleNamespace(MEASURES={"flag": "a 0/1 measure", "ties": "a count"})
    got = measured(engine, tally)  # type: ignore[arg-type]
    assert list(got) == ["flag", "ties"]  # the engine's order
    n = len(VALUES)
    mean = sum(VALUES) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in VALUES) / (n - 1))
    ties = got["ties"]
    assert ties["mean"] == round(mean, 6)
    assert ties["low"] == round(mean - Z95 * sd / math.sqrt(n), 6) and ties["high"] == round(mean + Z95 * sd / math.sqrt(n), 6)
    assert ties["games_with"]["rate"] == round(5 / 8, 6)
    assert got["flag"]["mean"] == round(2 / 8, 6) and got["flag"]["games_with"]["rate"] == round(2 / 8, 6)


def test_tallies_of_parts_add_up_to_the_whole() -> None:
    whole, first, second = Tally(), Tally(), Tally()
    for i, v in enumerate(VALUES):
        whole.add(_outcome(ties=v))
        (first if i < 3 else second).add(_outcome(ties=v))
    assert first.merge(second).measures == whole.measures

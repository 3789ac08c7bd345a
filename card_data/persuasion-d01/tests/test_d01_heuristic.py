"""The D01 heuristic's morning, written for speed (issue 40), decides and draws
exactly as its plain reading below (the morning as it stood before): at every
morning decision of whole games, at every player count, with and without the
modules' letters, for the heuristic and its restricted variants, with the
engine's lazy options and with the same options as a plain list."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from pnp.engine.api import Decision, agent_rngs, below
from pnp.testing import engine, game_folder

D01, GAME = engine(game_folder(__file__))
AGENTS = D01.agents.AGENTS
Heuristic = D01.agents.Heuristic
MorningOptions = D01.views.MorningOptions
OPTIONS = dict(GAME.engine.options)
PACKS = {modules: D01.prepare(GAME, {**OPTIONS, "with_modules": modules}) for modules in (False, True)}


def _fit(obs: Any, seat: int) -> tuple[float, int]:
    shown = obs.seen_suits[seat]
    return (sum(s in obs.desires.seeks for s in shown) / len(shown), len(shown)) if shown else (0.0, 0)


def _scheme(h: Any, obs: Any, options: Sequence[Any]) -> Any:
    me, fiances = obs.seat, obs.public.fiances
    fiance = fiances[me]
    usable: Sequence[int] = ()
    if h.powers:
        usable = options.powers if isinstance(options, MorningOptions) else [o[1] for o in options if o[0] == "power"]
    if fiance < 0 and not usable:
        return None
    powers = [("power", c) for c in usable]
    free = [p for p in range(obs.players) if p != me and fiances[p] < 0]
    if fiance >= 0:
        fit, count = _fit(obs, fiance)
        if h.breaks and count >= 2 and fit < 0.5 and obs.deck_left >= obs.players and ("break",) in options:
            if any(f[1] >= 2 and f[0] >= max(0.75, fit + 0.25) for f in (_fit(obs, p) for p in free)):
                return ("break",)
        for option in powers:
            effect = obs.known[option[1]].powers[0]["effect"]
            if effect["type"] == "trade" and (effect["with"] != "owner" or obs.owners[option[1]] == fiance):
                return option
        return None
    for option in powers:
        effect = obs.known[option[1]].powers[0]["effect"]
        owner = obs.owners[option[1]]
        if effect["type"] == "peek" and effect["at"] == "hand" and owner in free and _fit(obs, owner) == (1.0, 1):
            return option
    return None


def plain_morning(h: Any, obs: Any, options: Sequence[Any], rng: random.Random) -> Any:
    """The heuristic's morning as first written (main before issue 40's agent work)."""
    me, owners, known, seeks = obs.seat, obs.owners, obs.known, obs.desires.seeks
    own = [c for c in obs.hand if owners[c] == me]
    if h.powers or h.breaks:
        scheme = _scheme(h, obs, options)
        if scheme is not None:
            return scheme
    fiances = obs.public.fiances
    if fiances[me] >= 0:
        gifts = [c for c in own if known[c].suit in seeks] or own or list(obs.hand)
        if gifts and ("write", fiances[me], gifts[0]) in options:
            return ("write", fiances[me], gifts[0])
        return options[rng.randrange(len(options))]
    if h.can_propose and obs.public.rings_home[me]:
        suitors = [(_fit(obs, p), p) for p in range(obs.players) if p != me and fiances[p] < 0]
        good = [(f, p) for f, p in suitors if f[1] >= 2 and (f[0] >= 0.75 or (obs.day > h.patience and f[0] >= 0.5))]
        if suitors and (good or obs.deck_left <= obs.players or obs.day > 3 * h.patience):
            target = max(good or suitors, key=lambda fp: (fp[0], rng.random()))[1]
            if ("propose", target) in options:
                return ("propose", target)
    hearts = obs.public.received[me]
    if hearts and obs.day > h.patience:
        if ("reflect", hearts[0]) in options and rng.random() < 0.3:
            return ("reflect", hearts[0])
    spare = [c for c in own if known[c].suit not in seeks] or own or obs.hand
    if not spare:
        return options[rng.randrange(len(options))]
    shown = [len(s) if p != me else 1 << 30 for p, s in enumerate(obs.seen_suits)]
    targets = [p for p, k in enumerate(shown) if k == min(shown)]
    choice = ("write", targets[below(rng, len(targets))], spare[below(rng, len(spare))])
    return choice if choice in options else options[rng.randrange(len(options))]


def _compare(name: str, players: int, modules: bool, games: int, chosen: Counter[str]) -> None:
    """Play ``games`` games of ``name`` seats; at each morning decision the
    seat's answer and its generator's state afterwards equal the plain
    reading's, for the lazy options and for them as a list."""
    pack = PACKS[modules]
    for game in range(games):
        seed = f"morning:{name}:{players}:{modules}:{game}"
        state = D01.new_state(pack, players, random.Random(seed), OPTIONS)
        seats = [AGENTS[name]() for _ in range(players)]
        rngs = agent_rngs(seed, players)
        while (decision := state.decision()) is not None:
            seat, obs, rng = decision.seat, state.observation(decision.seat), rngs[decision.seat]
            if decision.kind == "morning":
                heuristic = seats[seat].__self__
                as_list = Decision(seat, "morning", list(decision.options), decision.context)
                for asked in (as_list, decision):  # the real generator last: the game goes on from it
                    mine, theirs = random.Random(), random.Random()
                    mine.setstate(rng.getstate())
                    theirs.setstate(rng.getstate())
                    got = seats[seat](obs, asked, rng if asked is decision else mine)
                    want = plain_morning(heuristic, obs, asked.options, theirs)
                    assert got == want, f"{seed}, day {obs.day}, seat {seat}: {got} != {want}"
                    after = rng if asked is decision else mine
                    assert after.getstate() == theirs.getstate(), f"{seed}, day {obs.day}, seat {seat}: other draws"
                chosen[got[0]] += 1
                state.apply(got)
            else:
                state.apply(seats[seat](obs, decision, rng))


@pytest.mark.parametrize("name", ["heuristic", "plain", "never-propose", "never-relate"])
def test_the_morning_decides_and_draws_as_its_plain_reading(name: str) -> None:
    chosen: Counter[str] = Counter()
    for players in range(3, 9):
        for modules in (False, True):
            _compare(name, players, modules, 12, chosen)
    kinds = {"write", "reflect"} | ({"propose"} if name != "never-propose" else set()) | ({"power"} if name != "plain" else set())
    assert kinds <= set(chosen), chosen  # every branch of the morning was taken

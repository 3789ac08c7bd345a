"""Benchmark: pnp's search agent against the heuristic, 2-core machine.

    python bench/search_speed.py [--runs R] [--games-100 G] [--games-1000 H] [--games GAME,...]

1. For each game at 4 players, one core, in fresh processes taking turns
   within each run: games per second with the heuristic at every seat, with
   ``search:100`` at every seat and with ``search:1000`` at every seat. Each
   search figure is read as a ratio to the heuristic's games per second
   measured in the same run (this machine's speed drifts by up to 2x from hour
   to hour; the ratio much less); the median of R runs is reported.
2. What one search iteration is made of, per call, over every decision of
   20 heuristic games: ``determinize`` (a whole deal from one seat's view),
   ``pnp.engine.api.clone`` (a deep copy of the true state) and ``apply``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("persuasion-b04", "persuasion-d01", "partisan", "pnp/resources/starters/engine")
PLAYERS = 4


def _engine(game: str) -> tuple[Any, Any, dict[str, Any]]:
    from pnp.engine.plugins import engine_for
    from pnp.loading.loader import load_game, resolve_game_dir

    loaded = load_game(resolve_game_dir(game) if "/" not in game else ROOT / game)
    engine, options = engine_for(loaded, trust=True)
    return engine, engine.prepare(loaded, options), options


def games_per_second(game: str, agent: str, games: int) -> float:
    """What one worker of `pnp simulate` plays a second with ``agent`` at every seat."""
    from pnp.engine.simulate import Run, tally_range

    engine, prepared, options = _engine(game)
    run = Run(engine, prepared, options, PLAYERS, (agent,) * PLAYERS, games, 1)
    started = time.perf_counter()
    tally_range(run, 0, games)
    return games / (time.perf_counter() - started)


def per_call(game: str) -> dict[str, float]:
    """Median microseconds per call of determinize, clone and apply."""
    from pnp.engine.api import agent_rngs, clone

    engine, prepared, options = _engine(game)
    times: dict[str, list[float]] = {"determinize": [], "clone": [], "apply": [], "new_state": []}
    clock = time.perf_counter
    for index in range(20):
        started = clock()
        state = engine.new_state(prepared, PLAYERS, random.Random(f"1:{index}"), options)
        times["new_state"].append(clock() - started)
        agents, rngs = [engine.AGENTS["heuristic"]() for _ in range(PLAYERS)], agent_rngs(f"1:{index}", PLAYERS)
        while (decision := state.decision()) is not None:
            seat = decision.seat
            observation = state.observation(seat)
            started = clock()
            engine.determinize(prepared, observation, decision, random.Random(index))
            times["determinize"].append(clock() - started)
            started = clock()
            clone(state)
            times["clone"].append(clock() - started)
            choice = agents[seat](observation, decision, rngs[seat])
            started = clock()
            state.apply(choice)
            times["apply"].append(clock() - started)
    return {name: statistics.median(values) * 1e6 for name, values in times.items()}


def _fresh(*args: str) -> Any:
    done = subprocess.run([sys.executable, __file__, "--one", *args], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> None:
    if sys.argv[1:2] == ["--one"]:  # a child of _fresh
        sys.path.insert(0, str(ROOT))
        if sys.argv[2] == "calls":
            print(json.dumps(per_call(sys.argv[3])))
        else:
            print(json.dumps(games_per_second(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--heuristic-games", type=int, default=500)
    parser.add_argument("--games-100", type=int, default=2)
    parser.add_argument("--games-1000", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    games = args.games.split(",")
    levels = (("heuristic", args.heuristic_games), ("search:100", args.games_100), ("search:1000", args.games_1000))
    rates: dict[tuple[str, str], list[float]] = {(g, a): [] for g in games for a, _ in levels}
    for _ in range(args.runs):  # the tables take turns, so a run's rates share the machine's speed of the moment
        for game in games:
            for agent, count in levels:
                if count:
                    rates[(game, agent)].append(_fresh(game, agent, str(count)))
    for game in games:
        base = rates[(game, "heuristic")]
        for agent, count in levels:
            got = rates[(game, agent)]
            if not got:
                continue
            ratio = statistics.median(r / b for r, b in zip(got, base))
            print(
                f"{game}, {PLAYERS} players, {agent} at every seat, one core: median {statistics.median(got):,.4g} games/s "
                f"({args.runs} runs of {count}); {ratio:.3g} x the heuristic's games/s in the same runs"
            )
        calls = _fresh("calls", game)
        print(f"  per call (median us): " + ", ".join(f"{name} {us:,.1f}" for name, us in calls.items()))


if __name__ == "__main__":
    main()

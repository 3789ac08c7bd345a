"""Which powers change the winner most often (DESIGN.md): each game is played
with every power and again, from the same seed, with one power switched off
(engine option ``without``); a power "changes the winner" in a game where the
Main Match winners differ. Heuristic agents at every seat.

    PYTHONPATH=. python card_data/i-am-thou/tests/whatif.py [--players 5] [--games 300]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random

from thou_engine_kit import RULES, prepared

from pnp.engine.api import agent_rngs, play


def winners(prep: object, players: int, seed: int) -> tuple[tuple[bool, ...], dict[str, int]]:
    state = RULES.new_state(prep, players, random.Random(f"whatif:{seed}"), {"trusted_agents": True})
    out = play(state, [RULES.AGENTS["heuristic"]() for _ in range(players)], agent_rngs(f"whatif:{seed}", players))
    return out.winners, dict(out.powers)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    base = prepared()
    baseline = [winners(base, args.players, seed) for seed in range(args.games)]
    rows = []
    for power in RULES.usable(base)["powers"]:
        used = sum(1 for _, powers in baseline if powers.get(power))
        off = dataclasses.replace(base, without=frozenset({power}))
        changed = sum(winners(off, args.players, seed)[0] != baseline[seed][0] for seed in range(args.games))
        rows.append((changed, used, power))
    n = args.games
    print(f"{args.players} players, {n} games each way, heuristic agents: games whose Main Match winners change with the power off")
    for changed, used, power in sorted(rows, reverse=True):
        share = changed / n
        half = 1.96 * math.sqrt(share * (1 - share) / n)
        print(f"  {power:22} {share:6.1%} (± {half:.1%}); used in {used / n:.0%} of games")


if __name__ == "__main__":
    main()

"""A sweep's unit of work: one batch of games of one version at one player count.

A :class:`Job` holds everything a worker needs, so it runs on any machine
that has pnp and the game folder at the same path. Its games are numbered as
a run's are (:mod:`pnp.engine.simulate`): batch ``b`` plays games
``b*batch`` to ``(b+1)*batch`` of a run whose seed is derived from the sweep's
seed, the version's key, the player count and the kind of table
(:func:`seed_of`), so what a batch plays never depends on which worker plays
it, nor on how many there are. Only counts travel back (:func:`encode`).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from pnp.engine import agents as seats
from pnp.engine.api import PlayEngine, agent_rngs, play
from pnp.engine.simulate import Run, Tally, tally_range
from pnp.sweep.spec import Change
from pnp.sweep.variants import Version

TABLE, PAIR = "table", "pair"
"""A table of the sweep's agents; a skill pair: one strong seat among weak ones."""


@dataclass(frozen=True)
class Job:
    root: str
    game: str
    """The game's fingerprint (:func:`pnp.sweep.run.fingerprint`): what a worker prepared for another is not reused."""
    trust: bool
    changes: tuple[Change, ...]
    version: Version
    key: str
    """The version's key (:func:`pnp.sweep.variants.key`)."""
    players: int
    kind: str
    batch: int
    size: int
    seed: int
    agents: tuple[str, ...]

    @property
    def name(self) -> str:
        """The task's name on the cluster and in the results file."""
        return f"{self.kind}:{self.players}:{self.batch}:{self.key}"


def seed_of(sweep_seed: int, version: str, players: int, kind: str) -> int:
    text = f"{sweep_seed}:{version}:{players}:{kind}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


class Counts(TypedDict):
    """A tally's counts a sweep judges by, as JSON (:func:`encode`)."""

    games: int
    no_winner: int
    capped: int
    seat_wins: dict[str, int]
    shared_wins: list[list[int]]
    """[seat, winners, count] per (seat, number of winners)."""
    rounds: dict[str, int]


class Result(TypedDict):
    """A played job: its task's name, its tallies' counts, and the seconds it took."""

    task: str
    tallies: list[Counts]
    seconds: float


Prepared = tuple[PlayEngine[object, object], object, dict[str, object], str | None]
"""A version's engine, prepared rules, options and rollout agent."""

_PREPARED: dict[tuple[str, bool, str], Prepared] = {}


def prepared(job: Job) -> Prepared:
    """The engine, prepared rules, options and rollout agent of ``job``'s
    version, once per worker process."""
    from pnp.engine.plugins import engine_for
    from pnp.loading.loader import load_game
    from pnp.sweep.variants import apply

    cache = (job.game, job.trust, job.key)  # the fingerprint holds the folder, the sweep's changes and the game's bytes
    if cache not in _PREPARED:
        game = load_game(Path(job.root))
        engine, _ = engine_for(game, job.trust)
        changed, options = apply(game, job.changes, job.version)
        if len(_PREPARED) > 64:
            _PREPARED.clear()
        _PREPARED[cache] = engine, engine.prepare(changed, options), options, game.engine.rollout if game.engine else None
    return _PREPARED[cache]


def play_job(job: Job) -> Result:
    """Play ``job``'s games; its counts, JSON-ready, and the seconds it took."""
    started = time.perf_counter()
    engine, rules, options, rollout = prepared(job)
    start, stop = job.batch * job.size, (job.batch + 1) * job.size
    if job.kind == TABLE:
        run = Run(engine, rules, options, job.players, job.agents, job.size, job.seed, rollout=rollout)
        tallies = [tally_range(run, start, stop)]
    else:
        tallies = _pairs(engine, rules, options, job, rollout, start, stop)
    return {"task": job.name, "tallies": [encode(t) for t in tallies], "seconds": round(time.perf_counter() - started, 6)}


def _pairs(engine: PlayEngine[object, object], rules: object, options: dict[str, object], job: Job, rollout: str | None, start: int, stop: int) -> list[Tally]:
    """Game ``i`` with the strong agent at seat ``i % players``, counted per
    strong seat (as :func:`pnp.engine.skill.gap` takes them)."""
    strong, weak = job.agents
    tallies = [Tally() for _ in range(job.players)]
    trusted = {**options, "trusted_agents": True}
    for index in range(start, stop):
        at = index % job.players
        agents = [seats.make(engine, rules, strong if s == at else weak, rollout) for s in range(job.players)]
        seed = f"{job.seed}:{index}"
        state = engine.new_state(rules, job.players, random.Random(seed), trusted)
        tallies[at].add(play(state, agents, agent_rngs(seed, job.players)))
    return tallies


def encode(tally: Tally) -> Counts:
    """The counts a sweep judges by, as JSON (keys made text)."""
    return {
        "games": tally.games, "no_winner": tally.no_winner, "capped": tally.capped,
        "seat_wins": {str(k): v for k, v in sorted(tally.seat_wins.items())},
        "shared_wins": [[s, w, c] for (s, w), c in sorted(tally.shared_wins.items())],
        "rounds": {str(k): v for k, v in sorted(tally.rounds.items())},
    }


def decode(data: Counts) -> Tally:
    return Tally(
        games=data["games"], no_winner=data["no_winner"], capped=data["capped"],
        seat_wins=Counter({int(k): v for k, v in data["seat_wins"].items()}),
        shared_wins=Counter({(s, w): c for s, w, c in data["shared_wins"]}),
        rounds=Counter({int(k): v for k, v in data["rounds"].items()}),
    )

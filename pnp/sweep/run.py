"""A sweep's rounds: which batches to play, what their results say, which
versions go on.

Round ``r`` plays each live version up to ``games * growth**(r - born)``
games at each player count, ``born`` the round it joined, in batches
(:class:`pnp.sweep.tasks.Job`) handed to an executor that yields results as
they finish, in any order. After each round a sequential test drops every
version that misses a target beyond doubt (:data:`pnp.sweep.judge.Z_DROP`),
and an adaptive search adds the unseen neighbours of the best. Every decision
is made on counts that add up exactly, so it does not depend on the order the
results came in: the same seed gives the same sweep on any number of workers,
and a sweep resumed from its results file makes the same decisions again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, Protocol, TextIO, TypedDict

from pnp.engine.api import PlayEngine
from pnp.engine.simulate import Z95, Tally
from pnp.errors import PnpError, UsageError
from pnp.model import Game
from pnp.sweep import judge
from pnp.sweep.spec import Sweep
from pnp.sweep.tasks import PAIR, TABLE, Job, Result, decode, seed_of
from pnp.sweep.variants import Version, apply, first, key, neighbours, said

Executor = Callable[[Sequence[Job]], Iterator[Result]]
"""Plays jobs, yielding each one's result as it finishes."""


class Bar(Protocol):
    """A progress bar (:class:`pnp.progress.Progress`)."""

    def advance(self) -> None: ...

    def close(self) -> None: ...


class Row(TypedDict):
    """A version in the ranking (:func:`table`); one that could not be played has a ``why`` instead of figures."""

    rank: int | None
    version: str
    key: str
    values: dict[str, object]
    verdict: str
    missed: NotRequired[int]
    open: NotRequired[int]
    distance: NotRequired[float]
    targets: NotRequired[dict[str, dict[str, str]]]
    dropped_after_round: NotRequired[int | None]
    games: NotRequired[dict[str, int]]
    measures: NotRequired[dict[str, dict[str, list[judge.Interval]]]]
    why: NotRequired[str]


@dataclass
class Book:
    """What a sweep knows: its versions, their results, which were dropped."""

    versions: dict[str, Version] = field(default_factory=dict)
    born: dict[str, int] = field(default_factory=dict)
    counts: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """The player counts each playable version is played at."""
    unplayable: dict[str, str] = field(default_factory=dict)
    """Versions whose rules the engine refused to prepare, and why."""
    dropped: dict[str, int] = field(default_factory=dict)
    """The round after which each dropped version was dropped."""
    results: dict[str, Result] = field(default_factory=dict)
    """Each finished task's result, by task name."""
    stored: dict[str, Result] = field(default_factory=dict)
    """Results read back from a results file, each counted when its round
    comes (:func:`sweep_rounds`): a later round's games must not sway an
    earlier round's decisions."""
    totals: dict[tuple[str, int], tuple[Tally, list[Tally]]] = field(default_factory=dict)
    """Per version and player count: its table's tally and per-seat skill tallies."""

    def record(self, result: Result) -> None:
        """Count a finished task's result (once)."""
        if result["task"] in self.results:
            return
        self.results[result["task"]] = result
        kind, players, _, version = result["task"].split(":", 3)
        n = int(players)
        table, pairs = self.totals.setdefault((version, n), (Tally(), [Tally() for _ in range(n)]))
        if kind == TABLE:
            table.merge(decode(result["tallies"][0]))
        else:
            for seat, part in enumerate(result["tallies"]):
                pairs[seat].merge(decode(part))


def fingerprint(sweep: Sweep, game: Game) -> str:
    """What results belong to: the sweep file's text, the game's folder, and
    the bytes of its game.yaml, cards files and engine code (an edited game
    is another game: its results are not mixed with the old one's, and a
    worker does not play it from what it prepared before)."""
    digest = hashlib.sha256(f"{sweep.text}\0{game.root}\0".encode())
    files = {game.source.file, *(c.cards_file for c in game.components if c.cards_file is not None)}
    module = game.engine.module if game.engine else None
    if module is not None:
        files |= {*(game.root / module).glob("**/*.py"), game.root / f"{module}.py"}
    for path in sorted(files):
        if path.is_file():
            digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def read_results(path: Path, print_: str) -> dict[str, Result]:
    """The results already in ``path`` (none when it does not exist); a
    file of another sweep is refused; a last line cut short is left out."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = []
    for number, line in enumerate(lines, 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):
                break  # the sweep stopped while writing it
            raise UsageError(f"{path}:{number}: not a line of sweep results; remove the file or pass --fresh") from None
    if rows and rows[0].get("sweep") != print_:
        raise UsageError(f"{path}: results of another sweep (or of an edited sweep file); remove the file or pass --fresh")
    return {row["task"]: row for row in rows[1:] if "task" in row}


def add_version(book: Book, sweep: Sweep, game: Game, engine: PlayEngine[object, object], version: Version, born: int) -> None:
    """Enter ``version`` (once), with the player counts it is played at, or
    why its rules cannot be played."""
    name = key(version)
    if name in book.versions:
        return
    book.versions[name], book.born[name] = version, born
    try:
        changed, options = apply(game, sweep.changes, version)
        counts = tuple(engine.player_counts(engine.prepare(changed, options)))
    except (PnpError, ValueError, KeyError, TypeError) as exc:  # the engine refuses these rules
        book.unplayable[name] = str(getattr(exc, "message", exc))
        return
    played = tuple(n for n in counts if sweep.players is None or n in sweep.players)
    if not played:
        book.unplayable[name] = f"its rules are for {', '.join(map(str, counts))} players, none of the sweep's players"
        return
    book.counts[name] = played


def jobs_for(book: Book, sweep: Sweep, game: Game, trust: bool, round_: int, tag: str) -> list[Job]:
    """The batches round ``round_`` plays that the results lack yet; ``tag``:
    the sweep's :func:`fingerprint`."""
    out = []
    skill = any(b.measure == "skill_gap" for b in sweep.targets)
    for name, counts in book.counts.items():
        if name in book.dropped or book.born[name] > round_:
            continue
        batches = sweep.games * sweep.growth ** (round_ - book.born[name]) // sweep.batch
        for n in counts:
            kinds = [(TABLE, sweep.agents if len(sweep.agents) > 1 else sweep.agents * n)] + ([(PAIR, sweep.skill)] if skill and n > 1 else [])
            for kind, agents in kinds:
                seed = seed_of(sweep.seed, name, n, kind)
                for b in range(batches):
                    job = Job(str(game.root), tag, trust, sweep.changes, book.versions[name], name, n, kind, b, sweep.batch, seed, tuple(agents))
                    if job.name not in book.results:
                        out.append(job)
    return sorted(out, key=lambda j: (-j.players, j.batch, j.name))  # the biggest tables first


def standing(book: Book, sweep: Sweep, name: str, z: float = Z95) -> tuple[dict[int, dict[str, list[judge.Interval]]], judge.Verdict, dict[int, int]]:
    """A version's measures per player count, its verdict and its games."""
    found, games = {}, {}
    for n in book.counts.get(name, ()):
        table, pairs = book.totals.get((name, n), (Tally(), []))
        if table.games:
            found[n] = judge.measures(table, n, pairs, z)
            games[n] = table.games
    return found, judge.verdict(sweep.targets, found), games


def ranked(book: Book, sweep: Sweep, z: float = Z95) -> list[str]:
    """The playable versions, best first (:func:`pnp.sweep.judge.rank_key`)."""
    keys = {}
    for name in book.counts:
        _, verdict, games = standing(book, sweep, name, z)
        keys[name] = (*judge.rank_key(verdict, name in book.dropped, sum(games.values())), name)
    return sorted(keys, key=lambda name: keys[name])


def close_round(book: Book, sweep: Sweep, game: Game, engine: PlayEngine[object, object], round_: int) -> None:
    """Drop the versions that miss a target beyond doubt; an adaptive search
    then adds the neighbours of the best still in play."""
    for name in book.counts:
        if name not in book.dropped and book.born[name] <= round_ and standing(book, sweep, name, judge.Z_DROP)[1].missed:
            book.dropped[name] = round_
    if sweep.search != "adaptive" or round_ + 1 >= sweep.rounds:
        return
    best = [name for name in ranked(book, sweep) if name not in book.dropped][: sweep.keep]
    for name in best:
        for version in neighbours(sweep.changes, book.versions[name]):
            add_version(book, sweep, game, engine, version, round_ + 1)


def sweep_rounds(
    book: Book, sweep: Sweep, game: Game, engine: PlayEngine[object, object], trust: bool, execute: Executor, sink: TextIO | None,
    progress: Callable[[str, int], Bar] | None = None, on_result: Callable[[Result], None] | None = None,
) -> None:
    """Play every round, writing each result to ``sink`` as it arrives."""
    tag = fingerprint(sweep, game)
    for version in first(sweep):
        add_version(book, sweep, game, engine, version, 0)
    for round_ in range(sweep.rounds):
        jobs = []
        for job in jobs_for(book, sweep, game, trust, round_, tag):
            if job.name in book.stored:
                book.record(book.stored.pop(job.name))
            else:
                jobs.append(job)
        bar = progress(f"round {round_ + 1}/{sweep.rounds}", len(jobs)) if progress and jobs else None
        for result in execute(jobs) if jobs else ():
            book.record(result)
            if sink is not None:
                sink.write(json.dumps(result, sort_keys=True) + "\n")
                sink.flush()
            if bar is not None:
                bar.advance()
            if on_result is not None:
                on_result(result)
        if bar is not None:
            bar.close()
        close_round(book, sweep, game, engine, round_)


def table(book: Book, sweep: Sweep) -> list[Row]:
    """The ranking: each version with its verdict, games and measures (95 %)."""
    rows: list[Row] = []
    for rank, name in enumerate(ranked(book, sweep), 1):
        found, verdict, games = standing(book, sweep, name)
        rows.append({
            "rank": rank, "version": said(sweep.changes, book.versions[name]), "key": name,
            "values": dict(zip((c.name for c in sweep.changes), book.versions[name])),
            "verdict": verdict.said, "missed": verdict.missed, "open": verdict.open, "distance": verdict.distance,
            "targets": {m: {str(n): s for n, s in by.items()} for m, by in verdict.by_target.items()},
            "dropped_after_round": book.dropped[name] + 1 if name in book.dropped else None,
            "games": {str(n): g for n, g in games.items()}, "measures": {str(n): m for n, m in found.items()},
        })
    rows += [
        {"rank": None, "version": said(sweep.changes, book.versions[name]), "key": name,
         "values": dict(zip((c.name for c in sweep.changes), book.versions[name])), "verdict": "unplayable", "why": why}
        for name, why in book.unplayable.items()
    ]
    return rows


def seconds(results: Iterable[Result]) -> float:
    return sum(float(r.get("seconds", 0.0)) for r in results)

"""Agents for Persuasion D01, each deciding from its own observation only.

- ``random``: a uniformly random legal option at every decision.
- ``heuristic``: writes letters that do not match its desires to the suitor it
  knows least, keeps (relates) letters whose suit it seeks, proposes to the
  suitor whose letters best fit its desires once it has seen two, accepts a
  ring from a suitor who fits, and once engaged sends its fiance its own
  matching letters (they count for its prim victory).
- powers: it peeks at a random suitor, trades and discards the letters it
  least needs, commits letters that fit its desires, and at matrimony gives
  its fiance the matching letters its own proper victory does not need.
- schemes: engaged, it breaks off a poor match (its fiance's letters mostly
  miss its desires) while a better suitor is free and the deck lasts, or
  trades a letter with its fiance (Influential, Affectionate); free, it looks
  into the hand of a suitor it is about to propose to (Confiding). Well Read
  it leaves alone: a morning spent looking at the deck cost more than it
  told (measured, issue 36).
- restricted variants: ``never-propose``, ``never-relate``, ``plain`` (no
  powers used as actions, never breaks off: the heuristic before issue 36).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from pnp.engine.api import Agent, Decision
from .views import MorningOptions, Observation, Subsets


_NEVER = 1 << 30
"""More letters than any game shows: keeps a seat out of its own least-known suitors."""


def random_agent(obs: Observation, decision: Decision, rng: random.Random) -> Any:
    return decision.options[rng.randrange(len(decision.options))]


@dataclass(frozen=True)
class Heuristic:
    can_propose: bool = True
    can_relate: bool = True
    patience: int = 4
    """Days before a suitor who merely half fits will do."""
    proper: int = 4
    """Matching letters the proper victory needs."""
    powers: bool = True
    """Uses letters' powers as morning actions: trades with its fiance, Confiding (``plain``: never)."""
    breaks: bool = True
    """Breaks off a poor match while a better suitor is free (``plain``: never)."""

    def __call__(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return _ANSWERS[decision.kind](self, obs, decision, rng)

    def _fit(self, obs: Observation, seat: int) -> tuple[float, int]:
        shown = obs.seen_suits[seat]
        if not shown:
            return 0.0, 0
        return sum(map(obs.desires.seeks.__contains__, shown)) / len(shown), len(shown)

    def _matches(self, obs: Observation, card: int) -> bool:
        return obs.known[card].suit in obs.desires.seeks

    def _morning(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        options = decision.options
        me = obs.seat
        public = obs.public
        fiances = public.fiances
        fiance = fiances[me]
        usable: Sequence[int] = ()
        if self.powers:
            usable = options.powers if isinstance(options, MorningOptions) else [o[1] for o in options if o[0] == "power"]
        if usable or (fiance >= 0 and self.breaks):  # else _scheme finds nothing
            scheme = self._scheme(obs, options, usable)
            if scheme is not None:
                return scheme
        if fiance >= 0:
            return self._send_fiance(obs, options, fiance, rng)
        owners, known, seeks, hand, seen = obs.owners, obs.known, obs.desires.seeks, obs.hand, obs.seen_suits
        if self.can_propose and public.rings_home[me]:
            target = self._suitor(obs, seen, fiances, seeks, rng)
            if target >= 0 and ("propose", target) in options:
                return ("propose", target)
        hearts = public.received[me]
        if hearts and obs.day > self.patience:
            reflect = ("reflect", hearts[0])
            if reflect in options and rng.random() < 0.3:
                return reflect
        spare = []  # its own letters it does not seek, else its own, else any
        for c in hand:
            if owners[c] == me and known[c].suit not in seeks:
                spare.append(c)
        if not spare:
            spare = [c for c in hand if owners[c] == me] or list(hand)
            if not spare:
                return options[rng.randrange(len(options))]
        shown = list(map(len, seen))
        shown[me] = _NEVER  # not a suitor
        least = min(shown)
        getrandbits = rng.getrandbits  # pnp.engine.api.below(rng, n) twice, written out: rng.choice's draws
        n = shown.count(least)  # the least known suitors
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        target = shown.index(least)
        while j:  # the j-th of them
            target = shown.index(least, target + 1)
            j -= 1
        n = len(spare)
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        choice = ("write", target, spare[j])
        if isinstance(options, MorningOptions):  # a suitor and a letter in hand: always offered
            return choice
        return choice if choice in options else options[rng.randrange(len(options))]

    def _send_fiance(self, obs: Observation, options: Sequence[Any], fiance: int, rng: random.Random) -> Any:
        """Engaged: write the fiance its own matching letter (else its own, else any)."""
        me, owners, known, seeks = obs.seat, obs.owners, obs.known, obs.desires.seeks
        own = [c for c in obs.hand if owners[c] == me]
        gifts = [c for c in own if known[c].suit in seeks] or own or list(obs.hand)
        if gifts:
            choice = ("write", fiance, gifts[0])
            if choice in options:
                return choice
        return options[rng.randrange(len(options))]

    def _suitor(self, obs: Observation, seen: Sequence[tuple[str, ...]], fiances: Sequence[int], seeks: frozenset[str], rng: random.Random) -> int:
        """The free suitor to propose to, or -1: the best fitting of those who
        fit well (two letters seen at least), or once the game runs late the
        best fitting of all; ties broken at random (a draw a candidate)."""
        me, day = obs.seat, obs.day
        late = obs.deck_left <= obs.players or day > 3 * self.patience
        if not late and max(map(len, seen)) < 2:  # none fits well: none shown two letters
            return -1
        half = day > self.patience
        fits = seeks.__contains__
        good: list[tuple[tuple[float, int], int]] = []
        suitors: list[tuple[tuple[float, int], int]] = []
        for p, suits in enumerate(seen):
            if p == me or fiances[p] >= 0:
                continue
            n = len(suits)
            if n >= 2:
                fit = sum(map(fits, suits)) / n
                if fit >= 0.75 or (half and fit >= 0.5):
                    good.append(((fit, n), p))
                elif late:
                    suitors.append(((fit, n), p))
            elif late:
                suitors.append(((sum(map(fits, suits)) / n, n) if n else (0.0, 0), p))
        if not good:
            if not suitors:
                return -1
            good = suitors
        random_ = rng.random
        best, top = good[0][1], (good[0][0], random_())  # max(good, key=(fit, a draw)), the draws in order
        for score, p in good[1:]:
            key = (score, random_())
            if key > top:
                best, top = p, key
        return best

    def _scheme(self, obs: Observation, options: Sequence[Any], usable: Sequence[int]) -> Any:
        """Engaged: break off a poor match while a better suitor is free and the
        deck lasts, else trade a letter with the fiance (their letter stays with
        you at matrimony). Free: before proposing to the one suitor whose single
        letter pleased you, look into their hand (Confiding). ``usable``: the
        letters whose morning power it may use."""
        me = obs.seat
        fiances = obs.public.fiances
        fiance = fiances[me]
        if fiance < 0 and not usable:
            return None
        known, owners = obs.known, obs.owners
        if fiance >= 0:
            fit, count = self._fit(obs, fiance)
            if self.breaks and count >= 2 and fit < 0.5 and obs.deck_left >= obs.players and ("break",) in options:
                bar = max(0.75, fit + 0.25)
                free = [p for p in range(obs.players) if p != me and fiances[p] < 0]
                if any(f[1] >= 2 and f[0] >= bar for f in map(partial(self._fit, obs), free)):  # a better suitor is free
                    return ("break",)
            for c in usable:
                effect = known[c].powers[0]["effect"]
                if effect["type"] == "trade" and (effect["with"] != "owner" or owners[c] == fiance):
                    return ("power", c)
            return None
        for c in usable:
            effect = known[c].powers[0]["effect"]
            if effect["type"] == "peek" and effect["at"] == "hand":
                owner = owners[c]  # a free suitor's letter
                if owner != me and 0 <= owner < obs.players and fiances[owner] < 0 and self._fit(obs, owner) == (1.0, 1):
                    return ("power", c)
        return None

    def _letter(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        if self.can_relate and "relate" in decision.options and obs.known[decision.context["letter"]].suit in obs.desires.seeks and obs.public.supply[obs.seat] > 1:
            return "relate"  # a letter it seeks (_matches), while it has hearts to spare
        return "attend"

    def _ring(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        """Accept the best-fitting suitor among the rings on its letterbox, if any fits well enough."""
        late = obs.day > self.patience or obs.deck_left <= obs.players
        fits = [(self._fit(obs, s), -s) for s in decision.context["from"]]
        (fit, count), neg = max(fits)
        return ("accept", -neg) if (count >= 1 and fit >= 0.5) or late else "reject"

    def _open(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return decision.options[0]

    def _keep(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        drawn = decision.context["drawn"]
        known, seeks = obs.known, obs.desires.seeks  # _matches, written out
        if known[drawn].suit in seeks:
            for option in decision.options:
                if option != "drawn" and known[option].suit not in seeks:
                    return option
        return "drawn"

    def _useless_first(self, obs: Observation, options: Sequence[Any]) -> Any:
        """The option (a letter) this seat needs least: a suitor's unmatched
        letter, then its own unmatched one, then anything."""
        letters = [o for o in options if isinstance(o, int)]
        unmatched = [c for c in letters if not self._matches(obs, c)]
        for c in unmatched:
            if obs.owner(c) != obs.seat:
                return c
        return (unmatched or letters or list(options))[0]

    def _peek_desires(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return decision.options[rng.randrange(len(decision.options))]

    def _trade_partner(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        if not self.powers:
            return max(decision.options, key=lambda p: (self._fit(obs, p), rng.random()))
        if obs.fiance in decision.options:  # a fiance's letter stays with you at matrimony
            return obs.fiance
        return min(decision.options, key=lambda p: (obs.engaged(p), self._fit(obs, p)[1], rng.random()))  # learn the least known

    def _trade_give(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return self._useless_first(obs, decision.options)

    def _discard(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        return self._useless_first(obs, decision.options)

    def _commit(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        for c in decision.options:
            if c != "skip" and obs.owner(c) != obs.seat and self._matches(obs, c):
                return c
        return "skip"

    def _gift(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        """Give the fiance the matching letters a proper victory does not need
        (they count for this seat's prim), or all of them if proper is out of reach."""
        items = decision.options.items if isinstance(decision.options, Subsets) else ()
        known, seeks = obs.known, obs.desires.seeks
        matching = [c for c in items if known[c].suit in seeks]  # _matches, written out
        if len(matching) < self.proper:
            return tuple(matching)
        return tuple(matching[self.proper:])

    def _scorned(self, obs: Observation, decision: Decision, rng: random.Random) -> Any:
        owners, known, seeks, me = obs.owners, obs.known, obs.desires.seeks, obs.seat
        for c in obs.hand:
            if owners[c] == me and known[c].suit not in seeks:  # an own letter it does not seek
                return "reflect"
        return "skip"


_ANSWERS: dict[str, Callable[[Heuristic, Observation, Decision, random.Random], Any]] = {
    kind: getattr(Heuristic, "_" + kind.replace("-", "_")) for kind in (
        "morning", "ring", "letter", "open", "keep", "scorned", "peek-desires", "trade-partner", "trade-give",
        "discard", "commit", "gift",
    )
}
"""The heuristic's answer to each kind of decision."""

AGENTS: dict[str, Callable[[], Agent[Observation]]] = {
    "random": lambda: random_agent,
    "heuristic": lambda: Heuristic().__call__,
    "never-propose": lambda: Heuristic(can_propose=False).__call__,
    "never-relate": lambda: Heuristic(can_relate=False).__call__,
    "plain": lambda: Heuristic(powers=False, breaks=False).__call__,
}
"""Agent factories by name. A heuristic seat is the bound ``__call__`` of its
:class:`Heuristic`: Python calls a bound method in place, an instance
through its type's call slot (about 560 instructions more a decision)."""

"""A look-ahead agent for Partisan, built only from what its seat has seen.

At each decision it deals several guesses of the hidden cards (the other
hands and the deck order, drawn from the cards it has not seen: the printed
deck less its hand, the topics and the discards), plays each candidate option
out to the end in every guess with the heuristic agent at every seat, and
picks the option that wins most often (a shared win counts its share; the
margin over the best other score breaks ties). Candidates: every card to raise; for gather and push, the heuristic's
own choice and a few others drawn at random. Each guess is a whole
:class:`~.state.PartisanState` (:func:`~.state.determinize`), so the rules
played out are the engine's own.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from pnp.engine.api import Decision, Product, play

from .agents import Greedy
from .state import determinize
from .table import View


def _position(options: Any, choice: tuple[Any, ...]) -> int:
    """The index of ``choice`` in a Product (mixed radix, the last part fastest)."""
    assert isinstance(options, Product)
    index = 0
    for pick, part in zip(choice, options.parts):
        index = index * len(part) + next(i for i, o in enumerate(part) if o is pick or o == pick)
    return index


@dataclass(frozen=True)
class Lookahead:
    worlds: int = 4
    """Guesses of the hidden cards per decision."""
    width: int = 5
    """Candidates per gather or push decision besides the heuristic's choice."""
    doubt: float = 0.25
    """How much better, in wins per guess, another option must do to replace
    the heuristic's choice (the best of several noisy estimates flatters itself)."""

    def __call__(self, view: View, decision: Decision, rng: random.Random) -> Any:
        base = Greedy(contest=1.0, endgame=1.0)
        first = base(view, decision, rng)
        if decision.kind == "settle" or len(decision.options) == 1:
            return first
        options = decision.options
        if decision.kind == "raise":
            candidates = sorted(range(len(options)), key=lambda i: options[i] is not first)  # the heuristic's first
        else:
            picks = {int(rng.random() * len(options)) for _ in range(self.width)}
            mine = _position(options, first)
            candidates = [mine, *sorted(picks - {mine})]  # the heuristic's own choice first: it wins ties
        worlds = [determinize(view.pack, view, decision, rng, check_moves=False) for _ in range(self.worlds)]
        agents = [base] * view.table.players
        best, choice = float("-inf"), first
        for index in candidates:
            total = 0.0
            for k, world in enumerate(worlds):
                state = copy.deepcopy(world)
                state.apply(options[index])
                outcome = play(state, agents, [random.Random(k)] * len(agents))  # a guessed world: nothing to hide
                scores = outcome.scores
                total += outcome.winners[view.seat] / sum(outcome.winners) if outcome.winners[view.seat] else 0.0
                total += 0.01 * (scores[view.seat] - max(s for seat, s in enumerate(scores) if seat != view.seat))
            if index == candidates[0]:
                best = total + self.doubt * self.worlds  # the heuristic's own choice, kept unless clearly beaten
            elif total > best:
                best, choice = total, options[index]
        return choice

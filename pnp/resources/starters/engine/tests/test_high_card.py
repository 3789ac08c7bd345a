"""High Card's engine: its rules, what a seat may see, and the command line
driving it (pnp's docs/engine.md). They import only pnp and pnp.testing
(pnp's docs/testing.md), so they run wherever this folder is copied."""

from __future__ import annotations

import json
import shutil
import random
from pathlib import Path
import pytest

from pnp.engine.api import IllegalMove, agent_rngs, play
from pnp.engine.plugins import engine_for, load_folder
from pnp.loading.loader import load_game
from pnp.testing import reachable, run_pnp

GAME_DIR = Path(__file__).resolve().parent.parent
GAME = load_game(GAME_DIR)
_, OPTIONS = engine_for(GAME, trust=True)  # outside card_data/: asked for explicitly; checks it can play
RULES = load_folder(GAME, "rules")  # the same module, as itself: its states' hands, picks and reveals are read below
DECK = RULES.prepare(GAME, OPTIONS)


def test_the_example_loads_without_a_warning() -> None:
    assert [str(w) for w in GAME.warnings] == []  # a flow mapping's unquoted comma once made a stray key


def test_the_deck_is_the_printed_cards() -> None:
    assert len(DECK.ids) == 20 and sorted(DECK.ranks) == sorted(list(range(1, 11)) * 2)
    assert RULES.player_counts(DECK) == [2, 3, 4]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_goes_to_the_single_highest_card(players: int) -> None:
    for seed in range(30):
        state = RULES.new_state(DECK, players, random.Random(seed), OPTIONS)
        outcome = play(state, [RULES.AGENTS["random"]() for _ in range(players)], agent_rngs(str(seed), players))
        expected = [0] * players
        for plays in state.revealed:
            ranks = [DECK.ranks[c] for c in plays]
            if ranks.count(max(ranks)) == 1:
                expected[ranks.index(max(ranks))] += 1
        assert list(outcome.scores) == expected and outcome.rounds == DECK.hand
        assert outcome.winners == tuple(s == max(expected) for s in expected)
        assert [r == 1 for r in outcome.ranks] == list(outcome.winners)


def test_a_card_not_in_hand_is_refused() -> None:
    state = RULES.new_state(DECK, 2, random.Random(1), OPTIONS)
    outside = next(c for c in range(len(DECK.ids)) if c not in state.hands[0])
    with pytest.raises(IllegalMove):
        state.apply(outside)


def test_a_seat_sees_no_card_it_was_not_shown() -> None:
    """At every step, each seat's observation names only its own hand and the
    cards already revealed (never another seat's hand, nor the cards picked
    this round before the reveal), and reaches nothing of the live state."""
    rng = random.Random(3)
    state = RULES.new_state(DECK, 3, rng, OPTIONS)
    agents = [RULES.AGENTS["random"]() for _ in range(3)]
    steps = 0
    while (decision := state.decision()) is not None:
        live = [state, state.picked, state.revealed, *state.hands]
        for seat in range(3):
            obs = state.observation(seat)
            known = set(state.hands[seat]) | {c for plays in state.revealed for c in plays}
            named = set(obs.hand) | {c for plays in obs.revealed for c in plays}
            assert named <= known, (seat, named - known)
            assert not any(value is thing for _, value in reachable(obs, skip=lambda o: False) for thing in live)
        state.apply(agents[decision.seat](state.observation(decision.seat), decision, rng))
        steps += 1
    assert steps == 3 * DECK.hand


def test_simulate_and_score_from_the_command_line(tmp_path: Path) -> None:
    refused = run_pnp("simulate", str(GAME_DIR), "--players", "3", "--games", "20")
    assert refused.returncode == 2 and "--trust-rules" in refused.stderr
    done = run_pnp("simulate", str(GAME_DIR), "--players", "3", "--games", "200", "--json", "--trust-rules")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert list(data["outcomes"]) == ["first", "behind"] and data["words"]["actions"] == "plays"
    table = tmp_path / "table.yaml"
    table.write_text("players:\n  - {name: ana, rounds: 3}\n  - {name: bo, rounds: 2}\n")
    scored = run_pnp("score", str(GAME_DIR), str(table), "--trust-rules")
    assert scored.returncode == 0 and scored.stdout.splitlines() == ["ana: 3 rounds: WINS", "bo: 2 rounds"], scored.stderr


def test_a_variant_is_played_with_its_own_options() -> None:
    """engine.variants in game.yaml: `--variant short` plays three cards each;
    an unknown variant is refused with the names the game declares."""
    done = run_pnp("simulate", str(GAME_DIR), "--players", "2", "--games", "50", "--variant", "short", "--json", "--trust-rules")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["variant"] == "short" and data["rounds"] == {"mean": 3.0, "p10": 3, "p50": 3, "p90": 3, "max": 3}
    assert GAME.engine is not None and GAME.engine.options_for("short") == {"deck": "cards", "rank": "rank", "hand": 3}
    unknown = run_pnp("simulate", str(GAME_DIR), "--players", "2", "--variant", "long", "--trust-rules")
    assert unknown.returncode == 2 and "no variant 'long'; its variants: short" in unknown.stderr, unknown.stderr


def test_check_proves_the_deal_and_the_play(tmp_path: Path) -> None:
    """`pnp check` runs the game's declared checks through the general API:
    every hand dealt at every table size, and simulated play inside its bands."""
    done = run_pnp("check", str(GAME_DIR), "--json", "--games", "100", "--trust-rules")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    # Every card is played in the end, so playing the highest first is no skill: check says so.
    assert report["ok"] and [f["check"] for f in report["findings"]] == ["skill"]
    assert report["findings"][0]["message"].startswith("skill barely matters: a heuristic seat among random ones")
    assert report["exact"]["deal"]["cards"]["4"] == {"deck": 20, "dealt": 20, "left": 0}
    assert set(report["exact"]["simulation"]) == {"2", "3", "4"}
    # The declared variant is played too, at every table size, with its own options.
    short_play = report["exact"]["variants"]["short"]
    assert set(short_play) == {"2", "3", "4"} and {d["rounds"]["max"] for d in short_play.values()} == {3}
    # A fifth player's hand the deck cannot hold is an error at its line.
    game = tmp_path / "high-card"
    shutil.copytree(GAME_DIR, game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("hand_size: {2: 5, 3: 5, 4: 5}", "hand_size: {2: 5, 3: 5, 4: 6}"))
    short = run_pnp("check", str(game), "--json", "--games", "0")
    assert short.returncode == 1, short.stderr
    errors = [f for f in json.loads(short.stdout)["findings"] if f["level"] == "error"]
    assert [f["check"] for f in errors] == ["deal"] and "game.yaml:" in errors[0]["where"], errors


def test_the_example_builds(tmp_path: Path) -> None:
    done = run_pnp("build", str(GAME_DIR), "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / GAME_DIR.name / f"{GAME_DIR.name}-home-a4.pdf").is_file()

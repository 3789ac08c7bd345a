"""`pnp simulate`: play a game many times with its engine."""

from __future__ import annotations

import json

import click

from pnp.commands.common import load, refuse_if_unsound
from pnp.errors import UsageError


@click.command()
@click.argument("game")
@click.option("--players", type=int, required=True, help="Players at the table.")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed gives the same numbers.")
@click.option("--variant", default=None, help="Play a variant the game declares (game.yaml engine.variants).")
@click.option("--agents", default="heuristic", show_default=True, help="One agent for every seat, or one per seat, comma-separated.")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Processes to use (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--trust-rules", "trust_rules", is_flag=True, help="Run the game folder's own engine code (the project's own games run without it; so does PNP_TRUST_RULES=1).")
def simulate(
    game: str, players: int, games: int, seed: int, variant: str | None, agents: str, workers: int | None, as_json: bool, trust_rules: bool,
) -> None:
    """Play GAME many times with the reference engine and report how it behaves."""
    import os

    from pnp.engine.plugins import engine_for
    from pnp.engine.simulate import Run, agents_for, metrics
    from pnp.rules.summary import agents_said, measure_lines, no_winner_said, outcomes_said
    from pnp.engine.simulate import simulate as run_games

    loaded = load(game, False)
    engine, options = engine_for(loaded, trust_rules, variant)
    refuse_if_unsound(loaded, False, "no game was played: the engine plays only tables that pass the checks")
    prepared = engine.prepare(loaded, options)
    if players not in engine.player_counts(prepared):
        raise UsageError(f"--players: {players} is not a player count of {loaded.title} ({', '.join(map(str, engine.player_counts(prepared)))})")
    chosen = agents_for(engine, [a.strip() for a in agents.split(",") if a.strip()], players)
    run = Run(engine, prepared, options, players, chosen, games, seed, variant, loaded.engine.rollout if loaded.engine else None)
    data = metrics(run, run_games(run, workers or os.cpu_count() or 1))
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    played = f", variant {variant}" if variant else ""
    click.echo(f"{loaded.title}{played}, {players} players, {games} games, seed {seed}; {agents_said(list(run.agents))}")
    said = data["words"]
    click.echo(f"  win rate by seat, {said['first_seat']} first (95 % interval): " + ", ".join(f"{r['rate']:.1%} ({r['low']:.1%}-{r['high']:.1%})" for r in data["win_rate_by_seat"]))
    no_winner = no_winner_said(data)
    if no_winner:
        click.echo(f"  {no_winner}, as these agents play")
    outcomes = outcomes_said(data["outcomes"])
    if outcomes:
        click.echo(f"  {outcomes}")
    if data["capped_rate"]["rate"] > 0:
        click.echo(f"  stopped by the engine's cap on {said['rounds']} (not a rule's end): {data['capped_rate']['rate']:.1%}")
    click.echo(f"  {said['rounds']}: mean {data['rounds']['mean']:.1f}, median {data['rounds']['p50']}, 90th percentile {data['rounds']['p90']}")
    click.echo(f"  {said['actions']}: " + ", ".join(f"{k} {v:.0%}" for k, v in data["actions"].items()))
    for line in measure_lines(data["measures"]):
        click.echo(line)

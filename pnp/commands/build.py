"""`pnp build`: home PDFs of every game given, or an export profile's files."""

from __future__ import annotations

import time
from pathlib import Path

import click

from pnp.commands.common import load, papers, refuse_if_unsound, stamps
from pnp.errors import UsageError
from pnp.model import Game


@click.command()
@click.argument("games", nargs=-1)
@click.option("--paper", default="a4,letter", show_default=True, help="Paper(s) to impose on: a4, letter, or both comma-separated.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True, help="Folder for results; each game gets a subfolder.")
@click.option("--only", default=None, help="Build only these components (comma-separated ids).")
@click.option("--strict", is_flag=True, help="Treat warnings (such as unknown keys) as errors.")
@click.option("--force", is_flag=True, help="Build even when `pnp check` (or an export's preflight) finds errors.")
@click.option("--profile", "profile_name", default="home", show_default=True, help="What to make: home, drivethrucards, factory, thegamecrafter, makeplayingcards, tts (pnp/presets/profiles/).")
@click.option("--gutterfold", is_flag=True, help="Home: each front beside its back on one landscape sheet, to fold (no duplex needed).")
@click.option("--ink-saver", is_flag=True, help="Home: light backgrounds, no full-bleed fills (each game's stylesheet decides).")
@click.option("--no-stamp", "no_stamp", is_flag=True, help="Home: leave out the build stamp (version, date, card hash) printed on each card.")
@click.option("--changed-since", "changed_since", type=click.Path(exists=True, path_type=Path), default=None, help="Home: only the cards that changed since this build (its folder or manifest.json).")
def build(
    games: tuple[str, ...], paper: str, out: Path, only: str | None, strict: bool, force: bool,
    profile_name: str, gutterfold: bool, ink_saver: bool, no_stamp: bool, changed_since: Path | None,
) -> None:
    """Build home-print PDFs of GAMES (names under card_data/ or folders); all shipped games if none."""
    from pnp.render.service import started

    # The renderer loads WeasyPrint on the other core while the games are read.
    with started():
        _build_all(games, paper, out, only, strict, force, profile_name, gutterfold, ink_saver, no_stamp, changed_since)


def _build_all(
    games: tuple[str, ...], paper: str, out: Path, only: str | None, strict: bool, force: bool,
    profile_name: str, gutterfold: bool, ink_saver: bool, no_stamp: bool, changed_since: Path | None,
) -> None:
    from pnp.build import build as run_build
    from pnp.loading.loader import shipped_games

    chosen = papers(paper)
    names = list(games) or shipped_games()
    if not names:
        raise UsageError("no games given and none found under card_data/")
    for name in names:
        started = time.perf_counter()
        game = load(name, strict)
        refuse_if_unsound(game, force)
        if profile_name != "home":
            _export(game, profile_name, out / game.folder_name, only, force)
            continue
        reprint = None
        if changed_since is not None:
            from pnp.build import select
            from pnp.iterate.diff import changed_cards

            reprint = changed_cards(game, select(game, only.split(",") if only else None), changed_since)
        result = run_build(
            game, chosen, out / game.folder_name, only.split(",") if only else None, gutterfold, ink_saver,
            reprint=reprint, stamp=stamps(no_stamp), strict=strict,
        )
        for warning in result.warnings:
            click.echo(str(warning), err=True)
        took = time.perf_counter() - started
        cards = sum(c.copies for c in result.components)
        click.echo(
            f"{game.title}: {cards} cards from {result.faces} unique faces "
            f"({result.placed} placed per paper, backs included), {took:.2f} s; "
            f"laid out {result.rendered} documents ({result.faces_rendered} of the faces), {result.cached} from the cache"
        )
        for f in result.files:
            click.echo(f"  {f.path}  ({f.pages} pages, {f.paper})")
        click.echo(f"  {result.manifest}")


def _export(game: Game, profile_name: str, out_dir: Path, only: str | None, force: bool = False) -> None:
    """Build a non-home profile: print PDFs, PNG faces or Tabletop Simulator sheets."""
    from pnp.build import select
    from pnp.export.profiles import profile

    chosen = profile(profile_name)
    components = select(game, only.split(",") if only else None)
    started = time.perf_counter()
    if chosen.kind == "print-pdf":
        from pnp.export.printpdf import export_print_pdfs

        result = export_print_pdfs(game, components, chosen, out_dir, force)
        for note in result.skipped:
            click.echo(f"{game.title}: skipped {note}", err=True)
        click.echo(f"{game.title}: {len(result.files)} PDFs for {chosen.id} in {out_dir / chosen.id}, {time.perf_counter() - started:.2f} s")
        for entry, report in zip(result.files, result.reports):
            ink = "not measured" if report.max_ink is None else f"{report.max_ink:.1f} %"
            verdict = "passed" if report.ok else f"{len(report.failures)} problem(s), written with --force"
            click.echo(f"  {entry['path']}  ({entry['pages']} pages; preflight {verdict}: max ink {ink}, {report.fonts} fonts embedded)")
        return
    if chosen.kind == "png-faces":
        from pnp.export.pngfaces import export_png_faces

        skipped: list[str] = []
        files = export_png_faces(game, components, chosen, out_dir, skipped)
        for note in skipped:
            click.echo(f"{game.title}: skipped {note}", err=True)
    elif chosen.kind == "tts":
        from pnp.export.tts import export_tts

        files = export_tts(game, components, chosen, out_dir)
    else:
        raise UsageError(f"--profile {profile_name}: profiles of kind {chosen.kind!r} are built without --profile")
    click.echo(f"{game.title}: {len(files)} images for {chosen.id} in {out_dir / chosen.id}, {time.perf_counter() - started:.2f} s")

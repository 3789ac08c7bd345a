"""`pnp build`: home PDFs of every game given, or an export profile's files."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp.commands.common import game_folder, load_folder, papers, refuse_if_unsound
from pnp.output.fresh import Report, check_fresh, remember
from pnp.paths import readable
from pnp.render.cachelimit import cache_limit
from pnp.errors import UsageError
from pnp.units import UnitError, mm, parse_length
from pnp.words import count

if TYPE_CHECKING:
    from pnp.output.request import Request
    from pnp.output.result import Built


@click.command()
@click.argument("games", nargs=-1)
@click.option("--paper", default="a4,letter", show_default=True, help="Paper(s) to impose on: a4, letter, or both comma-separated.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True, help="Folder for results; each game gets a subfolder.")
@click.option("--only", default=None, help="Build only these components (comma-separated ids).")
@click.option("--strict", is_flag=True, help="Treat warnings (such as unknown keys) as errors.")
@click.option("--force", is_flag=True, help="Build even when `pnp check` (or an export's preflight) finds errors.")
@click.option("--profile", "profile_name", default="home", show_default=True, help="What to make: home, cut-silhouette, cut-cricut, drivethrucards, factory, thegamecrafter, makeplayingcards, tts (pnp/presets/profiles/).")
@click.option("--pdfx", "pdfx", default=None, metavar="4|1a|1a:2001", help="Print PDFs: the PDF/X standard to meet instead of the profile's (PDF/X-4): 1a (PDF/X-1a:2003, as DriveThruCards asks) or 1a:2001 flattens transparency with Ghostscript and says which pages it turned into images.")
@click.option("--gutterfold", is_flag=True, help="Home: each front beside its back on one landscape sheet, to fold (no duplex needed).")
@click.option("--ink-saver", is_flag=True, help="Home: light backgrounds, no full-bleed fills (each game's stylesheet decides).")
@click.option("--no-stamp", "no_stamp", is_flag=True, help="Home: leave out the build stamp (version, date, card hash) printed on each card.")
@click.option("--butted", is_flag=True, help="Home: cards edge to edge (one cut between two) instead of with bleed between them.")
@click.option("--back-offset", "back_offset", default=None, metavar="X,Y", help="Home: move every back sheet X right and Y up, as the back is seen (for example 0.8mm,-0.5mm); read it off registration-test-PAPER.pdf. Default: the home profile's back_offset.")
@click.option("--shifted-backs", "shifted_backs", is_flag=True, help="Home: beside each duplex file, a ...-shifted-backs.pdf holding its sheets again with the backs moved by each reading of the registration test from -1.5 to +1.5 mm, for players who cannot rebuild; its first page says which pages to print.")
@click.option("--separate-sheets", "separate_sheets", is_flag=True, help="Home: every component on sheets of its own (the home profile's share_sheets lets a component start in the free slots of the last sheet of the one before it of the same stock, size and sidedness).")
@click.option("--url-prefix", "url_prefix", default=None, metavar="URL", help="tts: the web address the exported images will be hosted under (https://example.org/game/), for multiplayer; without it the saved object names local files.")
@click.option("--changed-since", "changed_since", type=click.Path(exists=True, path_type=Path), default=None, help="Home: only the cards that changed since this build (its folder or manifest.json).")
def build(
    games: tuple[str, ...], paper: str, out: Path, only: str | None, strict: bool, force: bool,
    profile_name: str, gutterfold: bool, ink_saver: bool, no_stamp: bool, butted: bool, back_offset: str | None,
    changed_since: Path | None, url_prefix: str | None, separate_sheets: bool, shifted_backs: bool, pdfx: str | None,
) -> None:
    """Build home-print PDFs of GAMES (names under card_data/ or folders); all shipped games if none."""
    from pnp.output.profiles import profile, with_pdfx
    from pnp.output.request import Request
    from pnp.render.service import started

    chosen = papers(paper)
    request = Request(
        with_pdfx(profile(profile_name), pdfx), only=tuple(only.split(",")) if only else None, strict=strict, force=force,
        gutterfold=gutterfold, ink_saver=ink_saver, no_stamp=no_stamp, butted=butted, back_offset=back_offsets(back_offset),
        separate_sheets=separate_sheets, shifted_backs=shifted_backs, changed_since=changed_since,
        url_prefix=url_prefixes(url_prefix, profile_name),
    )
    # The renderer loads WeasyPrint on the other core while the games are read.
    with started():
        _build_all(games, chosen, out, request)


def back_offsets(value: str | None) -> tuple[float, float] | None:
    """``--back-offset X,Y`` in points; None (the profile's) when not given."""
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    try:
        if len(parts) != 2:
            raise UnitError("expected two lengths")
        x, y = parse_length(parts[0]), parse_length(parts[1])
    except UnitError as exc:
        raise UsageError(f"--back-offset: {value!r} is not X,Y (two lengths, such as 0.8mm,-0.5mm): {exc}") from None
    if max(abs(x), abs(y)) > mm(10):
        raise UsageError(f"--back-offset: {value!r} is more than 10 mm; check the registration test reading")
    return x, y


def url_prefixes(value: str | None, profile_name: str) -> str | None:
    """``--url-prefix`` checked (an http(s) address, for the tts profile), ending in ``/``."""
    if value is None:
        return None
    if profile_name != "tts":
        raise UsageError(f"--url-prefix: only the tts profile names images by URL, not {profile_name}")
    if not value.startswith(("https://", "http://")) or any(c.isspace() for c in value):
        raise UsageError(f"--url-prefix: {value!r} is not a web address such as https://example.org/game/")
    return value if value.endswith("/") else value + "/"


def _build_all(games: tuple[str, ...], papers: Sequence[str], out: Path, request: Request) -> None:
    from pnp.loading.loader import shipped_games
    from pnp.output.stage import build

    names = list(games) or shipped_games()
    if not names:
        from pnp.paths import CARD_DATA, PROJECT

        raise UsageError(f"no games given and none in {CARD_DATA}; {PROJECT}")
    cache_limit()  # a bad PNP_CACHE_MB is an error even when nothing needs building
    for name in names:
        started = time.perf_counter()
        folder = game_folder(name)
        out_dir = out / folder.name
        options = _recorded_options(folder, out_dir, papers, request)
        fresh = check_fresh(out_dir, folder, options) if options is not None else None
        if fresh is not None:
            _say(fresh, f"{time.perf_counter() - started:.2f} s; laid out 0 documents (0 of the faces): nothing changed since the last build, every file kept")
            continue
        started_ns = time.time_ns()
        game = load_folder(folder, request.strict)
        checked = refuse_if_unsound(game, request.force, out_dir=out_dir)
        result = build(game, papers, out_dir, request)
        if result.profile.kind != "home":
            _report_export(result, started)
            continue
        report = _home_report(result)
        took = time.perf_counter() - started
        _say(report, f"{took:.2f} s; laid out {result.rendered} documents ({result.faces_rendered} of the faces), {result.cached} from the cache")
        if options is not None:
            said = Report((*(str(w) for w in game.warnings), *checked, *report.err), report.out)
            remember(out_dir, options, readable(game.root, game.shared), [f.path for f in result.files] + [result.manifest], said, started_ns)


def _recorded_options(folder: Path, out_dir: Path, papers: Sequence[str], request: Request) -> str | None:
    """What of the command a home build's record keys on (:mod:`pnp.output.fresh`);
    None for builds never recorded: exports, and reprints (which read a manifest from elsewhere)."""
    if request.profile.kind != "home" or request.changed_since is not None:
        return None
    return repr((str(folder), str(out_dir.resolve()), tuple(papers), request))


def _say(report: Report, tail: str) -> None:
    """A home build's report, its summary's head ended by ``tail``."""
    for line in report.err:
        click.echo(line, err=True)
    click.echo(f"{report.out[0]}, {tail}")
    for line in report.out[1:]:
        click.echo(line)


def _home_report(result: Built) -> Report:
    """What a home build says: its findings, then the summary's head (cards,
    faces, placements) and the files it wrote."""
    game = result.game
    cards = sum(c.copies for c in result.components)
    out = [f"{game.title}: {cards} cards from {result.faces} unique faces ({result.placed} placed per paper, backs included)"]
    cut_sheets: dict[Path, int] = {}
    for f in result.files:  # print-and-cut files (no pages): one line per folder
        if f.pages is None and f.path.suffix == ".svg":
            cut_sheets[f.path.parent] = cut_sheets.get(f.path.parent, 0) + 1
    for f in result.files:
        if f.pages is not None:
            out.append(f"  {f.path}  ({f.pages} pages, {f.paper})")
        elif f.path.parent in cut_sheets:
            out.append(f"  {f.path.parent}/  (cut files for {count(cut_sheets.pop(f.path.parent), 'sheet')}, SVG and DXF, {f.paper})")
    out.append(f"  {result.manifest}")
    return Report(tuple(str(w) for w in result.warnings), tuple(out))


def _report_export(result: Built, started: float) -> None:
    game = result.game
    for note in result.skipped:
        click.echo(f"{game.title}: skipped {note}", err=True)
    for note in result.notes:
        click.echo(f"{game.title}: warning: {note}", err=True)
    took = time.perf_counter() - started
    if result.profile.kind != "print-pdf":
        click.echo(f"{game.title}: {len(result.files)} images for {result.profile.id} in {result.folder}, {took:.2f} s")
        if result.profile.kind == "tts":
            click.echo(f"  {result.folder / (game.folder_name + '.json')}  (copy it into Tabletop Simulator's Saved Objects folder)")
        return
    click.echo(f"{game.title}: {len(result.files)} PDFs for {result.profile.id} in {result.folder}, {took:.2f} s")
    for built, report in zip(result.files, result.reports):
        ink = "not measured" if report.max_ink is None else f"{report.max_ink:.1f} %"
        verdict = "passed" if report.ok else f"{count(len(report.failures), 'problem')}, written with --force"
        click.echo(f"  {built.path.relative_to(result.folder.parent).as_posix()}  ({built.pages} pages; preflight {verdict}: max ink {ink}, {report.fonts} fonts embedded)")

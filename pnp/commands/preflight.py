"""`pnp preflight`: check print PDFs against a profile."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.errors import PnpError
from pnp.words import count


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--profile", "profile_name", default=None, help="Check against this profile's requirements (drivethrucards, factory ...); without it: boxes and fonts only, ink measured.")
def preflight(files: tuple[Path, ...], profile_name: str | None) -> None:
    """Check print PDFs: boxes, embedded fonts, colour spaces, image resolution, total ink.

    Exit status 1 when any file fails a check."""
    from dataclasses import replace

    from pnp.output.printpdf import requirements as profile_requirements
    from pnp.output.profiles import profile
    from pnp.preflight import Requirements, format_report
    from pnp.preflight import preflight as run

    requirements = Requirements(max_ink=400)  # 400 %: measured and shown, never a failure
    if profile_name is not None:
        requirements = profile_requirements(profile(profile_name))
        if requirements.max_ink is None:
            requirements = replace(requirements, max_ink=400)
    failed = 0
    for path in files:
        report = run(path, requirements)
        click.echo(format_report(report))
        failed += not report.ok
    if failed:
        raise PreflightFailedFiles(f"{failed} of {count(len(files), 'file')} failed preflight")


class PreflightFailedFiles(PnpError):
    """Some checked PDFs do not meet the requirements."""

    exit_code = 1

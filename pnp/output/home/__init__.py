"""The home build: PDFs a player prints at home (A4 or Letter, duplex or
gutter-fold), each with its printing instructions, and the manifest.

Stages as plain functions over frozen values: :func:`plan_home` (which cards,
which faces, which sheets) -> :func:`render_home` (every page laid out or
taken from the cache) -> :func:`write_home` (imposed, written and committed in
one step). :func:`build` strings them together.
"""

from pnp.output.home.manifest import BuiltFile
from pnp.output.home.plan import BuildOptions, HomePlan, plan_home, select
from pnp.output.home.run import BuildResult, Rendered, build, render_home, write_home

__all__ = [
    "BuildOptions",
    "BuildResult",
    "BuiltFile",
    "HomePlan",
    "Rendered",
    "build",
    "plan_home",
    "render_home",
    "select",
    "write_home",
]

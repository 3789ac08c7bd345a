"""The home format: PDFs a player prints at home (A4 or Letter, duplex or
gutter-fold), each with its printing instructions, and the manifest.

Stages as plain functions over frozen values: :func:`plan.plan_home` (which
cards, which faces, which sheets) -> :func:`run.render_home` (every page laid
out or taken from the cache) -> :func:`run.write_home` (imposed, written and
committed in one step). :func:`run.home` strings them together for the
output stage (:mod:`pnp.output.stage`).
"""

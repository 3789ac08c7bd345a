"""How much of laid-out pages the render cache keeps: ``PNP_CACHE_MB``.

Apart from :mod:`pnp.render.cache` so that a build checks the setting before
it finds it has nothing to do (:mod:`pnp.output.fresh`), without loading the cache.
"""

from __future__ import annotations

import os

from pnp.errors import UsageError


def cache_limit() -> int:
    """Bytes of laid-out pages kept per output folder: ``PNP_CACHE_MB``
    megabytes, 256 by default (thousands of one-card edits); past it, the
    pages used longest ago are deleted."""
    value = os.environ.get("PNP_CACHE_MB", "256")
    try:
        megabytes = float(value)
    except ValueError:
        megabytes = -1.0
    if not 0 <= megabytes < 1e12:  # also NaN and infinity
        raise UsageError(f"PNP_CACHE_MB={value!r}: expected a number of megabytes, 0 or more (and finite)")
    return int(megabytes * 1_000_000)

"""Reference images compared as pixels: :mod:`pnp.testing`'s, for tests/."""

from pnp.testing.pixels import DPI, TOLERANCE, compare

__all__ = ["DPI", "TOLERANCE", "compare"]

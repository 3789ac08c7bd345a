"""Hidden-information walks: :mod:`pnp.testing`'s, for tests/."""

from pnp.testing.hidden import IMMUTABLE, mutable_parts, reachable, writable

__all__ = ["IMMUTABLE", "mutable_parts", "reachable", "writable"]

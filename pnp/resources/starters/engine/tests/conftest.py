"""The example's tests: the environment every test runs in (pnp.testing)."""

from pnp.testing import hermetic

hermetic()

"""Courting Season's tests: the environment every test runs in (pnp.testing)."""

from __future__ import annotations

from pnp.testing import hermetic

hermetic()  # one time zone, locale, build date, home: before any test runs

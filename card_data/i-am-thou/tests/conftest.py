"""I am thou, thou art I's tests: the environment every test runs in (pnp.testing); the
builds they share are thou_print_build.py's."""

from __future__ import annotations

from pnp.testing import hermetic

hermetic()  # one time zone, locale, build date, home: before any test runs

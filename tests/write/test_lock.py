"""The lock (constraints.txt) is what pyproject.toml asks for, and what the
tests run with: the same commit installs the same versions next month."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import ROOT


def _locked() -> dict[str, Version]:
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)==([^\s#]+)", (ROOT / "constraints.txt").read_text(), re.MULTILINE)
    return {canonicalize_name(name): Version(pinned) for name, pinned in pins}


def _direct() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [r for extra in project["optional-dependencies"].values() for r in extra]  # test, and sweep (pnp sweep's Dask)
    return [Requirement(r) for r in [*project["dependencies"], *extras]]


def test_every_direct_dependency_is_locked_within_its_bounds() -> None:
    locked = _locked()
    for requirement in _direct():
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement.name} is not in constraints.txt: run `make lock`"
        assert requirement.specifier.contains(locked[name]), f"constraints.txt has {name}=={locked[name]}, outside {requirement}"
        assert requirement.specifier, f"{requirement.name} has no bounds in pyproject.toml"
        assert any(s.operator == ">=" and Version(s.version) <= locked[name] for s in requirement.specifier), requirement


def test_the_tests_run_with_exactly_the_locked_versions() -> None:
    """`make test` installs through the lock; anything else here would mean
    the suite is proving some other set of versions."""
    wrong = {}
    for name, pinned in _locked().items():
        try:
            installed = Version(version(name))
        except PackageNotFoundError:
            wrong[name] = f"locked {pinned}, not installed"
            continue
        if installed != pinned:
            wrong[name] = f"locked {pinned}, installed {installed}"
    assert not wrong, f"install through the lock (make install-test): {wrong}"

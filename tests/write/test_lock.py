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


def _bench_only() -> set[str]:
    """The locked packages only the ``bench`` extra brings (`make bench`: the
    ReportLab peer of bench/poker/), read from the lock's ``# via`` lines: the
    bench extra's own requirements and whatever only they require."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    direct = {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}
    direct |= {canonicalize_name(Requirement(r).name) for key, extra in project["optional-dependencies"].items() if key != "bench" for r in extra}
    via: dict[str, set[str]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", (ROOT / "constraints.txt").read_text()):
        pin = re.match(r"([A-Za-z0-9_.\-]+)==", block)
        if pin:
            via[canonicalize_name(pin[1])] = {canonicalize_name(n) for n in re.findall(r"#\s+(?:via\s+)?([A-Za-z0-9_.\-]+)", block) if n != "via"}
    only = {canonicalize_name(Requirement(r).name) for r in project["optional-dependencies"].get("bench", [])} - direct
    while grown := {n for n, users in via.items() if n not in only and n not in direct and users and users <= only}:
        only |= grown
    return only


def test_the_bench_extra_brings_only_what_the_lock_says() -> None:
    assert _bench_only() == {"reportlab", "svglib", "charset-normalizer"}


def test_the_tests_run_with_exactly_the_locked_versions() -> None:
    """`make test` installs through the lock; anything else here would mean
    the suite is proving some other set of versions. Only the bench extra's
    packages may be missing (`make bench` installs them)."""
    wrong = {}
    optional = _bench_only()
    for name, pinned in _locked().items():
        try:
            installed = Version(version(name))
        except PackageNotFoundError:
            if name not in optional:
                wrong[name] = f"locked {pinned}, not installed"
            continue
        if installed != pinned:
            wrong[name] = f"locked {pinned}, installed {installed}"
    assert not wrong, f"install through the lock (make install-test): {wrong}"

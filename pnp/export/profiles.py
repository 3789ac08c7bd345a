"""Print and export profiles as data: a new printer is a new YAML file."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pnp.errors import Diagnostic, InputError, UsageError
from pnp.loading.spec import INVALID, Checker, Choice, Field, Integer, Length, ListOf, MapOf, Record, Text, SLUG
from pnp.loading.yamlsrc import load_yaml
from pnp.paths import PRESETS

PROFILE = Record(
    (
        Field("kind", Choice(("home", "png-faces", "tts")), "What the profile makes: home, png-faces or tts."),
        Field("description", Text(max_length=200), "What it is for."),
        Field("bleed", Length(0, 10), "The bleed every face is rendered with, replacing the game's.", None),
        Field("dpi", Integer(50, 1200), "Pixels per inch for raster exports.", 300),
        Field("sizes", MapOf(SLUG, ListOf(Integer(1, 20000), 2, 2)), "png-faces: exact pixels (with bleed) per named card size.", {}),
        Field("columns", Integer(1, 20), "tts: most cards across a sheet.", 10),
        Field("rows", Integer(1, 20), "tts: most cards down a sheet.", 7),
        Field("max_px", Integer(256, 16384), "tts: the most pixels a sheet may have on a side.", 4096),
    ),
    "a profile",
)


@dataclass(frozen=True)
class Profile:
    id: str
    kind: str
    description: str
    bleed: float | None
    dpi: int
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)
    columns: int = 10
    rows: int = 7
    max_px: int = 4096


@cache
def load_profiles() -> dict[str, Profile]:
    diagnostics: list[Diagnostic] = []
    out = {}
    for path in sorted((PRESETS / "profiles").glob("*.yaml")):
        doc = load_yaml(path)
        checked: Any = PROFILE.check(doc.data, (), Checker(doc, diagnostics))
        if checked is not INVALID:
            out[path.stem] = Profile(
                path.stem, checked["kind"], checked["description"], checked["bleed"], checked["dpi"],
                {k: (v[0], v[1]) for k, v in checked["sizes"].items()}, checked["columns"], checked["rows"], checked["max_px"],
            )
    if diagnostics:
        raise InputError(diagnostics)
    return out


def profile(name: str) -> Profile:
    known = load_profiles()
    if name not in known:
        raise UsageError(f"--profile: unknown profile {name!r}; expected one of {', '.join(known)}")
    return known[name]

"""Sheet layouts, papers and sizes as data: the YAML presets shipped with pnp,
plus a game's own ``layouts/*.yaml``, checked and read into frozen values."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pnp.errors import Diagnostic, InputError, Source
from pnp.schema.scalars import Length
from pnp.schema.spec import INVALID, Checker, Field, Keys, Record, got
from pnp.loading.yamlsrc import load_yaml
from pnp.model import LAYOUT, PAPER, Paper, SheetLayout
from pnp.paths import PRESETS, confined, way_out


def _load_layout(path: Path, diagnostics: list[Diagnostic], folder: Path) -> SheetLayout | None:
    doc = load_yaml(path, within=folder)
    checked = LAYOUT.checked(doc.data, (), Checker(doc, diagnostics))
    if checked is INVALID:
        return None
    return LAYOUT.build(checked, id=path.stem, source=path)


def load_layouts(game_root: Path | None = None) -> dict[str, SheetLayout]:
    """Preset layouts, overridden or extended by ``<game>/layouts/*.yaml``."""
    diagnostics: list[Diagnostic] = []
    out: dict[str, SheetLayout] = {}
    for base in [PRESETS, *([game_root] if game_root else [])]:
        folder = base / "layouts"
        if folder.is_dir() and confined(folder, [base]) is None:  # listed, it would show what lies elsewhere
            message = f"refused: {way_out(folder, base) or f'it lies outside {base.name}/'}; expected a folder inside it"
            diagnostics.append(Diagnostic(Source(folder), "", message))
            continue
        for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
            layout = _load_layout(path, diagnostics, base)
            if layout:
                out[layout.id] = layout
    for layout in out.values():
        if layout.butted is not None and layout.butted not in out:
            doc = load_yaml(layout.source, within=layout.source.parent)
            Checker(doc, diagnostics).error(
                ("butted",), f"unknown sheet layout {layout.butted!r}; expected one of {', '.join(sorted(out))}"
            )
    if diagnostics:
        raise InputError(diagnostics)
    return out


def _preset_table(name: str, record: Keys[object]) -> dict[str, dict[str, object]]:
    """A preset file of named entries (pnp's own), each checked against ``record``."""
    doc = load_yaml(PRESETS / name)
    diagnostics: list[Diagnostic] = []
    ck = Checker(doc, diagnostics)
    out = {}
    for key, raw in doc.data.items() if isinstance(doc.data, dict) else ():
        checked = record.checked(raw, (key,), ck)
        if checked is not INVALID:
            out[key] = checked
    if diagnostics:
        raise InputError(diagnostics)
    return out


SIZE = Record((Field("width", Length(1, 2000), "Width."), Field("height", Length(1, 2000), "Height.")))


@cache
def load_papers() -> dict[str, Paper]:
    return {k: PAPER.build(v, id=k) for k, v in _preset_table("papers.yaml", PAPER).items()}


@cache
def load_sizes() -> dict[str, tuple[float, float]]:
    return {k: (got(v, "width", float), got(v, "height", float)) for k, v in _preset_table("sizes.yaml", SIZE).items()}

"""pnp's import structure, read from the source with ``ast``: no module imports
one of a later layer, and no import cycle anywhere, in pnp/ or in a game's
own code. An import inside a function counts (hiding an edge in a function
does not remove it). In pnp/ one under ``if TYPE_CHECKING:`` does not, as it
never runs; in a game's code it does: a module that names another's type
for its annotations still depends on it (the fix is a type both import
from below, as "I am thou"'s effects take a ``Board``).

The layers are :data:`LAYERS`, from the bottom up (README.md, "How it is
built"): a module may import its own layer and the layers before it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LAYERS: tuple[tuple[str, ...], ...] = (
    # what every stage uses: words, units, the error types, where things are, writing results
    ("words", "units", "errors", "paths", "dates", "progress", "parallel", "svgsize", "fontfiles", "images", "commit", "nets"),
    ("schema",),  # the card-data schema's grammar, with which the model declares its keys
    ("model",),  # the frozen values the stages pass on
    ("loading",),  # load: a game folder -> Game
    ("rules", "engine", "listing"),  # check and simulate a loaded game
    ("render", "imposition", "colour"),  # faces laid out, slots on sheets, colours converted
    ("pdf", "preflight"),  # faces placed on pages, print files checked
    ("output", "sweep"),  # the one output stage (a home build or an export, the profile as data); sweeps of simulated play
    ("iterate", "scaffold"),  # watch, serve, diff, proof; `pnp new`
    ("commands",),  # one module per command
    ("cli", "__main__"),
    ("resources", "testing"),  # pnp's starter games (game code, like a game folder's), and what a game's tests use
)
"""Top-level modules and packages of pnp/, by layer, lowest first."""


def modules(package: Path, name: str) -> dict[str, Path]:
    """Every module under ``package`` by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = (name, *path.relative_to(package).with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imported(name: str, path: Path, known: Mapping[str, Path], typing: bool = False) -> Iterator[str]:
    """The modules of ``known`` that ``name``'s source imports, wherever the
    import statement is (``from a import b``: ``a.b`` when it is a module, else ``a``);
    ``typing``: those under ``if TYPE_CHECKING:`` too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree) if typing else _run_time(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base


def _run_time(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``, which
    never run: they name types for annotations (a game's rules modules name
    their state class so, as pnp's stages name the values they pass on)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for other in node.orelse:
                yield other
                yield from _run_time(other)
            continue
        yield node
        yield from _run_time(node)


def graph(known: Mapping[str, Path], typing: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of ``known`` it imports (``typing``: under ``if TYPE_CHECKING:`` too)."""
    return {name: {n for n in imported(name, path, known, typing) if n in known and n != name} for name, path in known.items()}


def cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """Every cycle's modules (the strongly connected components of more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> int:
    top = _top(module).removeprefix("pnp.")
    for n, names in enumerate(LAYERS):
        if top in names:
            return n
    raise AssertionError(f"{module}: pnp/{top} is in no layer of tests/structure/test_layers.py; add it where it belongs")


PNP = modules(ROOT / "pnp", "pnp")
del PNP["pnp"]  # the package's own __init__ imports nothing of it


def test_no_module_of_pnp_imports_a_later_layer() -> None:
    upward = [
        f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})"
        for a, targets in graph(PNP).items()
        for b in sorted(targets)
        if layer(b) > layer(a)
    ]
    assert not upward, "\n".join(upward)


def test_pnp_has_no_import_cycle() -> None:
    assert cycles(graph(PNP)) == []


def test_no_two_packages_of_pnp_import_each_other() -> None:
    """Nor between its top-level packages, whichever modules the imports join
    (two orchestrators each taking a piece of the other)."""
    packages: dict[str, set[str]] = {}
    for a, targets in graph(PNP).items():
        packages.setdefault(_top(a), set()).update(_top(b) for b in targets if _top(b) != _top(a))
    assert cycles(packages) == []


def _top(module: str) -> str:
    return ".".join(module.split(".")[:2])


GAME_CODE = sorted(p.parent for p in ROOT.glob("card_data/*/rules/__init__.py"))


@pytest.mark.parametrize("rules", GAME_CODE, ids=[p.parent.name for p in GAME_CODE])
def test_a_games_own_code_has_no_import_cycle(rules: Path) -> None:
    """Not even through the imports that only name types (``if TYPE_CHECKING:``)."""
    assert cycles(graph(modules(rules, "rules"), typing=True)) == []


def test_the_checks_see_a_cycle_and_a_climb(tmp_path: Path) -> None:
    """The walk itself: a cycle through a function-local import is found, and
    a lower layer importing a higher one is named."""
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n")
    assert cycles(graph(modules(tmp_path, "rules"))) == [["rules.a", "rules.b"]]
    (tmp_path / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n")
    assert cycles(graph(modules(tmp_path, "rules"))) == []
    assert cycles(graph(modules(tmp_path, "rules"), typing=True)) == [["rules.a", "rules.b"]]
    assert layer("pnp.loading.loader") < layer("pnp.output.stage")

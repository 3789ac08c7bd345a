"""Where a game's engine comes from: its own folder, or an installed plugin.

game.yaml names it under ``engine:``, with exactly one of

- ``module: rules``: a Python package (``rules/__init__.py``) or module
  (``rules.py``) inside the game folder: a new game with rules is a new folder;
- ``plugin: NAME``: the ``pnp.engines`` entry point ``NAME`` of an installed
  package (as pytest and MkDocs find theirs).

A game folder's code runs only when it is trusted: ``pnp build`` never runs
it; ``simulate``, ``check`` and ``score`` run it for pnp's own games (folders
under ``card_data/`` of the checkout pnp runs from, whose code the user runs
already) and otherwise only when the user says so (``--trust-rules``, or
``PNP_TRUST_RULES=1``), a project found from the current folder included
(standing in a folder is no decision to run its code). An installed plugin is
trusted: the user installed it.

An engine module provides what each command asks of it (:data:`NEEDS`, the
protocols :class:`pnp.engine.api.PlayEngine` and
:class:`pnp.engine.api.ScoreEngine`): ``prepare(game, options)``,
``player_counts(prepared)``, ``new_state(prepared, players, rng, options)``
and ``AGENTS`` (name -> factory) to play, ``score(prepared, table)`` and
``score_text(result)`` to score a real table (docs/engine.md). What a command
needs and the engine lacks (or has as something else: a ``new_state`` that is
not a function) is an error at game.yaml's ``engine:``, told before the
command calls any of it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Literal, cast, overload

from pnp.engine.api import Engine, PlayEngine, ScoreEngine, members
from pnp.errors import GAME_CODE, Diagnostic, InputError, Source, UsageError, game_code_line
from pnp.model import Game
from pnp.paths import CHECKOUT, confined

GROUP = "pnp.engines"
"""The entry-point group installed engines register under."""
TRUST_VARIABLE = "PNP_TRUST_RULES"
OWN_GAMES = CHECKOUT / "card_data" if CHECKOUT else None
"""The games whose code runs unasked: those of the checkout pnp runs from."""


Need = Literal["play", "score"]
NEEDS: dict[Need, type] = {
    "play": PlayEngine,  # pnp simulate, pnp check
    "score": ScoreEngine,  # pnp score
}
"""What an engine must provide to play games, and to score a real table."""


class UntrustedRules(UsageError):
    """A game folder's engine code was not allowed to run."""


@overload
def engine_for(
    game: Game, trust: bool = False, variant: str | None = None, to: Literal["play"] = "play"
) -> tuple[PlayEngine[object, object], dict[str, object]]: ...


@overload
def engine_for(game: Game, trust: bool, variant: str | None, to: Literal["score"]) -> tuple[ScoreEngine[object, object], dict[str, object]]: ...


def engine_for(game: Game, trust: bool = False, variant: str | None = None, to: Need = "play") -> tuple[Engine[object], dict[str, object]]:
    """The engine module of ``game`` and its options (those of ``variant``,
    one of game.yaml's ``engine.variants``, when given), checked to provide
    what it needs ``to`` do (:data:`NEEDS`). ``trust``: the user allows the
    game folder's own code to run (see the module's text)."""
    spec = game.engine
    if not spec:
        raise UsageError(f"{game.title} declares no engine (game.yaml: engine: {{module: rules}} or {{plugin: NAME}})")
    if variant is not None and variant not in spec.variants:
        known = ", ".join(spec.variants) or "none (game.yaml engine.variants)"
        raise UsageError(f"--variant: {game.title} has no variant {variant!r}; its variants: {known}")
    module, plugin = spec.module, spec.plugin
    options = spec.options_for(variant)
    if plugin is not None:
        return _provides(game, _plugin(game, plugin), to), options
    assert module is not None  # the loader allows exactly one of module and plugin
    if not (trust or trusted(game)):
        own = f"pnp's own games (under {OWN_GAMES})" if OWN_GAMES else "pnp's own games"
        raise UntrustedRules(
            f"{game.title}: its engine is Python code in the game folder ({game.root / module}); pnp runs a game folder's code only "
            f"for {own} or when you say so: --trust-rules (or {TRUST_VARIABLE}=1)"
        )
    return _provides(game, load_folder(game, module), to), options


def _provides(game: Game, engine: ModuleType, to: Need) -> Engine[object]:
    """``engine``, once it is found to provide everything the protocol of
    what it needs ``to`` do requires (:data:`NEEDS`), each as a function, or
    for ``AGENTS`` a mapping of names to agent factories."""
    needs = members(NEEDS[to])
    missing = [name for name, _ in needs if not hasattr(engine, name)]
    unfit = [
        f"has {name} = {_shown(getattr(engine, name))}, not {'a function' if function else 'a mapping of agent names to agent factories'}"
        for name, function in needs
        if not missing and not _fits(getattr(engine, name), function)
    ]
    if missing or unfit:
        key = "engine.plugin" if game.engine and game.engine.plugin else "engine.module"
        lacks = f"has no {' or '.join(missing)}" if missing else unfit[0]
        raise InputError([Diagnostic(_where(game), key, (
            f"the engine ({getattr(engine, '__file__', None) or engine.__name__}) {lacks}; to {to} it needs "
            f"{', '.join(name for name, _ in needs)} (docs/engine.md, What an engine module provides)"
        ))])
    rollout = game.engine.rollout if game.engine else None
    if to == "play" and rollout is not None and rollout not in engine.AGENTS:
        raise InputError([Diagnostic(game.where.get("engine.rollout", _where(game)), "engine.rollout", (
            f"the engine has no agent {rollout!r} to play games out with; expected one of {', '.join(engine.AGENTS)}"
        ))])
    return cast(Engine[object], engine)


def _fits(value: object, function: bool) -> bool:
    """Whether a protocol's member is there as what it must be."""
    if function:
        return callable(value)
    return isinstance(value, Mapping) and all(isinstance(k, str) and callable(v) for k, v in value.items())


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def trusted(game: Game) -> bool:
    """Whether ``game``'s own code may run without being asked: it is one of
    pnp's own games, or the user set ``PNP_TRUST_RULES=1``."""
    own = OWN_GAMES is not None and confined(game.root, [OWN_GAMES]) is not None
    return os.environ.get(TRUST_VARIABLE) == "1" or own


def load_folder(game: Game, name: str) -> ModuleType:
    """The package ``name/`` (or module ``name.py``) inside ``game``'s folder,
    imported once per process under a name of its own (two copies of a game
    never share one)."""
    package = game.root / name / "__init__.py"
    single = game.root / f"{name}.py"
    path = package if package.is_file() else single
    real = confined(path, [game.root])
    if real is None or not real.is_file():
        raise InputError([Diagnostic(_where(game), "engine.module", f"expected {name}/__init__.py or {name}.py inside the game folder")])
    unique = f"{GAME_CODE}{name}_{hashlib.sha256(str(real).encode()).hexdigest()[:12]}"
    if unique in sys.modules:
        return sys.modules[unique]
    folder = [str(real.parent)] if real.name == "__init__.py" else None
    spec = importlib.util.spec_from_file_location(unique, real, submodule_search_locations=folder)
    if spec is None or spec.loader is None:
        raise InputError([Diagnostic(_where(game), "engine.module", f"{real} cannot be imported")])
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[unique] = loaded
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # nothing written into the game folder
    try:
        spec.loader.exec_module(loaded)
    except Exception as exc:  # the game's code: located, never a traceback
        for name in [m for m in sys.modules if m == unique or m.startswith(unique + ".")]:
            del sys.modules[name]
        raise InputError([_failure(exc, game.root.resolve())]) from None
    except BaseException:
        for name in [m for m in sys.modules if m == unique or m.startswith(unique + ".")]:
            del sys.modules[name]
        raise
    finally:
        sys.dont_write_bytecode = writes
    return loaded


def _failure(exc: Exception, root: Path) -> Diagnostic:
    """Where in the game folder importing its engine failed, and why."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return Diagnostic(Source(Path(exc.filename), exc.lineno or 0, exc.offset or 0), "engine.module", f"the engine is not valid Python: {exc.msg}")
    where = game_code_line(exc) or Source(root / "game.yaml")
    return Diagnostic(where, "engine.module", f"the engine failed while being imported: {type(exc).__name__}: {exc}")


def _plugin(game: Game, name: str) -> ModuleType:
    found = entry_points(group=GROUP, name=name)
    if not found:
        installed = sorted(e.name for e in entry_points(group=GROUP))
        have = ", ".join(installed) if installed else "none"
        raise InputError([Diagnostic(_where(game), "engine.plugin", f"no installed engine named {name!r} (entry points {GROUP}: {have})")])
    loaded = next(iter(found)).load()
    if not isinstance(loaded, ModuleType):
        raise InputError([Diagnostic(_where(game), "engine.plugin", f"the entry point {name!r} names {loaded!r}; expected a module")])
    return loaded


def _where(game: Game) -> Source:
    return game.where.get("engine", game.source)

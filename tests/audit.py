"""Every pnp command the tests run is watched through Python's audit hooks
(PEP 578): each path opened, listed, scanned or copied and each network
connection attempted, in the parent process and in the forked workers, is
written to a log the test reads afterwards.

``run_pnp`` (conftest) uses this for every command of the suite, so every
build, check and export the tests make, the whole hostile and bad-input corpus
among them, is also evidence that pnp read nothing outside the places it may
read and connected to nothing.
"""

from __future__ import annotations

import mimetypes
import os
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from pnp.paths import project_of

ROOT = Path(__file__).resolve().parent.parent

BOOT = """
import os, sys
log = os.open(os.environ["PNP_AUDIT_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
def hook(event, args):
    if event in ("open", "os.listdir", "os.scandir", "shutil.copyfile") and args and isinstance(args[0], (str, bytes, os.PathLike)):
        os.write(log, ("open " + os.fsdecode(args[0]) + "\\n").encode("utf-8", "surrogateescape"))
    elif event == "socket.connect":
        os.write(log, ("connect " + repr(args[1]) + "\\n").encode("utf-8", "surrogateescape"))
sys.addaudithook(hook)
sys.argv = ["pnp", *sys.argv[1:]]
from pnp.__main__ import run
run()
"""

# pnp's own resources, and the shipped games the tests build by name.
OWN = ("pnp", "templates", "fonts", "art", "card_data")


@dataclass(frozen=True)
class Audited:
    result: subprocess.CompletedProcess[str]
    opened: tuple[str, ...]
    connected: tuple[str, ...]


def audited(args: list[str], cwd: Path, log: Path, timeout: float) -> Audited:
    """Run ``pnp *args`` under the audit hook."""
    env = dict(os.environ, PNP_AUDIT_LOG=str(log))
    try:
        result = subprocess.run([sys.executable, "-c", BOOT, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    finally:
        log.unlink(missing_ok=True)
    opened = tuple(sorted({line[5:] for line in lines if line.startswith("open ")}))
    connected = tuple(line[8:] for line in lines if line.startswith("connect "))
    return Audited(result, opened, connected)


def python_places() -> list[Path]:
    return [Path(sys.prefix), Path(sys.base_prefix), *(Path(p) for p in sysconfig.get_paths().values())]


@dataclass(frozen=True)
class Allowed:
    trees: tuple[Path, ...]  # read anywhere inside
    exact: frozenset[Path]  # the folder itself only (where a new output folder is made)


def allowed_for(args: list[str], cwd: Path) -> Allowed:
    """Where a command may read: pnp's own folders and those of the project
    around ``cwd``, Python, the folders and files its arguments name (a game
    folder, --out, the PDFs given to diff) and pnp's own temporary folders.
    Of a path that does not exist yet (an output folder to make) the parent
    folder itself may be opened, not what else it holds."""
    project = project_of(cwd.resolve())  # the project the command finds from its folder, as pnp finds it
    homes = [ROOT] + ([project] if project else [])
    trees = [home / name for home in homes for name in OWN] + python_places() + [cwd / "output"]  # the default --out
    exact = []
    for arg in args:
        value = arg.split("=", 1)[-1]
        if "/" in value or (cwd / value).exists():
            path = cwd / value
            trees += [path, *_shared_by(path)]
            if not path.exists():
                exact += [path.parent, *path.parent.parents]
    return Allowed(tuple(Path(os.path.realpath(p)) for p in trees), frozenset(Path(os.path.realpath(p)) for p in exact))


def _shared_by(game: Path) -> list[Path]:
    """The folders beside a game folder that its game.yaml shares
    (``shared:``, docs/card-data.md), read independently of pnp: only one
    whose real location is a sibling of the game folder's may be read."""
    try:
        data = yaml.safe_load((game / "game.yaml").read_text())
    except (OSError, ValueError, yaml.YAMLError):
        return []
    named = data.get("shared") if isinstance(data, dict) else None
    beside = Path(os.path.realpath(game)).parent
    reals = [Path(os.path.realpath(game / name)) for name in named or () if isinstance(name, str)] if isinstance(named, list) else []
    return [real for real in reals if real.parent == beside]


_PROBE = set("abcdefghijklmnopqrstuvwxyz0123456789_")  # tempfile's random names


def _temporary(real: Path, temp: Path) -> bool:
    """pnp's own temporary folders (pnp-layout-..., pnp-ink-...), its
    compiled templates (Jinja's per-user cache folder) and the one file of
    eight random letters Python's tempfile makes to test the folder."""
    if temp not in real.parents:
        return False
    first = real.relative_to(temp).parts[0]
    return first.startswith(("pnp-", "_jinja2-cache-")) or (real.parent == temp and len(first) == 8 and set(first) <= _PROBE)


def _working(real: Path, allowed: Allowed) -> bool:
    """pnp's own work beside an output (staged files, a folder's next
    version, pikepdf's temporary file) in a folder it may write to."""
    for here in (real, *real.parents):
        if here.name.startswith((".pnp-", ".pikepdf.")):
            parent = here.parent
            return parent in allowed.exact or any(parent == root or root in parent.parents for root in allowed.trees)
    return False


def outside(opened: tuple[str, ...], allowed: Allowed, cwd: Path) -> list[str]:
    """The paths in ``opened`` that lie in none of the ``allowed`` places."""
    system = {"/dev/null", *mimetypes.knownfiles, str(ROOT), str(cwd)}  # the import system lists its working folder
    temp = Path(os.path.realpath(tempfile.gettempdir()))
    bad = []
    for name in opened:
        if "/" not in name or name in system:  # a name relative to a folder already held (rmtree)
            continue
        real = Path(os.path.realpath(cwd / name))
        if real in allowed.exact or _temporary(real, temp) or _working(real, allowed):
            continue
        if not any(real == root or root in real.parents for root in allowed.trees):
            bad.append(name)
    return bad

"""One root error type for everything a user can see, with precise subclasses.

Every user-facing failure derives from :class:`PnpError`, a
``click.ClickException``: the CLI prints its message and exits with its code,
never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import click

from pnp.words import count


class Level(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Source:
    """Where a value came from: a file and a 1-based line and column, or for
    a spreadsheet (``sheet`` given; ``""`` for a CSV file) a row and column,
    shown as the spreadsheet shows a cell: ``traits.xlsx:Traits!C14``."""

    file: Path
    line: int = 0
    col: int = 0
    sheet: str | None = None

    def __str__(self) -> str:
        if self.line:
            return f"{display_path(self.file)}:{self.place}"
        return display_path(self.file)

    @property
    def place(self) -> str:
        """Where in the file: ``12:5`` (line and column) or ``Traits!C14`` (a cell)."""
        if self.sheet is None:
            return f"{self.line}:{self.col}"
        cell = f"{column_letters(self.col - 1)}{self.line}"
        return f"{self.sheet}!{cell}" if self.sheet else cell


def column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: a spreadsheet's name for a 0-based column."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


@dataclass(frozen=True)
class Diagnostic:
    """One finding about the input: where, which key, what is wrong and expected."""

    source: Source
    path: str
    message: str
    level: Level = Level.ERROR

    def __str__(self) -> str:
        key = f" {self.path}:" if self.path else ""
        tag = "" if self.level is Level.ERROR else " warning:"
        return f"{self.source}:{tag}{key} {self.message}"


def display_path(path: Path) -> str:
    """A path relative to the working directory when it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class PnpError(click.ClickException):
    """Root of every error pnp reports to a user."""

    exit_code = 1


class InputError(PnpError):
    """The game folder (or another input) is unusable; exit status 2."""

    exit_code = 2

    def __init__(self, diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]):
        self.diagnostics = tuple(diagnostics)
        errors = [d for d in self.diagnostics if d.level is Level.ERROR]
        lines = [str(d) for d in self.diagnostics]
        lines.append(f"{count(len(errors), 'error')}; nothing was built.")
        super().__init__("\n".join(lines))

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.diagnostics,))

    def show(self, file: object = None) -> None:
        click.echo(self.message, err=True)


class TemplateError(InputError):
    """A Jinja2 template failed to parse or to render for a card."""


class AssetError(InputError):
    """A template, stylesheet or art file points at something it may not read."""


class UsageError(PnpError):
    """The command line names something that does not exist; exit status 2."""

    exit_code = 2


GAME_CODE = "pnp_rules_"
"""How the modules of a game folder's own code are named once imported
(:func:`pnp.engine.plugins.load_folder`): how a failure is traced to them."""


class GameCodeError(PnpError):
    """A game folder's own code (its engine) failed while running: located at
    its file and line, exit status 2, never a traceback."""

    exit_code = 2


def game_code_line(exc: BaseException) -> Source | None:
    """The innermost line of a game folder's code that ``exc`` passed through,
    or None when it never did."""
    where = None
    frame = exc.__traceback__
    while frame is not None:
        if str(frame.tb_frame.f_globals.get("__name__", "")).startswith(GAME_CODE):
            where = Source(Path(frame.tb_frame.f_code.co_filename), frame.tb_lineno)
        frame = frame.tb_next
    return where


def game_code_failure(exc: BaseException) -> GameCodeError | None:
    """``exc`` told at the innermost line of a game folder's code it passed
    through, or None when it never did (a fault of pnp's own, shown whole)."""
    where = game_code_line(exc)
    if where is None:
        return None
    return GameCodeError(f"{display_path(where.file)}:{where.line}: the game's engine failed: {type(exc).__name__}: {exc}")


class BuildError(PnpError):
    """A stage failed for a reason that is not the input's fault."""


class ImageRefused(ValueError):
    """An image is too large, corrupt, truncated, or an SVG draws too much
    (:mod:`pnp.images`, :mod:`pnp.svgsize`); whoever reads the image turns it
    into an :class:`AssetError` at the file that named it."""


class PathRefused(ValueError):
    """A path a game names leads out of the folder it must lie in (through a
    link, or climbing with ``..``), so the file is not read
    (:func:`pnp.paths.way_out` says how); whoever looked it up reports it at
    the reference."""

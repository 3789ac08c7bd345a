"""The ``pnp`` command group: each command is a module of :mod:`pnp.commands`,
loaded when that command runs (or ``--help`` lists them all), so a command
never pays for loading the others."""

from __future__ import annotations

import importlib
import select
import signal
import sys

import click

from pnp import __version__
from pnp.errors import PnpError, game_code_failure


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


COMMANDS = {
    "build": "pnp.commands.build:build",
    "cards": "pnp.commands.cards:cards",
    "check": "pnp.commands.check:check",
    "simulate": "pnp.commands.simulate:simulate",
    "score": "pnp.commands.score:score",
    "diff": "pnp.commands.diff:diff_command",
    "list": "pnp.commands.list_cards:list_",
    "new": "pnp.commands.new:new",
    "preflight": "pnp.commands.preflight:preflight",
    "proof": "pnp.commands.proof:proof",
    "serve": "pnp.commands.serve:serve",
    "sweep": "pnp.commands.sweep:sweep",
    "watch": "pnp.commands.watch:watch",
}
"""Each command's name -> the module and the command in it, loaded when the command runs."""


class _Commands(click.Group):
    """pnp's commands, each loaded when asked for (:data:`COMMANDS`), with a
    failing disk (full, read-only, no permission) reported as one line:
    every command writes through staged files that are discarded as the
    error unwinds, so nothing already built is lost."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, _, name = COMMANDS[cmd_name].partition(":")
        command: click.Command = getattr(importlib.import_module(module), name)
        return command

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.ClickException:
            raise
        except OSError as exc:
            if isinstance(exc, BrokenPipeError) and _reader_gone():
                raise  # `pnp list | head`: click ends quietly, status 1, as tools do
            raise CannotWrite(exc) from None
        except Exception as exc:  # a game folder's own code failing is told at its line
            located = game_code_failure(exc)
            if located is None:
                raise
            raise located from None


def _reader_gone() -> bool:
    """Whether what reads pnp's standard output has closed it (a pipe whose
    reader ended); a broken pipe of pnp's own (to its renderer) is a fault."""
    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's runner), no poll()
        return False


class CannotWrite(PnpError):
    """The machine refused a file operation: exit status 3."""

    exit_code = 3

    def __init__(self, exc: OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        super().__init__(f"{where}{exc.strerror or exc}; nothing already built was changed")


@click.group(cls=_Commands)
@click.version_option(__version__, prog_name="pnp")
def main() -> None:
    """Print-and-play components from YAML card data."""
    # A terminated build unwinds like Ctrl-C, so staged files are removed and
    # the previous output stays as it was.
    signal.signal(signal.SIGTERM, _interrupt)


__all__ = ["PnpError", "main"]

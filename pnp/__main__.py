"""``python -m pnp`` and the ``pnp`` command.

Ctrl-C ends pnp quietly at any moment, even while the command line is still
being imported (the first tenth of a second): "Aborted!" and exit status 1,
as click reports it once a command runs. The command line loads with Ctrl-C
and SIGTERM held, and so does pikepdf for the commands that read or write a
PDF: its native module (nanobind) aborts the whole process (exit -6,
"Critical nanobind error") when an interrupt lands inside its
initialisation. A signal that came meanwhile is taken as soon as they have
loaded.

``pnp build`` forks its renderer before either loads
(:func:`pnp.render.service.start_early`), so that WeasyPrint, the renderer's
long load, runs beside them instead of after."""

import signal
import sys

_HELD = {signal.SIGINT, signal.SIGTERM}
PDF_COMMANDS = frozenset({"build", "diff", "preflight", "proof", "serve", "watch"})
"""The commands that load pikepdf (the others never do: loading it costs them
a tenth of their time)."""


def run() -> None:
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            if sys.argv[1:2] == ["build"]:
                from pnp.render.service import start_early

                start_early()
            if PDF_COMMANDS.intersection(sys.argv[1:2]):
                import pikepdf  # noqa: F401

            from pnp.cli import main
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        main()
    except KeyboardInterrupt:
        print("Aborted!", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    run()

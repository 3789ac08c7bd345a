"""``python -m pnp`` and the ``pnp`` command.

Ctrl-C ends pnp quietly at any moment, even while the command line is still
being imported (the first tenth of a second): "Aborted!" and exit status 1,
as click reports it once a command runs."""

import sys


def run() -> None:
    try:
        from pnp.cli import main

        main()
    except KeyboardInterrupt:
        print("Aborted!", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    run()

"""Ctrl-C while the command line is still loading: pikepdf's native module
(nanobind) aborts the whole process (exit -6, "Critical nanobind error")
when an interrupt lands inside its initialisation, so the command line and
pikepdf load with Ctrl-C held, and the interrupt is taken once they have.

The interrupt is sent at a known moment: by an import hook, as pikepdf's
native module starts to load. Taken there, it would stop that import half
way; held, pikepdf loads whole and pnp then ends quietly ("Aborted!", 1)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import os, signal, sys

    # Ctrl-C as at a terminal: a process inherits Ctrl-C ignored when its
    # shell started the test run as a background job without job control
    # (`make test &` in a script), and Python then leaves it ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    class Interrupt:
        def find_spec(self, name, path=None, target=None):
            if name == "pikepdf._core":
                os.kill(os.getpid(), signal.SIGINT)
            return None

    sys.meta_path.insert(0, Interrupt())
    from pnp.__main__ import run
    sys.argv = ["pnp", "build", "--help"]
    try:
        run()
    except SystemExit as exit:
        print("exit", exit.code, "pikepdf loaded" if "pikepdf._core" in sys.modules else "pikepdf not loaded")
""")


def test_ctrl_c_while_pikepdf_loads_waits_until_it_has_then_ends_quietly() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["exit", "1", "pikepdf", "loaded"], done.stdout + done.stderr
    assert done.stderr == "Aborted!\n"


def test_the_commands_named_as_loading_pikepdf_are_commands() -> None:
    from pnp.__main__ import PDF_COMMANDS
    from pnp.cli import COMMANDS

    assert PDF_COMMANDS <= set(COMMANDS)

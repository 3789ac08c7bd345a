"""A progress bar for long builds and checks: on a terminal only.

It draws on standard error when that is a terminal, and stays silent when
output goes to a file or a pipe, when ``CI`` is set (CI logs), when ``TERM``
is ``dumb``, or when ``PNP_NO_PROGRESS`` is set.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

WIDTH = 24


def wanted(stream: TextIO) -> bool:
    if os.environ.get("CI") or os.environ.get("PNP_NO_PROGRESS") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """``with Progress("laying out", 12) as bar: ... bar.advance()``."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None, minimum: int = 2):
        self.label = label
        self.total = max(total, 0)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.total >= minimum and wanted(self.stream)
        self.started = time.perf_counter()

    def advance(self, count: int = 1) -> None:
        self.done = min(self.total, self.done + count)
        if self.enabled:
            filled = round(WIDTH * self.done / self.total) if self.total else WIDTH
            bar = "#" * filled + "-" * (WIDTH - filled)
            took = time.perf_counter() - self.started
            left = f", about {took / self.done * (self.total - self.done):.0f} s left" if 0 < self.done < self.total else ""
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {took:.1f} s{left}\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[K")  # clear the line, leaving the log clean
            self.stream.flush()
            self.enabled = False

    def __enter__(self) -> Progress:
        if self.enabled:
            self.advance(0)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Work that forked processes share out among themselves as they go."""

from __future__ import annotations

import fcntl
import os
import sys
import termios
from collections.abc import Sequence


class Queue:
    """Numbers every process forked after it takes one at a time, each once,
    in the order given: a pipe, filled and closed for writing before any
    worker forks (no file, no shared memory)."""

    _SIZE = 4
    _HELD = 16384
    """What any pipe holds (Linux: 64 KiB, macOS: 16 KiB): a full one would block here."""

    def __init__(self, numbers: Sequence[int]) -> None:
        data = b"".join(number.to_bytes(self._SIZE, "little") for number in numbers)
        if len(data) > self._HELD:
            raise ValueError(f"{len(numbers)} numbers are more than one pipe holds")
        self._read, write = os.pipe()
        with open(write, "wb") as end:
            end.write(data)

    def take(self) -> int | None:
        """The next number, None when all are taken. A pipe gives each reader
        whole numbers: each is written together and read at once."""
        data = os.read(self._read, self._SIZE)
        return int.from_bytes(data, "little") if data else None

    def left(self) -> bool:
        """Whether a number is still to be taken (by any process)."""
        waiting = fcntl.ioctl(self._read, termios.FIONREAD, bytes(4))
        return int.from_bytes(waiting, sys.byteorder) > 0

    def __enter__(self) -> Queue:
        return self

    def __exit__(self, *_: object) -> None:
        os.close(self._read)

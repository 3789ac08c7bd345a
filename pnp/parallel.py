"""Work spread over every core with forked processes.

Forked workers start at once (modules already imported) and see what the
parent set up before forking, so large or unpicklable inputs (an engine
module, a prepared deck) are handed over through :func:`shared` rather than
pickled. Workers die quietly when the pool ends them; the parent reports.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_SHARED: Any = None


def shared() -> Any:
    """What the parent handed to :func:`fork_map` as ``shared``."""
    return _SHARED


def _quiet() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def can_fork() -> bool:
    return multiprocessing.get_start_method(allow_none=True) in (None, "fork") and hasattr(os, "fork")


def fork_map(
    func: Callable[..., T],
    jobs: Sequence[tuple[Any, ...]],
    workers: int,
    share: Any = None,
    done: Callable[[], None] | None = None,
) -> list[T]:
    """``[func(*job) for job in jobs]``, on up to ``workers`` forked processes.
    ``done`` is called in the parent as each job finishes (for progress)."""
    global _SHARED
    _SHARED = share
    count = min(len(jobs), workers)
    if count <= 1 or not can_fork():
        out = []
        for job in jobs:
            out.append(func(*job))
            if done is not None:
                done()
        return out
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from pnp.errors import BuildError

    # An executor, not a Pool: a worker that dies (out of memory, a crash in a
    # C library) ends the map with an error instead of a wait that never ends.
    pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"), initializer=_quiet)
    results = []
    try:
        for result in pool.map(_star, [(func, job) for job in jobs]):
            results.append(result)
            if done is not None:
                done()
    except BrokenProcessPool:
        pool.shutdown(wait=False, cancel_futures=True)
        raise BuildError("a worker process died (out of memory?); nothing was written") from None
    except BaseException:  # an error, Ctrl-C, SIGTERM: end the work nobody wants now
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def _star(pair: tuple[Callable[..., T], tuple[Any, ...]]) -> T:
    return pair[0](*pair[1])

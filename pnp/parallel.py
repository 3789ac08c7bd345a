"""Work spread over every core with forked processes.

Forked workers start at once (modules already imported) and see what the
parent set up before forking, so large or unpicklable inputs (an engine
module, a prepared deck) are handed over through :func:`shared` rather than
pickled. Workers die quietly when the pool ends them; the parent reports.

Every process pnp forks (these workers, the renderer and its workers) dies
with the process that forked it, even when that one is killed with SIGKILL:
an orphan would go on holding the output folder's lock, which it inherited,
and the next build would wait for it forever.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from pnp.errors import BuildError, game_code_failure
from pnp.progress import Progress

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")

_SHARED: object = None


def shared() -> Any:
    """What the parent handed to :func:`fork_map` as ``shared``: whatever the
    caller's own worker function reads it as (a run, a list of them)."""
    return _SHARED


_HELD = {signal.SIGINT, signal.SIGTERM}


def _quiet() -> None:
    """A worker's first step: SIGTERM just ends it, Ctrl-C is the parent's,
    progress bars are the parent's too (:mod:`pnp.progress`); then the
    signals held since the fork (see :func:`fork_map`) may come."""
    os.environ["PNP_NO_PROGRESS"] = "1"
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


_PR_SET_PDEATHSIG = 1
_forking: tuple[int, bool] = (0, False)


def _before_fork() -> None:
    global _forking
    _forking = (os.getpid(), threading.current_thread() is threading.main_thread())


def _die_with_parent() -> None:
    """In a forked child: be killed when the parent ends (Linux ``prctl``).
    Only for a fork from the parent's main thread, since the kernel ties the
    signal to the thread that forked; and if the parent is already gone
    (it died before this ran), end now."""
    parent, from_main = _forking
    if not (from_main and sys.platform.startswith("linux")):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl in this C library
        return
    if os.getppid() != parent:
        os._exit(1)


os.register_at_fork(before=_before_fork, after_in_child=_die_with_parent)


def settle() -> None:
    """Wait for this process's other threads that its interpreter would wait
    for before exiting (a pool's, stopping the workers it was left to stop:
    see :func:`_spread`). A forked process calls this before it ends, as its
    end (multiprocessing's) waits for no thread: it closes each pool's queue
    to its workers first, and a worker whose stop signal was not sent yet
    would wait for it forever, and the end with it (a build's renderer,
    on a loaded machine: killed after 5 s, the build waiting)."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()


def can_fork() -> bool:
    return multiprocessing.get_start_method(allow_none=True) in (None, "fork") and hasattr(os, "fork")


def fork_map(
    func: Callable[..., T],
    jobs: Sequence[tuple[object, ...]],
    workers: int,
    share: object = None,
    done: Callable[[], None] | None = None,
    label: str | None = None,
) -> list[T]:
    """``[func(*job) for job in jobs]``, on up to ``workers`` forked processes.
    ``done`` is called in the parent as each job finishes (for progress);
    with a ``label``, a progress bar of that name counts the jobs done
    (:mod:`pnp.progress`: on a terminal only, never from a worker)."""
    return list(fork_iter(func, jobs, workers, share, done, label))


AHEAD = 2
"""With ``here`` (:func:`fork_iter`): jobs each forked worker has waiting or
under way, so it never waits while this process works through a job."""
HELD = 16
"""With ``here``: results done ahead of the one given out next, at most (this
process's and the workers' together): enough that a long job in one process
never stops the others, few enough that no build holds its documents."""

def fork_iter(
    func: Callable[..., T],
    jobs: Sequence[tuple[object, ...]],
    workers: int,
    share: object = None,
    done: Callable[[], None] | None = None,
    label: str | None = None,
    here: bool = False,
) -> Iterator[T]:
    """:func:`fork_map`'s results one by one, in the jobs' order, each as
    soon as it and those before it are done; none is kept here once given
    out, so a caller passing them on never holds them all.

    With ``here``, this process works through jobs too, beside one forked
    worker fewer: ``workers`` processes at work, not ``workers`` forked
    ones and this one waiting for them. For work whose every process grows
    big (a WeasyPrint layout's: some 80 MB each), that is one such process
    fewer for the same cores."""
    if label is None:
        yield from _spread(func, jobs, workers, share, done, here)
        return

    with Progress(label, len(jobs)) as bar:

        def ticked() -> None:
            bar.advance()
            if done is not None:
                done()

        yield from _spread(func, jobs, workers, share, ticked, here)


def _spread(
    func: Callable[..., T], jobs: Sequence[tuple[object, ...]], workers: int, share: object, done: Callable[[], None] | None,
    here: bool = False,
) -> Iterator[T]:
    global _SHARED
    _SHARED = share
    count = min(len(jobs), workers)
    if count <= 1 or not can_fork():
        for job in jobs:
            yield _noted(func(*job), done)  # held by no name here while the caller has it
        return
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # An executor, not a Pool: a worker that dies (out of memory, a crash in a
    # C library) ends the map with an error instead of a wait that never ends.
    # No future is ever cancelled (Executor.map cancels the rest when one
    # fails): CPython 3.11's pool thread, finding a cancelled future once the
    # workers are ended, dies with a traceback on stderr (gh-107219); ended
    # workers fail the futures left instead.
    forked = count - 1 if here else count
    pool = ProcessPoolExecutor(forked, mp_context=multiprocessing.get_context("fork"), initializer=_quiet)
    try:
        if here:
            yield from _alongside(pool, forked, func, jobs, done)
        else:
            futures: list[Future[T] | None] = list(_submitted(pool, func, jobs))
            for number in range(len(futures)):
                yield _noted(_taken(futures, number), done)
    except BrokenProcessPool:
        pool.shutdown(wait=True)
        raise BuildError("a worker process died (out of memory?); nothing was written") from None
    except BaseException:  # an error, Ctrl-C, SIGTERM, a caller that stopped: end the work nobody wants now
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=True)
        raise
    # Every result is in: the workers end on their own (the pool's thread
    # reaps them), while the caller goes on with the results.
    pool.shutdown(wait=False)


def _submitted(pool: ProcessPoolExecutor, func: Callable[..., T], jobs: Sequence[tuple[object, ...]]) -> list[Future[T]]:
    """``jobs`` given to the pool. The first submit forks the workers. A worker
    terminated before it has its own handlers would run the parent's (a
    traceback on stderr), so SIGINT and SIGTERM wait, in the parent and in
    each worker, until then."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        return [pool.submit(_star, (func, job)) for job in jobs]
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _alongside(
    pool: ProcessPoolExecutor, forked: int, func: Callable[..., T], jobs: Sequence[tuple[object, ...]], done: Callable[[], None] | None
) -> Iterator[T]:
    """The results of ``jobs`` in order, laid out by the pool's ``forked``
    workers and by this process. Each worker is kept :data:`AHEAD` jobs
    ahead; this process gives out the result due next as soon as it is in,
    and otherwise takes the next job itself, so no process waits for a long
    job elsewhere while any job is left; it waits for the result due only
    when no job is left to take, or when :data:`HELD` results are done ahead of it."""
    sent: dict[int, Future[T]] = {}
    mine: dict[int, T] = {}
    given = taken = 0
    while given < len(jobs):
        if given in mine:
            yield _noted(mine.pop(given), done)
            given += 1
            continue
        due = sent.get(given)
        if due is not None and due.done():
            yield _noted(sent.pop(given).result(), done)
            given += 1
            continue
        waiting = sum(1 for future in sent.values() if not future.done())
        while taken < len(jobs) and waiting < AHEAD * forked:  # keep the workers fed
            sent[taken] = _submitted(pool, func, jobs[taken : taken + 1])[0]
            taken += 1
            waiting += 1
        if taken < len(jobs) and len(mine) + len(sent) - waiting < HELD:
            mine[taken] = _star((func, jobs[taken]))
            taken += 1
            continue
        yield _noted(sent.pop(given).result(), done)  # nothing left to take here: wait for it
        given += 1


def _taken(futures: list[Future[T] | None], number: int) -> T:
    """The result of future ``number``, which leaves the list (and its
    result with the caller)."""
    future, futures[number] = futures[number], None
    assert future is not None
    return future.result()


def _noted(result: T, done: Callable[[], None] | None) -> T:
    if done is not None:
        done()
    return result


def _star(pair: tuple[Callable[..., T], tuple[object, ...]]) -> T:
    try:
        return pair[0](*pair[1])
    except Exception as exc:  # only a message crosses to the parent: locate a game's code here
        located = game_code_failure(exc)
        if located is None:
            raise
        raise located from None

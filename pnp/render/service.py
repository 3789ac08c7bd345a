"""A renderer started ahead of need, so loading WeasyPrint costs no wall time.

Importing WeasyPrint takes about 0.3 s, as long as reading and planning a
whole game. ``pnp build`` therefore forks a renderer process first thing:
it loads WeasyPrint on the second core while the build reads the cards,
renders the templates and looks faces up in the cache. Whatever the cache
lacks is then laid out by the renderer (which forks its own workers, already
loaded, when there is more than one document). A build that finds everything
in the cache stops the renderer unused and never waits for it.

``python -m pnp build`` forks it earlier still, first thing, before the
command line and pikepdf load (:func:`start_early`): it then loads
WeasyPrint while the build loads those too, and :func:`started` takes it over.

Inside :func:`started`, :func:`pnp.render.dispatch.render_each` sends its jobs
here; elsewhere (``pnp watch``, tests) it lays out in its own process.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from pnp.errors import BuildError, InputError, PnpError
from pnp.parallel import can_fork, settle  # importing it makes every forked process die with its parent

if TYPE_CHECKING:
    from pnp.render.results import Result
    from pnp.render.scope import Scope
    from pnp.render.weasy import SafeBoxes

Jobs = Sequence[tuple[str, str, "SafeBoxes | None"]]
Request = tuple[Jobs, "Scope", int | None]
"""What the build sends the renderer: jobs, the files and fonts they may use, workers."""
Reply = tuple[str, object]
"""What the renderer sends back: ``part`` and the next results (at most
:data:`CHUNK` of them, each a result or the input's fault), as many times as
it takes, then ``done``; or, at any point, ``failed`` and the error, or
``crashed`` and the trace."""

CHUNK = 32
"""Results per message: sent as they are laid out, so neither the renderer
nor the pipe ever holds a whole build's PDFs (16 MB at 6,000 faces)."""

_ACTIVE: Renderer | None = None
_EARLY: Renderer | None = None
"""The renderer :func:`start_early` forked, until :func:`started` takes it over."""
_HELD = {signal.SIGINT, signal.SIGTERM}


def active() -> Renderer | None:
    """The renderer started for this build, if any."""
    return _ACTIVE


def _forget() -> None:
    global _ACTIVE, _EARLY
    _ACTIVE = _EARLY = None


# A process forked during a build (a worker imposing A4) lays out on its own:
# it must not talk to the build's renderer over the build's pipe.
os.register_at_fork(after_in_child=_forget)


class Renderer:
    """A forked process with WeasyPrint loaded, laying out on request."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, self._conn), name="pnp-renderer")
        # Signals wait until the renderer has its own handlers (it unblocks them).
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            self._process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        child.close()
        self._used = False

    def render_each(self, jobs: Jobs, scope: Scope, workers: int | None) -> Iterator[Result | InputError]:
        """Send ``jobs``; their results as they come (:func:`pnp.render.dispatch.render_each`),
        to be taken to the end before the next request."""
        self._used = True
        try:
            self._conn.send(([tuple(job) for job in jobs], scope, workers))
        except OSError:
            raise BuildError("the renderer process stopped unexpectedly; nothing was written") from None
        return self._received()

    def _received(self) -> Iterator[Result | InputError]:
        """The results of the request sent, as the renderer sends them."""
        while True:
            try:
                status, value = self._conn.recv()
            except (EOFError, OSError):
                raise BuildError("the renderer process stopped unexpectedly; nothing was written") from None
            if status == "done":
                return
            if status == "failed":
                raise value
            if status == "crashed":
                raise RuntimeError(f"the renderer process failed:\n{value}")
            part: list[Result | InputError] = value
            yield from part

    def close(self, wait: bool = True) -> None:
        """Stop the renderer: after it has read the stop request when it has
        worked (and ``wait``), else at once: it may still be loading, or be
        laying out for a build that failed or was interrupted."""
        if self._used and wait:
            try:
                self._conn.send(None)
            except OSError:
                pass
            self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout=2)
        if self._process.is_alive():  # caught up in code that would not stop
            self._process.kill()
            self._process.join()
        self._conn.close()


def start_early() -> None:
    """Fork the renderer now, before the command that will use it has loaded
    (when the platform can fork and there is a second core): :func:`started`
    takes it over; a command that ends without (``--help``, a usage error)
    stops it as the process exits."""
    global _EARLY
    if _EARLY is None and can_fork() and _cores() >= 2:
        _EARLY = _new()
        # Before multiprocessing's own exit handler, which would wait for it.
        atexit.register(_stop_early)


def _stop_early() -> None:
    global _EARLY
    if _EARLY is not None:
        _EARLY.close(wait=False)
        _EARLY = None


def _new() -> Renderer | None:
    try:
        return Renderer()
    except OSError:  # no process to spare: lay out in this one
        return None


@contextmanager
def started(enabled: bool = True) -> Iterator[Renderer | None]:
    """Start a renderer for the duration of the block (when ``enabled``, the
    platform can fork and there is a second core), or take over the one
    :func:`start_early` forked; :func:`pnp.render.dispatch.render_each` uses it."""
    global _ACTIVE, _EARLY
    early, _EARLY = _EARLY, None
    if not enabled or not can_fork() or _ACTIVE is not None or _cores() < 2:
        if early is not None:
            early.close(wait=False)
        yield _ACTIVE  # one core has no time to spare for loading ahead
        return
    renderer = early or _new()
    if renderer is None:
        yield None
        return
    _ACTIVE = renderer
    finished = False
    try:
        yield renderer
        finished = True
    finally:
        _ACTIVE = None
        renderer.close(wait=finished)  # Ctrl-C or an error: no waiting for work nobody wants


def _cores() -> int:
    """Cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _serve(conn: Connection, parent_end: Connection) -> None:
    """The renderer's life: load WeasyPrint, then lay out each request."""
    parent_end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # while loading: just end
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    from pnp.images import load_decoders
    from pnp.render.weasy import load_weasyprint, prime

    broken: Reply | None = None
    try:
        load_weasyprint()
        if not conn.poll():  # the build still plans: set up now (with a request waiting, its first job does this anyway)
            prime()
            load_decoders()  # before the workers fork, which would each load them
    except PnpError as exc:  # kept for the first request, which is when the build needs to know
        broken = ("failed", exc)
    except Exception:
        broken = ("crashed", traceback.format_exc())
    try:
        _answer(conn, broken)
    finally:
        settle()  # its layout workers ended before this process ends (see pnp.parallel.settle)


def _answer(conn: Connection, broken: Reply | None) -> None:
    """Lay out each request as it comes, until the build asks no more."""
    while True:
        try:
            request: Request | None = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        jobs, scope, workers = request
        signal.signal(signal.SIGTERM, _stopped)  # while laying out: unwind, so a pool of workers ends too
        try:
            _reply(conn, broken, jobs, scope, workers)
        except OSError:  # the build is gone
            return
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _reply(conn: Connection, broken: Reply | None, jobs: Jobs, scope: Scope, workers: int | None) -> None:
    """Lay ``jobs`` out and send the results back, :data:`CHUNK` at a time
    as they come (see :data:`Reply`)."""
    from pnp.render import sheets

    if broken is not None:
        conn.send(broken)
        return
    part: list[Result | InputError] = []
    try:
        with sheets.session():
            for result in _warmed_first(jobs, scope, workers):
                part.append(result)
                if len(part) == CHUNK:
                    conn.send(("part", part))
                    part = []
        if part:
            conn.send(("part", part))
        reply: Reply = ("done", None)
    except (PnpError, OSError) as exc:  # OSError: the disk refused a file (full): the build says so in a line
        reply = ("failed", exc)
    except Exception:  # a bug: the parent shows the trace
        reply = ("crashed", traceback.format_exc())
    conn.send(reply)


def _warmed_first(jobs: Jobs, scope: Scope, workers: int | None) -> Iterator[Result | InputError]:
    """:func:`pnp.render.weasy.laid_out`'s results, in the jobs' order, with
    the last job (the shortest: they come longest first) laid out here
    before the workers fork for the others: what a process sets up on its
    first layout (the documents' stylesheets parsed, their fonts loaded,
    about 0.1 s of CPU on the poker deck) is then done once, and every
    worker starts with it. Inside a :func:`pnp.render.sheets.session`."""
    from pnp.render.weasy import laid_out

    if len(jobs) < 3:
        yield from laid_out(jobs, scope, workers)
        return
    last = list(laid_out(jobs[-1:], scope, 1))
    yield from laid_out(jobs[:-1], scope, workers, counted=1)
    yield from last


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(STOPPED)


STOPPED = 3
"""The renderer's exit status when it was stopped rather than asked to finish."""

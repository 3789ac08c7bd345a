"""Where a sweep's tasks run: Dask distributed, optional (``pip install 'pnp[sweep]'``).

By default an embedded :class:`distributed.LocalCluster` of one process per
core (one thread each: the engines are pure Python); with a scheduler's
address, the workers of a cluster the user runs (``dask scheduler`` and
``dask worker``), which need pnp and the game folder at the same path. Each
task is submitted with retries: a worker that dies costs only the tasks it
held, which the scheduler hands to another.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from pnp.errors import PnpError, UsageError
from pnp.sweep.tasks import Job, Result, play_job

if TYPE_CHECKING:
    from pnp.sweep.run import Executor

RETRIES = 3
CONNECT_SECONDS = 30


class Future(Protocol):
    """A task on the cluster (``distributed.Future``), as pnp uses it."""

    def result(self) -> Result: ...


class Client(Protocol):
    """A Dask client (``distributed.Client``), as pnp uses it: Dask's own
    types are not checked (the extra is optional)."""

    def submit(self, func: Callable[[Job], Result], job: Job, *, key: str, retries: int, pure: bool) -> Future: ...

    def cancel(self, futures: Sequence[Future]) -> None: ...


class MissingExtra(PnpError):
    """pnp sweep needs Dask distributed, an optional extra; exit status 2."""

    exit_code = 2


def require() -> None:
    """Refuse, in one line, when Dask distributed is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise MissingExtra(
            "pnp sweep needs Dask distributed, which is not installed: pip install 'pnp[sweep]' "
            "(or, in a checkout, pip install -c constraints.txt -e '.[sweep]')"
        ) from None


@contextmanager
def client(scheduler: str | None, workers: int) -> Iterator[Client]:
    """A Dask client: of ``scheduler``'s cluster, or of a local one with ``workers`` processes."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            remote = Client(scheduler, timeout=CONNECT_SECONDS)
        except OSError as exc:
            raise UsageError(f"--scheduler {scheduler}: no Dask scheduler answered ({exc})") from None
        with remote:
            yield remote
        return
    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR,
    ) as cluster, Client(cluster) as local:
        yield local


def executor(dask: Client, tag: str) -> Executor:
    """A function playing jobs on ``dask``'s workers, yielding each result as
    it finishes; ``tag`` (the sweep's fingerprint) keeps two sweeps' task names apart."""
    from distributed import as_completed

    def run(jobs: Sequence[Job]) -> Iterator[Result]:
        futures = [
            dask.submit(play_job, job, key=f"pnp-sweep-{hashlib.sha256(f'{tag}:{job.name}'.encode()).hexdigest()[:24]}",
                        retries=RETRIES, pure=False)
            for job in jobs
        ]
        try:
            for future in as_completed(futures):
                yield future.result()  # a task's own error is raised here
        finally:
            dask.cancel(futures)

    return run

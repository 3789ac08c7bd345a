"""A real Dask cluster on 127.0.0.1 for tests and benchmarks: ``dask
scheduler`` and ``dask worker`` processes, started with bounded waits and
always stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    address: str
    env: dict[str, str]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def add_worker(self) -> subprocess.Popen[bytes]:
        """One more worker process: one thread, no nanny (killed, it stays dead)."""
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", self.address, "--nthreads", "1", "--no-nanny",
             "--no-dashboard", "--host", "127.0.0.1", "--death-timeout", "30"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
        )
        self.workers.append(worker)
        return worker


@contextmanager
def dask_cluster(workers: int) -> Iterator[Cluster]:
    """A scheduler and ``workers`` workers on 127.0.0.1 running this checkout's pnp."""
    from distributed import Client

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    port = free_port()
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )
    cluster = Cluster(f"tcp://127.0.0.1:{port}", env)
    try:
        for _ in range(workers):
            cluster.add_worker()
        with Client(cluster.address, timeout=START_SECONDS) as client:
            client.wait_for_workers(workers, timeout=START_SECONDS)
        yield cluster
    finally:
        for process in [*cluster.workers, scheduler]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in [*cluster.workers, scheduler]:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)

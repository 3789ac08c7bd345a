"""The queue a print export's workers take their files from."""

from __future__ import annotations

from pnp.output.workqueue import Queue
from pnp.parallel import fork_map


def _taking(count: int) -> list[int]:
    """Take ``count`` numbers here (a job run by a forked worker)."""
    from pnp.parallel import shared

    queue: Queue = shared()
    taken = [queue.take() for _ in range(count)]
    return [number for number in taken if number is not None]


def test_forked_workers_take_every_number_once_in_the_order_given() -> None:
    numbers = [7, 3, 300000, 0, 5, 1, 2, 9]
    with Queue(numbers) as queue:
        assert queue.left()
        taken = fork_map(_taking, [(3,), (3,), (3,)], 2, share=queue)
        assert not queue.left() and queue.take() is None
    assert sorted(n for part in taken for n in part) == sorted(numbers)
    for part in taken:  # each worker's in the queue's order
        assert part == sorted(part, key=numbers.index)

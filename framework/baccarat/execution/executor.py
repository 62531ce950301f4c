"""Chunks of whole sessions, run in this process, in worker processes or on Ray: one ordered, bounded scheduler.

A run is cut into chunks of consecutive sessions. The cut depends on the
experiment only (never on the number of workers), each chunk is dealt and
played on its own (a seeded shoe's cards come from its own random stream, a
strategy's from its label and session number), and encoded as Parquet where
it was played; the main process writes each part as a file of the run's
datasets (``rounds.parquet/``, ``ledger.parquet/``). So one worker, N workers
or a Ray cluster write the same bytes.

:func:`in_order` is the one scheduler: it hands chunks to a back end
(:class:`InProcess`, :class:`~baccarat.execution.workers.WorkerProcesses`,
:class:`~baccarat.execution.ray_tasks.RayTasks`), keeps at most the back
end's ``window`` of chunks handed out ahead of the next one due, and yields
the outputs in chunk order; only a few chunks are in memory at a time,
whatever the number of shoes. Between chunks, and while it waits, it looks
for a stop signal (:func:`baccarat.interrupts.check`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from baccarat.execution.chunk_play import run_chunk
from baccarat.execution.chunks import Chunk, ChunkOutput, RunPlan
from baccarat.interrupts import check


class Backend(AbstractContextManager["Backend"], Protocol):
    """Where chunks are played. Leaving its block stops whatever still runs (on an error or a stop, at once)."""

    window: int
    """Most chunks handed out and not yet yielded."""

    def can_take(self) -> bool:
        """Tell whether a chunk handed out now would start at once (a worker is free)."""

    def submit(self, position: int, chunk: Chunk) -> None:
        """Hand out ``chunk``, the ``position``-th of the run."""

    def next_done(self) -> tuple[int, ChunkOutput]:
        """Wait for a chunk handed out to be done (looking for stop signals meanwhile); return its position and output.

        A chunk that raised raises here; a worker that died raises :class:`~baccarat.errors.RunFailure`.
        """


def in_order(backend: Backend, chunks: Sequence[Chunk]) -> Iterator[ChunkOutput]:
    """Yield every chunk's output in chunk order, keeping at most ``backend.window`` chunks handed out ahead."""
    done: dict[int, ChunkOutput] = {}
    handed = 0
    for position in range(len(chunks)):
        while position not in done:
            while handed < len(chunks) and handed < position + backend.window and backend.can_take():
                backend.submit(handed, chunks[handed])
                handed += 1
            finished, output = backend.next_done()
            done[finished] = output
        check()
        yield done.pop(position)


class InProcess:
    """The back end of one worker: each chunk is played here, in this process, when its output is asked for."""

    window = 1

    def __init__(self, plan: RunPlan) -> None:
        self.plan = plan
        self.queue: deque[tuple[int, Chunk]] = deque()

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.queue.clear()

    def can_take(self) -> bool:
        """Take the next chunk only when the last one is played."""
        return not self.queue

    def submit(self, position: int, chunk: Chunk) -> None:
        """Keep the chunk to play."""
        self.queue.append((position, chunk))

    def next_done(self) -> tuple[int, ChunkOutput]:
        """Play the chunk kept."""
        position, chunk = self.queue.popleft()
        check()
        return position, run_chunk(self.plan, chunk)


def execute(plan: RunPlan, chunks: Sequence[Chunk], workers: int = 1, executor: str = "local") -> Iterator[ChunkOutput]:
    """Yield every chunk's output, in chunk order: played here (one worker), by ``workers`` threads or processes, or on Ray.

    ``executor`` is ``"local"`` (threads for a run whose every strategy plays
    baccarat's own compiled code, :func:`~baccarat.execution.worker_threads.threads_suffice`;
    processes for any other), ``"processes"`` (always) or ``"ray"``.

    Worker processes and Ray tasks still running are stopped when the
    consumer stops early (an error, a stop signal, ``close()``).
    """
    backend: AbstractContextManager[Backend]
    if executor == "ray":
        from baccarat.execution.ray_tasks import RayTasks

        backend = RayTasks(plan, workers)
    elif workers <= 1 or len(chunks) <= 1:
        backend = InProcess(plan)
    else:
        from baccarat.execution.worker_threads import WorkerThreads, threads_suffice

        if executor == "local" and threads_suffice(plan, tuple(dict.fromkeys(chunk.seed for chunk in chunks))):
            backend = WorkerThreads(plan, min(workers, len(chunks)))
        else:
            from baccarat.execution.workers import WorkerProcesses

            backend = WorkerProcesses(plan, min(workers, len(chunks)))
    with backend as started:
        yield from in_order(started, chunks)

"""Chunks played by worker threads of this process: for runs whose every strategy plays baccarat's own compiled code.

The compiled kernels (dealing, the session loop) and the Parquet encoder
release the interpreter's lock, so threads of one process use every core
for such a run, without starting worker processes (each imports the
libraries and loads the kernels again: about a second of CPU apiece) and
without sending every chunk's Parquet parts through a pipe.

Threads share a process, so they are used only where a process of its own
buys nothing: every strategy plays compiled (:func:`threads_suffice`), on
twins of baccarat's own code (a plugin's strategy plays in a player process,
:mod:`baccarat.players`, never in a worker's threads).
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from baccarat.execution.chunk_play import run_chunk
from baccarat.execution.chunks import CHUNKS_IN_FLIGHT_PER_WORKER, Chunk, ChunkOutput, RunPlan


def threads_suffice(plan: RunPlan, seeds: tuple[int, ...]) -> bool:
    """Tell whether every strategy of ``plan`` plays compiled, on twins of baccarat's own code, for every seed of the run.

    Then worker threads play the run as fast as worker processes would, for
    less CPU. A plugin's strategy (it plays in player processes), a strategy
    without a twin or a twin that fails its parity check needs worker processes.
    """
    from baccarat.players.code import plays_in_player

    if not plan.compiled:
        return False
    runs = plan.runs()
    if any(plays_in_player(run.cls) for run in runs):
        return False  # a plugin's strategy: decided without loading the compiler
    from baccarat.engine.compiled import compiled_path_disabled, twin_warnings
    from baccarat.engine.strategy_twin import TwinError, twin_of

    if compiled_path_disabled():
        return False
    for seed in seeds:
        for run in runs:
            try:
                twin = twin_of(run, plan.rules, plan.config, seed)
            except TwinError:
                return False
            if twin is None:
                return False
        if twin_warnings(runs, plan.rules, plan.config, seed, plan.bets):  # checked once per process: the threads reuse it
            return False
    return True


class WorkerThreads:
    """The back end of worker threads (:func:`baccarat.execution.executor.in_order` schedules them).

    Each thread has one chunk at a time. On an error or a stop, chunks not
    started are dropped and the chunks being played are waited for (a
    fraction of a second: compiled code of baccarat's own always returns);
    their outputs, held in memory, are dropped with them.
    """

    def __init__(self, plan: RunPlan, workers: int) -> None:
        self.plan = plan
        self.workers = workers
        self.window = workers * CHUNKS_IN_FLIGHT_PER_WORKER
        self.pool: ThreadPoolExecutor | None = None
        self.running: dict[Future[ChunkOutput], int] = {}  # chunk played -> its position

    def __enter__(self) -> WorkerThreads:
        self.pool = ThreadPoolExecutor(self.workers, thread_name_prefix="baccarat worker")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def can_take(self) -> bool:
        """Tell whether a thread is free."""
        return len(self.running) < self.workers

    def submit(self, position: int, chunk: Chunk) -> None:
        """Hand the chunk to a free thread."""
        assert self.pool is not None, "submit() outside the back end's block"
        self.running[self.pool.submit(run_chunk, self.plan, chunk)] = position

    def next_done(self) -> tuple[int, ChunkOutput]:
        """Wait for a thread's output (looking for stop signals meanwhile); a chunk that raised raises here."""
        from baccarat.interrupts import wait_interruptibly

        done = wait_interruptibly(self._done, (TimeoutError,))
        return self.running.pop(done), done.result()

    def _done(self, seconds: float) -> Future[ChunkOutput]:
        finished, _ = wait(self.running, seconds, return_when=FIRST_COMPLETED)
        if not finished:
            raise TimeoutError
        return min(finished, key=self.running.__getitem__)


__all__ = ["WorkerThreads", "threads_suffice"]

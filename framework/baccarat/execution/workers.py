"""Chunks played in worker processes on this machine: pipes to hand them out, sentinels to notice a worker's death.

The main process only hands out chunks and collects outputs; each worker
ends with it, however it ends (``kill -9`` included).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

from baccarat.errors import RunFailure
from baccarat.execution.chunk_play import run_chunk
from baccarat.execution.chunks import CHUNKS_IN_FLIGHT_PER_WORKER, Chunk, ChunkOutput, RunPlan


def default_workers() -> int:
    """Return the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _serve(connection: Any, plan: RunPlan, parent: int, announce: bool = False) -> None:
    """A worker process: play each chunk received on ``connection`` and send back its output, until it closes.

    It ends at once when ``parent`` (the main process) dies, even killed
    with ``kill -9`` in the middle of a chunk (:func:`end_with_parent`).
    With ``announce``, it prints a line when it compiles kernels.
    """
    from baccarat.interrupts import ignore_interrupts

    end_with_parent(parent)
    ignore_interrupts()
    if announce:
        from baccarat.execution.compile_notice import announce_compiling

        announce_compiling()
    while True:
        try:
            chunk = connection.recv()
        except EOFError:  # the main process is done with this worker
            return
        try:
            reply: tuple[bool, Any] = (True, run_chunk(plan, chunk))
        except Exception as exc:  # the main process raises it in its turn
            reply = (False, exc)
        try:
            connection.send(reply)
        except (BrokenPipeError, EOFError):
            return
        except Exception as exc:  # an exception that cannot be pickled
            connection.send((False, RunFailure(f"a worker process failed: {first_line(exc)}")))


class WorkerProcesses:
    """The back end of worker processes on this machine (:func:`baccarat.execution.executor.in_order` schedules them).

    This process only hands out chunks and collects outputs: each worker
    has one chunk at a time. A worker that dies (killed, out of memory)
    ends the run with :class:`RunFailure`; on any error or stop every worker
    is killed. Workers ignore Ctrl-C (a terminal sends it to every process
    of the group): the main process alone acts on it.
    """

    def __init__(self, plan: RunPlan, workers: int) -> None:
        self.plan = plan
        self.workers = workers
        self.window = workers * CHUNKS_IN_FLIGHT_PER_WORKER
        self.processes: list[Any] = []
        self.connections: list[Any] = []
        self.busy: dict[Any, int] = {}  # connection -> position of the chunk it plays
        self.replied = False

    def __enter__(self) -> WorkerProcesses:
        import multiprocessing

        from baccarat.interrupts import starting_workers

        if bootstrapping():  # a worker importing a script without the guard: it ends, and the main process says why
            os._exit(UNGUARDED_EXIT)
        context = multiprocessing.get_context("spawn")
        # The workers start deaf to Ctrl-C (starting_workers blocks it, and they inherit the block). multiprocessing
        # starts its resource tracker at the first start and then unblocks Ctrl-C in the thread that started it,
        # which would let the next worker be started hearing it (and print "Fatal Python error" when Ctrl-C comes
        # while it imports): the tracker is started first, outside the block.
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
        try:
            with starting_workers():
                for k in range(self.workers):
                    ours, theirs = context.Pipe()
                    announce = self.plan.announce_compiling and k == 0  # the workers compile the same kernels at once: one says so
                    process = context.Process(
                        target=_serve,
                        args=(theirs, self.plan, os.getpid(), announce),
                        name="baccarat worker",
                        daemon=True,
                    )
                    self.processes.append(process)
                    self.connections.append(ours)
                    process.start()
                    theirs.close()  # its end lives in the worker only: a worker that dies closes it
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        for connection in self.connections:
            connection.close()  # a worker waiting for a chunk ends on its own
        if kind is not None:
            for process in self.processes:
                process.kill()
            for process in self.processes:
                process.join(WORKER_EXIT_SECONDS)

    def can_take(self) -> bool:
        """Tell whether a worker is free."""
        return len(self.busy) < len(self.connections)

    def submit(self, position: int, chunk: Chunk) -> None:
        """Send the chunk to a free worker."""
        connection = next(c for c in self.connections if c not in self.busy)
        try:
            connection.send(chunk)
        except BrokenPipeError:  # the worker had died
            raise self._died() from None
        self.busy[connection] = position

    def next_done(self) -> tuple[int, ChunkOutput]:
        """Wait for a worker's output; raise when a worker has died."""
        from baccarat.interrupts import wait_interruptibly

        connection = wait_interruptibly(self._ready, (TimeoutError,))
        try:
            ok, value = connection.recv()
        except (EOFError, OSError):
            raise self._died() from None
        if not ok:
            raise value
        self.replied = True
        return self.busy.pop(connection), value

    def _ready(self, seconds: float) -> Any:
        from multiprocessing.connection import wait

        sentinels = {process.sentinel: process for process in self.processes}
        ready = wait([*self.busy, *sentinels], seconds)
        if any(handle in sentinels for handle in ready):
            raise self._died()
        if not ready:
            raise TimeoutError
        return ready[0]

    def _died(self) -> RunFailure:
        """Say why a worker died: a script that starts the run when imported, else killed or out of memory.

        (A plugin's code plays in player processes, never in a worker: a
        player that dies is named by the worker, :mod:`baccarat.players.process`.)
        A stop signal received meanwhile (a terminal's SIGHUP reaches the
        workers too) is raised instead.
        """
        from baccarat.interrupts import check

        check()
        for process in self.processes:
            process.join(0.1)
        codes = {process.exitcode for process in self.processes}
        if UNGUARDED_EXIT in codes:
            script = getattr(sys.modules.get("__main__"), "__file__", None) or "the main script"
            return RunFailure(UNGUARDED_SCRIPT.format(script=script))
        return RunFailure(WORKER_DIED)


def bootstrapping() -> bool:
    """Tell whether this process is a worker still importing the main script (workers start with the ``spawn`` method)."""
    from multiprocessing import process

    return bool(getattr(process.current_process(), "_inheriting", False))


UNGUARDED_EXIT = 3
"""Exit status of a worker process whose import of the main script started a run (the script lacks the guard)."""

UNGUARDED_SCRIPT = (
    "the worker processes could not start: they import {script}, which starts the run again when imported; "
    'put the code that runs it under `if __name__ == "__main__":`, or use one worker'
)


def end_with_parent(parent: int) -> None:
    """Make this process end as soon as its parent ``parent`` dies, however it dies (``kill -9`` included).

    On Linux the kernel sends SIGKILL when the parent is gone (a parent-death
    signal); elsewhere a watchdog thread checks the parent twice a second.
    Should the parent be gone already, the process ends now. The
    multiprocessing resource tracker ends by itself once every process that
    holds its pipe has ended.
    """
    import ctypes
    import threading

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="parent watchdog", daemon=True).start()


PR_SET_PDEATHSIG = 1
"""``prctl`` option of Linux: the signal this process gets when its parent dies."""


WORKER_EXIT_SECONDS = 5.0
"""Longest wait for a killed worker process to be gone."""


WORKER_DIED = (
    "a worker process stopped abruptly (killed, or out of memory); the run was abandoned and nothing was "
    "written; try again, with fewer --workers if memory is short"
)


def first_line(exc: BaseException) -> str:
    """Return the first line of an exception's message that is not blank (else its type's name)."""
    return next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)

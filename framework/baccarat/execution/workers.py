"""Chunks played in worker processes on this machine: pipes to hand them out, sentinels to notice a worker's death.

The main process only hands out chunks and collects outputs; each worker
ends with it, however it ends (``kill -9`` included).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator, Sequence
from typing import Any

from baccarat.errors import RunFailure
from baccarat.execution.chunk_play import run_chunk
from baccarat.execution.chunks import Chunk, ChunkOutput, RunPlan

CHUNKS_IN_FLIGHT_PER_WORKER = 2
"""Chunks handed out ahead of the next output in order, per worker: enough to keep workers busy, few enough to bound memory."""


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


def process_outputs(plan: RunPlan, chunks: Sequence[Chunk], workers: int) -> Iterator[ChunkOutput]:
    """Play the chunks in ``workers`` worker processes and yield their outputs in chunk order.

    This process only hands out chunks and collects outputs: each worker
    has one chunk at a time, and outputs that arrive ahead of their turn
    wait here (at most :data:`CHUNKS_IN_FLIGHT_PER_WORKER` per worker). A
    worker that dies (killed, out of memory) ends the run with
    :class:`RunFailure`; on any error or interrupt every worker is killed.
    Workers ignore Ctrl-C (a terminal sends it to every process of the
    group): the main process alone acts on it.
    """
    import multiprocessing

    from baccarat.interrupts import starting_workers, wait_interruptibly

    context = multiprocessing.get_context("spawn")
    finished = False
    processes = []
    connections = []
    try:
        with starting_workers():
            for k in range(min(workers, len(chunks))):
                ours, theirs = context.Pipe()
                announce = plan.announce_compiling and k == 0  # the workers compile the same kernels at once: one says so
                process = context.Process(target=_serve, args=(theirs, plan, os.getpid(), announce), name="baccarat worker", daemon=True)
                processes.append(process)
                connections.append(ours)
                process.start()
                theirs.close()  # its end lives in the worker only: a worker that dies closes it
        busy: dict[Any, int] = {}  # connection -> position of the chunk it plays
        done: dict[int, ChunkOutput] = {}
        window = len(processes) * CHUNKS_IN_FLIGHT_PER_WORKER
        handed = 0
        for position in range(len(chunks)):
            while position not in done:
                for connection in connections:
                    if connection not in busy and handed < len(chunks) and handed < position + window:
                        connection.send(chunks[handed])
                        busy[connection] = handed
                        handed += 1
                for connection in wait_interruptibly(lambda seconds: _ready(busy, processes, seconds), (TimeoutError,)):
                    try:
                        ok, value = connection.recv()
                    except (EOFError, OSError):
                        raise RunFailure(WORKER_DIED) from None
                    if not ok:
                        raise value
                    done[busy.pop(connection)] = value
            yield done.pop(position)
        finished = True
    except BrokenPipeError:  # a chunk sent to a worker that had died
        raise RunFailure(WORKER_DIED) from None
    finally:
        for connection in connections:
            connection.close()  # a worker waiting for a chunk ends on its own
        if not finished:
            for process in processes:
                process.kill()
            for process in processes:
                process.join(WORKER_EXIT_SECONDS)


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


def _ready(busy: dict[Any, int], processes: Sequence[Any], seconds: float) -> list[Any]:
    """Return the connections of ``busy`` with an output to read, within ``seconds``; raise when a worker has died."""
    from multiprocessing.connection import wait

    sentinels = {process.sentinel: process for process in processes}
    ready = wait([*busy, *sentinels], seconds)
    if any(handle in sentinels for handle in ready):
        raise RunFailure(WORKER_DIED)
    if not ready:
        raise TimeoutError
    return ready


WORKER_DIED = (
    "a worker process stopped abruptly (killed, or out of memory); the run was abandoned and nothing was "
    "written; try again, with fewer --workers if memory is short"
)


def first_line(exc: BaseException) -> str:
    """Return the first line of an exception's message that is not blank (else its type's name)."""
    return next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)

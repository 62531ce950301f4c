"""A worker process's loop (``workers._serve``), run on a thread over a pipe: outputs, errors sent back, the end; a dead worker told.

Worker processes are ended by the main process once the run is done, so their loop is checked here in this process.
"""

from __future__ import annotations

import os
import sys
import threading
import types
from multiprocessing import Pipe
from typing import Any

import pytest

from baccarat import interrupts
from baccarat.errors import RunFailure
from baccarat.execution import workers


class Unpicklable(Exception):
    """An exception a plugin might raise that cannot travel through a pipe."""

    def __init__(self) -> None:
        super().__init__("first\nsecond")
        self.lock = threading.Lock()


def played(plan: Any, chunk: Any) -> Any:
    if chunk == "boom":
        raise ValueError("chunk boom failed")
    if chunk == "unpicklable":
        raise Unpicklable
    return (plan, chunk, chunk * 2)


@pytest.fixture
def serving(monkeypatch: pytest.MonkeyPatch):
    """A worker loop on a thread, with the process-wide parts (parent-death signal, ignored Ctrl-C) left out."""
    monkeypatch.setattr(workers, "run_chunk", played)
    monkeypatch.setattr(workers, "end_with_parent", lambda parent: None)
    monkeypatch.setattr(interrupts, "ignore_interrupts", lambda: None)
    ours, theirs = Pipe()
    thread = threading.Thread(target=workers._serve, args=(theirs, "the plan", 1))
    thread.start()
    yield ours
    ours.close()
    thread.join(timeout=30)
    assert not thread.is_alive()  # the loop ends when the main process closes its end


def test_each_chunk_is_played_and_sent_back_in_turn(serving: Any) -> None:
    for chunk in (3, 5):
        serving.send(chunk)
        assert serving.recv() == (True, ("the plan", chunk, chunk * 2))


def test_a_chunk_that_raises_sends_the_error_and_the_worker_goes_on(serving: Any) -> None:
    serving.send("boom")
    ok, error = serving.recv()
    assert not ok and isinstance(error, ValueError) and str(error) == "chunk boom failed"
    serving.send("unpicklable")  # cannot be sent: why it could not be is
    ok, error = serving.recv()
    assert not ok and isinstance(error, RunFailure) and str(error).startswith("a worker process failed: cannot pickle")
    serving.send(7)
    assert serving.recv() == (True, ("the plan", 7, 14))


def test_first_line_skips_blank_lines_and_falls_back_on_the_type() -> None:
    assert workers.first_line(ValueError("\n  \n  the reason \nmore")) == "the reason"
    assert workers.first_line(KeyError()) == "KeyError"


class Ended:
    """A worker process that has ended with ``exitcode``: its sentinel is ready."""

    def __init__(self, exitcode: int) -> None:
        read, write = os.pipe()
        os.close(write)  # the sentinel reads as ready: the process is gone
        self.sentinel = read
        self.exitcode = exitcode

    def join(self, seconds: float) -> None:
        pass


@pytest.mark.parametrize(
    ("exitcode", "said"),
    [(-9, workers.WORKER_DIED), (workers.UNGUARDED_EXIT, workers.UNGUARDED_SCRIPT.format(script="/somewhere/script.py"))],
)
def test_a_worker_that_died_ends_the_run_saying_why(exitcode: int, said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    main = types.ModuleType("__main__")
    main.__file__ = "/somewhere/script.py"
    monkeypatch.setitem(sys.modules, "__main__", main)
    backend = workers.WorkerProcesses("the plan", 1)  # type: ignore[arg-type]
    ended = Ended(exitcode)
    backend.processes = [ended]
    try:
        with pytest.raises(RunFailure) as failure:
            backend.next_done()
        assert str(failure.value) == said
    finally:
        os.close(ended.sentinel)


def test_a_worker_whose_pipe_closed_mid_chunk_ends_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = workers.WorkerProcesses("the plan", 1)  # type: ignore[arg-type]
    ours, theirs = Pipe()
    theirs.close()  # the worker died: its end of the pipe closed
    backend.busy = {ours: 0}
    with pytest.raises(RunFailure) as failure:
        backend.next_done()
    assert str(failure.value) == workers.WORKER_DIED
    ours.close()

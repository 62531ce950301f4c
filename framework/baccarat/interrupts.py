"""Stopping a command cleanly on Ctrl-C, SIGTERM or SIGHUP: a flag, check points, and a watchdog.

While :func:`stop_on_signals` is active, these signals only set a flag.
The command looks at it at its check points (:func:`check`: between
chunks, while it waits for workers, at the end of a :func:`held` block)
and raises :class:`Interrupted` (a ``KeyboardInterrupt``) there, so that
every ``finally`` and ``except BaseException`` on the way up runs: worker
processes are stopped, temporary folders removed. Nothing is ever raised
from inside a signal handler, so no code is cut in the middle (an import,
a finalizer, a compiler loading a kernel, the rename of a finished run),
and a second signal cannot cut the cleaning short: a stop is raised once.

Compiled code (a plugin's twin, which may never return to the
interpreter, where Python runs signal handlers) plays on a thread of its
own while the main thread waits at check points (:func:`call_stoppably`):
a stop acts within a fraction of a second, under the command line's flag
as under a script's own handlers (the Python API leaves them alone, so
Ctrl-C is the ``KeyboardInterrupt`` every Python script knows, raised once
the run's temporaries are removed). Code that never reaches a check point
all the same (a plain-Python strategy's endless loop) is stopped by a
watchdog thread. It learns of the signal from the file descriptor the
interpreter's own C handler writes to (:func:`signal.set_wakeup_fd`), in
whatever thread the signal lands; when the main thread has not reached a
check point within :data:`CHECK_POINT_SECONDS`, or not finished cleaning up
within :data:`CLEANUP_SECONDS` after, it removes the temporary files and
folders registered with :func:`remove_at_hard_stop`, prints the same one
line and ends the process at once (never inside a :func:`held` block: it
waits for its end). Either way the command line prints one
line and exits with 128 + the signal's number (130 for Ctrl-C, 143 for
SIGTERM, 129 for SIGHUP).

Worker processes call :func:`ignore_interrupts` when they start: a Ctrl-C
typed in a terminal reaches every process of the group, and only the main
process must act on it (it stops the workers itself).
"""

from __future__ import annotations

import contextvars
import os
import queue
import shutil
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from os import _exit as _end_process
from pathlib import Path
from types import FrameType
from typing import TypeVar

T = TypeVar("T")

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals that stop a command cleanly."""

SIGNAL_NAMES: dict[int, str] = {signal.SIGINT: "Ctrl-C", **{int(s): s.name for s in STOP_SIGNALS if s != signal.SIGINT}}

CHECK_POINT_SECONDS = 2.0
"""Longest wait, after a stop signal, for the main thread to reach a check point before the watchdog stops the process."""

CLEANUP_SECONDS = 10.0
"""Longest wait, once a check point raised the stop, for the command to clean up and end."""


class Interrupted(KeyboardInterrupt):
    """The command was stopped by a signal; ``exit_status`` is 128 + its number."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = int(signum)

    @property
    def exit_status(self) -> int:
        """Exit status of a process stopped by this signal, as shells report it."""
        return 128 + self.signum

    def __str__(self) -> str:
        return f"interrupted ({SIGNAL_NAMES.get(self.signum, f'signal {self.signum}')})"


_received: list[int] = []
"""The flag: stop signals received under :func:`stop_on_signals`, each once, in order."""

_raised = threading.Event()
"""Set once a check point has raised the stop: the command is cleaning up."""

_temporaries: set[Path] = set()
"""Files and folders the watchdog removes before it ends the process (:func:`remove_at_hard_stop`)."""


def _note(signum: int, frame: FrameType | None) -> None:
    """The handler of the stop signals: set the flag, nothing else."""
    if signum not in _received:
        _received.append(signum)


_ours: list[signal.Signals] = []
"""The stop signals :func:`stop_on_signals` handles (those the caller did not ignore)."""


def check() -> None:
    """A check point: raise :class:`Interrupted` when a stop signal was received (once; in the main thread only).

    The handlers are put back should code run since the last check point
    (a strategy's) have replaced them.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in _ours:
        if signal.getsignal(sig) is not _note:
            signal.signal(sig, _note)
    if _received and not _raised.is_set():
        _raised.set()
        raise Interrupted(_received[0])


def remove_at_hard_stop(path: str | os.PathLike[str]) -> None:
    """Have the watchdog remove ``path`` (a temporary file or folder) should it end the process itself.

    A path that no longer exists then (renamed into place, removed) is left
    alone; the list is forgotten when :func:`stop_on_signals` ends.
    """
    _temporaries.add(Path(path))


def forget_at_hard_stop(path: str | os.PathLike[str]) -> None:
    """Take ``path`` off the list of :func:`remove_at_hard_stop` (it no longer holds a temporary)."""
    _temporaries.discard(Path(path))


def _hard_stop(signum: int) -> None:
    """Remove the registered temporaries, say one line, and end the process now with 128 + ``signum``."""
    for path in list(_temporaries):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    try:
        os.write(2, f"baccarat: {Interrupted(signum)}\n".encode())
    except OSError:
        pass
    _end_process(128 + signum)


def _watch(wakeups: int, over: threading.Event) -> None:
    """The watchdog: wait for a stop signal, then give the main thread its time to act on it and clean up."""
    numbers = {int(s) for s in STOP_SIGNALS}
    while True:
        try:
            data = os.read(wakeups, 64)
        except OSError:
            return
        if not data or over.is_set():
            return
        stops = [number for number in data if number in numbers]
        if stops:
            break
    if not _raised.wait(CHECK_POINT_SECONDS):
        _wait_unheld(over)  # its end is a check point
    if _raised.is_set() and over.wait(CLEANUP_SECONDS):
        return
    _wait_unheld(over)
    if not over.is_set():
        _hard_stop(_received[0] if _received else stops[0])


def _wait_unheld(over: threading.Event) -> None:
    """Wait while a :func:`held` block runs in the main thread: the watchdog never ends the process in one."""
    while _holding and not over.is_set():
        over.wait(WAKE_SECONDS / 4)
    _raised.wait(WAKE_SECONDS)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within this block, Ctrl-C, SIGTERM and SIGHUP stop the command (module docstring); in the main thread only.

    A stop received while the block ends normally is raised then.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    _received.clear()
    _raised.clear()
    _temporaries.clear()
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    over = threading.Event()
    previous_wakeup = signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
    watchdog = threading.Thread(target=_watch, args=(reader, over), name="stop watchdog", daemon=True)
    watchdog.start()
    try:
        _ours[:] = [sig for sig, handler in previous.items() if handler is not signal.SIG_IGN]  # nohup's stays ignored
        for sig in _ours:
            signal.signal(sig, _note)
        yield
        check()
    finally:
        over.set()
        _ours.clear()
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        signal.set_wakeup_fd(previous_wakeup)
        os.close(writer)  # the watchdog reads the end of its pipe and returns
        watchdog.join(1.0)
        os.close(reader)
        _temporaries.clear()


@contextmanager
def handlers_kept() -> Iterator[None]:
    """Put back this process's handlers of the stop signals when the block ends (a library or a plugin may replace them)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler is not None:
                signal.signal(sig, handler)  # always: native code may have replaced it behind Python's back


def ignore_interrupts() -> None:
    """Ignore Ctrl-C and SIGHUP in a worker process: a terminal sends them to the whole group, and the main process
    stops the workers itself."""
    for sig in STOP_SIGNALS:
        if sig != signal.SIGTERM:
            signal.signal(sig, signal.SIG_IGN)


_holding = 0
"""How many :func:`held` blocks the main thread is in."""


@contextmanager
def held() -> Iterator[None]:
    """A block that a stop never cuts: a stop received meanwhile is raised when it ends.

    No stop is raised inside it, and the watchdog waits for its end (the
    rename of a finished run into place, the removal of the run it replaces).
    """
    global _holding
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _holding += 1
    try:
        yield
    finally:
        _holding -= 1
    check()


@contextmanager
def starting_workers() -> Iterator[None]:
    """Start worker processes deaf to Ctrl-C; a stop received meanwhile is raised when the block ends, never in a start.

    Ctrl-C is blocked in this thread, and a blocked signal stays blocked
    across ``fork`` and ``exec``: the workers are deaf to it from their first
    instruction (a terminal sends Ctrl-C to the whole process group).
    """
    with held():
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
            yield
            return
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


WAKE_SECONDS = 0.2
"""How often a main thread waiting on workers wakes up to look at the flag."""


def wait_interruptibly(
    wait: Callable[[float], T], timeout_errors: tuple[type[BaseException], ...], check_more: Callable[[], None] | None = None
) -> T:
    """Return ``wait(WAKE_SECONDS)``, called again while it times out; a check point between the waits.

    Waking up now and then lets Ctrl-C and SIGTERM act within a fraction of
    a second however long a worker's task takes, and lets ``check_more``
    raise when what is awaited can no longer come.
    """
    while True:
        check()
        try:
            return wait(WAKE_SECONDS)
        except timeout_errors:
            if check_more is not None:
                check_more()


def call_stoppably(function: Callable[..., T], *args: object, what: str = "compiled code") -> T:
    """Return ``function(*args)``, called on a thread apart while the main thread waits at check points.

    Compiled code (a plugin's twin in the session loop, ``nogil``) never
    comes back to the interpreter, where Python runs signal handlers, so the
    main thread must not be the one running it. Waiting here instead, the
    main thread acts on a stop within :data:`WAKE_SECONDS`, whoever handles
    the signal: the command line's flag (:func:`check`), or, through the
    Python API, the script's own handlers (Python's raises
    ``KeyboardInterrupt`` here, and every ``finally`` on the way up removes
    the run's temporary folder and lock). The stop is raised at once in
    either case; code that never returns cannot be ended inside its process,
    so the thread is left to end with the process (a daemon), and when the
    process may go on (the Python API: a notebook, a script that catches the
    stop) one line on stderr says that ``what`` still runs. The thread is
    kept for the next call, unless it was left running (starting one for
    each call cost about 0.2 ms of CPU a call in a run's chunks, a few
    percent of a chunk's compiled play). Called from any other thread,
    ``function`` simply runs there.
    """
    if threading.current_thread() is not threading.main_thread():
        return function(*args)
    box: dict[str, object] = {}
    done = threading.Event()  # not Thread.join: a join cut by Ctrl-C may mark the thread as ended while it runs
    check()  # a stop already received is raised here: nothing starts that would go on after it
    runner, calls = _runners.pop() if _runners else (None, None)
    if runner is None or calls is None or not runner.is_alive():  # none yet, or made before a fork (which kept no thread)
        calls = queue.SimpleQueue()
        runner = threading.Thread(target=_run_calls, args=(calls,), name=what, daemon=True)
        runner.start()
    runner.name = what
    calls.put((function, args, box, done))
    try:
        wait_interruptibly(lambda seconds: _waited(done, seconds), (TimeoutError,))
    except BaseException:
        if done.is_set():
            _runners.append((runner, calls))
        else:
            calls.put(None)  # left running: its thread ends should the call ever return
            if not _ours:  # the command line ends its process at once; a script may go on
                _say_still_running(what)
        raise
    _runners.append((runner, calls))
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


_Call = tuple[Callable[..., object], tuple[object, ...], dict[str, object], threading.Event]
"""A call handed to the thread of :func:`call_stoppably`: the function, its arguments, where the outcome goes, and the
event set once it is there."""

_runners: list[tuple[threading.Thread, queue.SimpleQueue[_Call | None]]] = []
"""The thread of :func:`call_stoppably` and the queue it takes calls from, while no call runs on it."""


def _run_calls(calls: queue.SimpleQueue[_Call | None]) -> None:
    """The thread of :func:`call_stoppably`: run each call handed over, keep its outcome; end at ``None``.

    Each call runs in a context of its own (:mod:`contextvars`: decimal's context, numpy's error handling), empty
    as a new thread's: what one call sets there is not seen by the next.
    """
    while True:
        call = calls.get()
        if call is None:
            return
        function, args, box, done = call
        del call
        try:
            box["value"] = contextvars.Context().run(function, *args)  # an empty context, as on a new thread
        except BaseException as exc:  # re-raised on the main thread
            box["error"] = exc
        finally:
            done.set()
        del function, args, box, done  # nothing of the call is kept while the thread waits for the next


def _waited(done: threading.Event, seconds: float) -> None:
    """Wait up to ``seconds`` for ``done``; raise TimeoutError when it is not set by then."""
    if not done.wait(seconds):
        raise TimeoutError


def _say_still_running(what: str) -> None:
    try:
        os.write(
            2,
            f"baccarat: warning: stopped while {what} ran; it cannot be ended inside this process and goes on, "
            "on a thread of its own, until the process ends\n".encode(),
        )
    except OSError:
        pass


def signal_received() -> bool:
    """Tell whether a stop signal reached this process, or, outside :func:`stop_on_signals`, whether one could have.

    Under :func:`stop_on_signals` every stop signal is recorded, so a
    ``KeyboardInterrupt`` that code raised itself is told apart from a real
    Ctrl-C. Elsewhere Python's own handler raises it, and it counts as real.
    """
    if _received or threading.current_thread() is not threading.main_thread():
        return bool(_received)
    if any(signal.getsignal(sig) is _note for sig in STOP_SIGNALS):
        return False
    return signal.getsignal(signal.SIGINT) is signal.default_int_handler


def is_stop(exc: BaseException) -> bool:
    """Tell whether ``exc`` stops the command (a stop signal received), not plugin code's own raise.

    Plugin code may raise any ``BaseException`` (``GeneratorExit``,
    ``SystemExit``, a ``KeyboardInterrupt`` of its own): that is the plugin's
    failure, reported as such; a real Ctrl-C is not.
    """
    if isinstance(exc, Interrupted):
        return True
    if isinstance(exc, KeyboardInterrupt):
        return signal_received()
    return False


def signal_of(exc: KeyboardInterrupt) -> int:
    """Return the signal that stopped the command: the exception's, else the first one received, else Ctrl-C."""
    if isinstance(exc, Interrupted):
        return exc.signum
    return _received[0] if _received else int(signal.SIGINT)


def exit_status(exc: KeyboardInterrupt) -> int:
    """Return the exit status of a command stopped by ``exc``: 128 + the signal's number (130 for Ctrl-C)."""
    return 128 + signal_of(exc)


def describe(exc: KeyboardInterrupt) -> str:
    """Return the one line that says how the command was stopped."""
    return str(Interrupted(signal_of(exc)))

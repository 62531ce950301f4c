"""Stopping a command cleanly on Ctrl-C, SIGTERM or SIGHUP.

While :func:`stop_on_signals` is active, the first of these signals raises
:class:`Interrupted` (a ``KeyboardInterrupt``) in the main thread, so that
every ``finally`` and ``except BaseException`` on the way up runs: worker
processes are stopped, temporary folders removed. Further signals are then
ignored until the command has cleaned up, so that a second Ctrl-C cannot
cut the cleaning short. A signal that lands in code an exception must not
cut (a compiler loading a kernel, an import, the start of worker
processes, the rename of a finished run) is acted on moments later. The
command line prints one line and exits with 128 + the signal's number
(130 for Ctrl-C, 143 for SIGTERM).

Worker processes call :func:`ignore_interrupts` when they start: a Ctrl-C
typed in a terminal reaches every process of the group, and only the main
process must act on it (it stops the workers itself).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

T = TypeVar("T")

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals that stop a command cleanly."""

SIGNAL_NAMES: dict[int, str] = {signal.SIGINT: "Ctrl-C", **{int(s): s.name for s in STOP_SIGNALS if s != signal.SIGINT}}


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


_held: list[int] = []
"""Signals received while :func:`held` holds them, after a marker that it does."""
_HOLDING = -1


_received: list[int] = []
"""Stop signals received under :func:`stop_on_signals`, each once (a library may turn our exception into a plain
KeyboardInterrupt, and a signal that landed in unsafe code is sent again)."""


UNSAFE_PACKAGES = frozenset({"numba", "llvmlite", "importlib", "weakref", "_weakrefset"})
"""Code that an exception must not cut, or that would swallow it: a compiler loading or building a kernel
(called back from native code; the results of a run use compiled kernels in this process), an import half
done, a weak-reference callback run by the garbage collector (as ``__del__`` methods are). A stop signal that
lands there is acted on moments later."""

RETRY_SECONDS = 0.05

_retries: list[threading.Timer] = []


def _in_unsafe_code(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__" or str(frame.f_globals.get("__name__", "")).partition(".")[0] in UNSAFE_PACKAGES:
            return True
        frame = frame.f_back
    return False


def _stop(signum: int, frame: FrameType | None) -> None:
    if signum not in _received:
        _received.append(signum)
    if _held and _held[0] == _HOLDING:
        _held.append(signum)  # acted on when the held block ends
        return
    if frame is not None and _in_unsafe_code(frame):
        timer = threading.Timer(RETRY_SECONDS, os.kill, (os.getpid(), signum))
        timer.daemon = True
        _retries.append(timer)
        timer.start()
        return
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)  # clean up undisturbed; stop_on_signals restores the handlers
    raise Interrupted(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within this block, Ctrl-C, SIGTERM and SIGHUP raise :class:`Interrupted` (in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    _received.clear()
    try:
        for sig, handler in previous.items():
            if handler is not signal.SIG_IGN:  # a signal ignored by the caller (nohup) stays ignored
                signal.signal(sig, _stop)
        yield
    finally:
        for timer in _retries:
            timer.cancel()  # the command is over: a signal still to be sent again would reach whoever runs next
        _retries.clear()
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


@contextmanager
def handlers_kept() -> Iterator[None]:
    """Put back this process's handlers of the stop signals when the block ends (a library may replace them)."""
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
    """Ignore Ctrl-C in a worker process: the main process stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def held() -> Iterator[None]:
    """Hold stop signals until the block ends, so that it is never cut in the middle.

    A stop signal that arrives meanwhile is acted on when the block ends
    (:class:`Interrupted` is raised then), never lost. Only under
    :func:`stop_on_signals`; elsewhere, and in other threads, this does nothing.
    """
    if _held or threading.current_thread() is not threading.main_thread():
        yield
        return
    _held.append(_HOLDING)
    try:
        yield
    finally:
        pending = _held[1:]
        _held.clear()
        if pending:
            _stop(pending[0], None)


@contextmanager
def starting_workers() -> Iterator[None]:
    """Hold stop signals while worker processes start, so that none is killed half-started.

    Ctrl-C is also blocked in this thread, and a blocked signal stays blocked
    across ``fork`` and ``exec``: the workers are deaf to it from their first
    instruction (a terminal sends Ctrl-C to the whole process group). A stop
    signal that arrives meanwhile (it may reach another thread) is acted on
    when the block ends, never lost, never in the middle of a start.
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
"""How often a main thread waiting on workers wakes up to let a signal handler run."""


def wait_interruptibly(
    wait: Callable[[float], T], timeout_errors: tuple[type[BaseException], ...], check: Callable[[], None] | None = None
) -> T:
    """Return ``wait(WAKE_SECONDS)``, called again while it times out; ``check()`` runs between the waits.

    A signal may be delivered to any thread; one blocked in a long wait in
    the main thread is not woken by it, and Python runs signal handlers only
    in the main thread. Waking up now and then lets Ctrl-C and SIGTERM act
    within a fraction of a second however long a worker's task takes, and
    lets ``check`` raise when what is awaited can no longer come.
    """
    while True:
        try:
            return wait(WAKE_SECONDS)
        except timeout_errors:
            if check is not None:
                check()


def signal_received() -> bool:
    """Tell whether a stop signal reached this process, or, outside :func:`stop_on_signals`, whether one could have.

    Under :func:`stop_on_signals` every stop signal is recorded, so a
    ``KeyboardInterrupt`` that code raised itself is told apart from a real
    Ctrl-C. Elsewhere Python's own handler raises it, and it counts as real.
    """
    if _received or threading.current_thread() is not threading.main_thread():
        return bool(_received)
    if any(signal.getsignal(sig) is _stop for sig in STOP_SIGNALS):
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

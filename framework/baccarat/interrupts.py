"""Stopping a command cleanly on Ctrl-C, SIGTERM or SIGHUP.

While :func:`stop_on_signals` is active, the first of these signals raises
:class:`Interrupted` (a ``KeyboardInterrupt``) in the main thread, so that
every ``finally`` and ``except BaseException`` on the way up runs: worker
processes are stopped, temporary folders removed. Further signals are then
ignored until the command has cleaned up, so that a second Ctrl-C cannot
cut the cleaning short. The command line prints one line and exits with
128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM).

Worker processes call :func:`ignore_interrupts` when they start: a Ctrl-C
typed in a terminal reaches every process of the group, and only the main
process must act on it (it stops the workers itself).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
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


def _stop(signum: int, frame: FrameType | None) -> None:
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
    try:
        for sig, handler in previous.items():
            if handler is not signal.SIG_IGN:  # a signal ignored by the caller (nohup) stays ignored
                signal.signal(sig, _stop)
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


def ignore_interrupts() -> None:
    """Ignore Ctrl-C in a worker process: the main process stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def exit_status(exc: KeyboardInterrupt) -> int:
    """Return the exit status of a command stopped by ``exc``: 128 + the signal's number, 130 for a plain Ctrl-C."""
    return exc.exit_status if isinstance(exc, Interrupted) else 128 + signal.SIGINT


def describe(exc: KeyboardInterrupt) -> str:
    """Return the one line that says how the command was stopped."""
    return str(exc) if isinstance(exc, Interrupted) else str(Interrupted())

"""Compiled code played apart (:func:`baccarat.interrupts.call_stoppably`): one thread kept for the calls, a new one once a
call was left running."""

from __future__ import annotations

import contextvars
import decimal
import threading

import pytest

from baccarat import interrupts

pytestmark = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="plays apart from the main thread only")


def _fails() -> None:
    raise ValueError("from the call")


def test_calls_run_one_after_the_other_on_one_kept_thread() -> None:
    threads = [interrupts.call_stoppably(threading.current_thread, what="a call") for _ in range(3)]
    assert threads[0] is not threading.current_thread()
    assert threads[1] is threads[0] and threads[2] is threads[0]
    assert interrupts.call_stoppably(sum, (1, 2, 3)) == 6
    with pytest.raises(ValueError, match="from the call"):
        interrupts.call_stoppably(_fails)
    assert interrupts.call_stoppably(threading.current_thread) is threads[0]  # an error leaves the thread for the next call


_SEEN: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="nothing")


def _sets_and_sees() -> str:
    seen = _SEEN.get()
    _SEEN.set("set by a call")
    decimal.getcontext().prec = 3
    return seen


def test_each_call_starts_from_an_empty_context_as_on_a_new_thread() -> None:
    assert interrupts.call_stoppably(_sets_and_sees) == "nothing"
    assert interrupts.call_stoppably(_sets_and_sees) == "nothing"
    assert interrupts.call_stoppably(lambda: decimal.getcontext().prec) == decimal.DefaultContext.prec


def test_a_call_left_running_keeps_its_thread_and_the_next_call_gets_a_new_one(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    release = threading.Event()

    def stuck() -> None:
        release.wait(60)

    def stopped(done: threading.Event, seconds: float) -> None:
        raise KeyboardInterrupt  # as Python's own handler raises Ctrl-C while the main thread waits

    monkeypatch.setattr(interrupts, "_waited", stopped)
    with pytest.raises(KeyboardInterrupt):
        interrupts.call_stoppably(stuck, what="a call that never returns")
    monkeypatch.undo()
    assert "stopped while a call that never returns ran" in capfd.readouterr().err
    (left,) = [thread for thread in threading.enumerate() if thread.name == "a call that never returns"]
    try:
        assert interrupts.call_stoppably(threading.current_thread) is not left
    finally:
        release.set()
    left.join(10)
    assert not left.is_alive()  # once its call returns, the thread left running ends

"""The thread a plain-Python strategy plays on: Ctrl-C reaches its caller at once, and the thread ends soon after."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import preset

RULES = preset("punto-banco-8")


class Slow(Strategy):
    """Ten on Banker, a millisecond a round."""

    name = "slow"

    def bets(self, view):
        time.sleep(0.001)
        return {"banker": 10}


def test_ctrl_c_reaches_the_caller_at_once_and_the_strategy_thread_ends_at_the_next_session() -> None:
    table = seeded_table(RULES, 1, 1, 80)  # about 6,400 rounds: 6 s or more of this strategy, 80 sessions of 80 rounds
    config = SessionConfig(100_000, 1_000, 100_000, 1)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own Ctrl-C, whatever ran before
    try:
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()  # Ctrl-C
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            run_strategy(
                StrategyRun("slow one", Slow, {}), table, settlement_table(table, RULES), RULES, config, 1, session_bounds(table, 1)
            )
        interrupted = time.monotonic()
    finally:
        signal.signal(signal.SIGINT, before)
    assert interrupted - started < 2.5  # the caller got the interrupt while the strategy played
    while any(thread.name == "strategy slow one" for thread in threading.enumerate()) and time.monotonic() - interrupted < 30:
        time.sleep(0.01)
    assert not any(thread.name == "strategy slow one" for thread in threading.enumerate())
    assert time.monotonic() - interrupted < 2  # a session (80 ms of rounds) later, not the 6 s of the sessions left

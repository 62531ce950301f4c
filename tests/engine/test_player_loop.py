"""The player's loop (``players.host._play``), run in a thread over a socket: the same ledger as the dealer's own seat.

Player processes are killed once their chunk is played, so what runs in them is checked here in this process.
"""

from __future__ import annotations

import random
import socket
import threading
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import pytest

from baccarat.engine.reference import StrategyRun, run_strategy
from baccarat.execution.runner import strategy_runs
from baccarat.experiment import load_experiment
from baccarat.odds.settlement import settlement_table
from baccarat.players.host import _play, unseeded_streams_apart
from baccarat.players.process import decode_answer, encode_step
from baccarat.players.seat import Opening, Step
from baccarat.plugin.manager import registry
from baccarat.shoes.compiled_deal import seeded_table_compiled

EXPERIMENT = {
    "name": "player loop",
    "rules": "punto-banco-8",
    "shoes": {"source": "seeded", "seed": 3, "count": 4},
    "session": {"bankroll": 100, "shoes_per_session": 1, "table_min": 10, "table_max": 200},
    "strategies": [{"name": "mart", "use": "martingale", "params": {"side": "follow-last", "unit": 10}}],
}


class ThreadSeat:
    """A seat whose strategy plays in ``_play`` on a thread of this process, as it would in a forked player."""

    def __init__(self, use: str, params: dict[str, Any], rules: Any, opening: Opening) -> None:
        ours, theirs = socket.socketpair()
        self.connection = Connection(ours.detach())
        self.label = opening.label
        self.thread = threading.Thread(target=_play, args=(theirs.detach(), registry(()), use, params, rules))
        self.thread.start()
        self.connection.send(opening)

    def __enter__(self) -> ThreadSeat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.connection.close()  # the player sees the end of its connection and returns
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()

    def step(self, step: Step) -> Any:
        self.connection.send_bytes(encode_step(step))  # as the dealer sends it (players.process.PlayerSeat.send)
        assert self.connection.poll(60), "the player loop gave no answer"  # a failure, never a hung test
        return decode_answer(self.connection.recv_bytes(), self.label)


def test_a_strategy_played_by_the_player_loop_writes_the_ledger_of_the_dealers_seat() -> None:
    experiment = load_experiment(EXPERIMENT)
    rules = experiment.rules
    (run,) = strategy_runs(experiment)
    table = seeded_table_compiled(rules, 3, 1, 4)
    settled = settlement_table(table, rules)
    here = run_strategy(run, table, settled, rules, experiment.session, 3)
    seats = []

    def in_thread(run: StrategyRun, opening: Opening) -> ThreadSeat:
        seats.append(ThreadSeat("martingale", {"side": "follow-last", "unit": 10}, rules, opening))
        return seats[-1]

    there = run_strategy(run, table, settled, rules, experiment.session, 3, seats=in_thread)
    assert len(seats) == 1 and sorted(here) == sorted(there)
    assert int((here["stake"] > 0).sum()) > 100  # the sessions bet
    for name in here:
        assert np.array_equal(np.asarray(here[name]), np.asarray(there[name])), name


def test_a_strategy_the_player_cannot_make_is_said_in_its_answer() -> None:
    experiment = load_experiment(EXPERIMENT)
    ours, theirs = socket.socketpair()
    connection = Connection(ours.detach())
    opening = Opening("mine", {}, (1,), 0, 10_000, 1_000, 20_000, ("banker", "player"), True)
    connection.send(opening)
    _play(theirs.detach(), registry(()), "no such strategy", {}, experiment.rules)  # returns after its one answer
    answer = decode_answer(connection.recv_bytes(), "mine")
    assert answer.error.startswith("strategy 'mine' could not be made in its player: ") and len(answer.bets) == 0
    connection.close()


@pytest.mark.parametrize("module", ["random", "numpy"])
def test_a_new_player_draws_other_numbers_than_the_process_it_was_forked_from(module: str) -> None:
    def draw() -> float:
        return random.random() if module == "random" else float(np.random.random())

    seed = random.seed if module == "random" else np.random.seed
    state = random.getstate() if module == "random" else np.random.get_state()
    try:
        seed(1)
        copied = [draw() for _ in range(3)]
        seed(1)  # the state a fork copies
        unseeded_streams_apart()
        assert [draw() for _ in range(3)] != copied  # equal by chance with probability 2**-96 or less
    finally:
        random.setstate(state) if module == "random" else np.random.set_state(state)

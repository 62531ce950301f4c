"""Several strategies dealt together (``run_strategies``), and the dealer's and players' messages in plain numbers."""

from __future__ import annotations

import numpy as np
import pytest

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategies, run_strategy, session_bounds
from baccarat.errors import StrategyError
from baccarat.odds.settlement import settlement_table
from baccarat.players.process import decode_answer, decode_step, encode_answer, encode_step
from baccarat.players.seat import Answer, Step
from baccarat.plugin import Strategy
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import preset


class Proportional(Strategy):
    """A share of the bankroll on the last side decided, doubled after a loss: reads the bankroll and settles."""

    name = "proportional"
    lost = False

    def bets(self, view):
        stake = min(max(10, int(view.bankroll) // 1000 * 10), 400) * (2 if self.lost else 1)
        return {"banker" if view.last_decided is None else view.last_decided: stake}

    def settle(self, view, nets):
        self.lost = sum(nets.values()) < 0


def failing_at(round_: int) -> type[Strategy]:
    class Failing(Strategy):
        name = f"failing-{round_}"

        def bets(self, view):
            if view.round == round_:
                raise RuntimeError(f"round {round_}")
            return {"player": 10}

    return Failing


@pytest.fixture(scope="module")
def dealt():
    rules = preset("punto-banco-8")
    table = seeded_table(rules, 5, 1, 6)
    return rules, table, settlement_table(table, rules), SessionConfig(100_000, 1_000, 100_000, 1), session_bounds(table, 1)


def test_strategies_dealt_together_give_each_one_its_ledger_alone(dealt) -> None:
    rules, table, multipliers, config, sessions = dealt
    runs = [StrategyRun("proportional", Proportional, {}), StrategyRun("flat", failing_at(10_000), {})]
    together = run_strategies(runs, table, multipliers, rules, config, 7, sessions)
    for run, played in zip(runs, together, strict=True):
        alone = run_strategy(run, table, multipliers, rules, config, 7, sessions)
        columns = played()
        assert columns["stake"].any()
        assert columns.keys() == alone.keys()
        for name, column in alone.items():
            assert np.array_equal(columns[name], column), (run.label, name)


def test_a_failing_strategy_ends_those_after_it_and_the_first_error_in_order_is_its_own(dealt) -> None:
    rules, table, multipliers, config, sessions = dealt
    runs = [StrategyRun("fine", Proportional, {}), StrategyRun("late", failing_at(40), {}), StrategyRun("early", failing_at(3), {})]
    fine, late, early = run_strategies(runs, table, multipliers, rules, config, 7, sessions)
    assert fine()["stake"].any()
    assert isinstance(late, StrategyError) and "'late'" in late.message and "round 40" in late.message
    assert isinstance(early, StrategyError) and "'early'" in early.message and "round 3" in early.message
    with pytest.raises(StrategyError, match="'late'.*round 40"):
        run_strategy(runs[1], table, multipliers, rules, config, 7, sessions)


def test_a_step_sent_in_plain_numbers_is_read_back_exactly() -> None:
    rng = np.random.default_rng(3)
    n, played = 50, 60
    big = np.iinfo(np.int64)
    step = Step(
        rng.integers(0, 3, played).astype(np.int8),
        rng.integers(0, 52, (played, 6)).astype(np.int8),
        np.array([big.max, big.min] + rng.integers(-(10**12), 10**12, played - 2).tolist(), dtype=np.int64),
        np.stack([np.arange(played), np.zeros(played, np.int64), rng.integers(-(10**7), 10**7, played)], axis=1),
        rng.integers(1, 80, n),
        rng.random(n) < 0.2,
        rng.integers(1, 70_000, n),
        rng.integers(0, 52, n),
        rng.random(n) < 0.9,
    )
    empty_i = np.zeros(0, np.int64)
    empty = Step(
        np.zeros(0, np.int8),
        np.zeros((0, 6), np.int8),
        empty_i,
        np.zeros((0, 3), np.int64),
        empty_i,
        np.zeros(0, bool),
        empty_i,
        empty_i,
        np.zeros(0, bool),
    )
    for sent in (step, empty):
        read = decode_step(encode_step(sent))
        for name, array in vars(sent).items():
            back = getattr(read, name)
            assert back.dtype == array.dtype and back.shape == array.shape and np.array_equal(back, array), name
            assert back.flags.writeable
    without_cards = decode_step(encode_step(Step(step.outcome, None, *list(vars(step).values())[2:])))
    assert without_cards.cards is None and np.array_equal(without_cards.nets, step.nets)


def test_an_answer_is_read_back_exactly_and_what_is_no_answer_is_refused() -> None:
    bets = np.array([[0, 0, 1_000, 0], [3, 1, 2**62, 1], [4, 2, 500, 0]], dtype=np.int64)
    answer = Answer(bets, np.array([np.nan, -0.0125, np.nan]), np.array([[2, 1]], dtype=np.int64), "an error é", "detail", True)
    data = encode_answer(answer)
    read = decode_answer(data, "s")
    assert np.array_equal(read.bets, bets) and read.bets.dtype == np.int64
    assert np.array_equal(read.evs, answer.evs, equal_nan=True) and np.array_equal(read.stops, answer.stops)
    assert (read.error, read.detail, read.at_start) == ("an error é", "detail", True)
    floats = Answer(bets.astype(np.float64), answer.evs, answer.stops)  # a player's bets in floating point: no answer
    for garbled in (data[:-1], data + b"x", data[:20], b"", encode_answer(floats)):
        with pytest.raises(StrategyError, match="'s': its player sent what is no answer"):
            decode_answer(garbled, "s")

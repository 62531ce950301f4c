"""Vectorised strategies at their seat: the same ledger as the per-session form, only dealt rounds seen, bad returns refused.

The strategies here are played by the dealer in this process (no player), on
seeded shoes of several shoes a session, so that sessions end at different
rounds and the arrays shrink as they do.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers.vector_plugin import plugin_classes

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.engine.sessions import sessions_of
from baccarat.errors import StrategyError
from baccarat.odds.settlement import settlement_table
from baccarat.players.seat import Seat
from baccarat.players.vector_seat import VectorSeat, seat_for
from baccarat.plugin import VectorStrategy
from baccarat.plugin.vector import NO_BET
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import preset

RULES = preset("punto-banco-8")
TABLE = seeded_table(RULES, 11, 1, 12)
SETTLED = settlement_table(TABLE, RULES)
CONFIG = SessionConfig(30_000, 1_000, 50_000, 3)  # 300 units, 10 to 500: Martingale runs into the maximum and into ruin


CLASSES = plugin_classes()
FollowMartingale, VecFollowMartingale = CLASSES["FollowMartingale"], CLASSES["VecFollowMartingale"]


def play(cls, params=None, table=TABLE, config=CONFIG, label="s"):
    return run_strategy(StrategyRun(label, cls, params or {}), table, SETTLED, RULES, config, 7)


def test_a_vectorised_strategy_gives_the_ledger_of_its_per_session_form() -> None:
    per_session, vectorised = play(FollowMartingale), play(VecFollowMartingale)
    assert set(per_session) == set(vectorised)
    for name in per_session:
        assert np.array_equal(per_session[name], vectorised[name]), name
    stakes = per_session["stake"]
    assert (stakes == 1_000).any() and (stakes >= 32_000).any()  # it doubled far, and came back to one unit
    assert (per_session["stake_player"] > 0).any() and (per_session["stake_banker"] > 0).any()


@pytest.mark.parametrize(
    "config",
    [
        SessionConfig(30_000, 1_000, 50_000, 1, rounds=45),  # sessions of 45 rounds, across shoes
        SessionConfig(30_000, 1_000, 50_000, 2, win_goal_cents=8_000, stop_loss_cents=12_000),  # the dealer's session rules
    ],
    ids=["rounds", "session-rules"],
)
def test_the_same_ledger_under_sessions_of_rounds_and_session_rules(config: SessionConfig) -> None:
    per_session, vectorised = play(FollowMartingale, config=config), play(VecFollowMartingale, config=config)
    for name in per_session:
        assert np.array_equal(per_session[name], vectorised[name]), name
    assert (per_session["stake"] == 0).any()  # some sessions stopped betting (a rule, or ruin) and watched


def test_the_seat_is_chosen_by_the_kind_of_strategy() -> None:
    from baccarat.players.seat import Opening

    opening = Opening("s", {}, (1,), 0, 30_000, 1_000, 50_000, ("banker", "player"), True)
    assert isinstance(seat_for(VecFollowMartingale, RULES, opening), VectorSeat)
    assert isinstance(seat_for(FollowMartingale, RULES, opening), Seat)


class Witness(VectorStrategy):
    """Bets flat Banker and keeps a copy of everything it was shown, round by round."""

    name = "witness"
    seen: list = []

    def __init__(self, chunk):
        super().__init__(chunk)
        Witness.seen.append(("chunk", chunk.sessions.copy()))

    def bets(self, rounds):
        for array in (rounds.outcome, rounds.bankroll, rounds.hand, rounds.may_bet):
            with pytest.raises(ValueError):
                array[:1] = 0  # read-only: the dealer's facts
        Witness.seen.append((rounds.round, rounds.outcome.copy(), rounds.bankroll.copy(), rounds.hand.copy(), rounds.shoe.copy()))
        return np.zeros(rounds.n, np.int64), np.full(rounds.n, 10)


def test_a_vectorised_strategy_is_shown_only_the_rounds_dealt() -> None:
    Witness.seen = []
    ledger = play(Witness)
    (_, order), *calls = Witness.seen
    sessions = sessions_of(TABLE, CONFIG)
    bounds = {number: (start, stop) for number, start, stop in sessions}
    lengths = [bounds[s][1] - bounds[s][0] for s in order.tolist()]
    assert lengths == sorted(lengths, reverse=True)  # longest first: those still playing are a prefix
    assert len(calls) == max(lengths)  # one call per round, none after the last
    first_row = dict(zip(*np.unique(ledger["session"], return_index=True), strict=True))
    for k, (round_number, outcome, bankroll, hand, shoe) in enumerate(calls, start=1):
        assert round_number == k
        playing = [s for s, length in zip(order.tolist(), lengths, strict=True) if length >= k]
        assert len(hand) == len(playing)  # the sessions that play round k, and no others
        rows = np.asarray([bounds[s][0] + k - 1 for s in playing])
        assert np.array_equal(hand, TABLE.hand[rows]) and np.array_equal(shoe, TABLE.shoe[rows])  # round k's place, not its outcome
        if k == 1:
            assert (outcome == NO_BET).all() and (bankroll == CONFIG.bankroll_cents * 10_000).all()
            continue
        assert np.array_equal(outcome, TABLE.outcome[rows - 1])  # round k - 1 at the latest
        ledger_rows = np.asarray([first_row[s] + k - 2 for s in playing])
        assert np.array_equal(bankroll, ledger["bankroll"][ledger_rows])


class Faulty(VectorStrategy):
    """Flat Banker at 10, with one fault at session position 2 in round 3."""

    name = "faulty"
    params = {"fault": "none"}

    def __init__(self, chunk, fault="none"):
        super().__init__(chunk)
        self.fault = fault

    def bets(self, rounds):
        n = rounds.n
        sides, amounts = np.zeros(n, np.int64), np.full(n, 10.0)
        if rounds.round != 3:
            return sides, amounts
        if self.fault == "unoffered":
            sides[2] = 99
        elif self.fault == "fraction":
            amounts[2] = 10.001
        elif self.fault == "negative":
            amounts[2] = -10
        elif self.fault == "below":
            amounts[2] = 5
        elif self.fault == "short":
            return sides[:-1], amounts
        elif self.fault == "text":
            return ["banker"] * n, amounts
        elif self.fault == "ragged":
            return [[0], [0, 1]], amounts
        elif self.fault == "raises":
            raise KeyError("boom")
        return sides, amounts


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        ("unoffered", "bet on side index 99, which the table does not offer (0: banker"),
        ("fraction", "bet an invalid amount on banker: 10.001 is not a whole number of cents"),
        ("negative", "bet a negative amount (-10.0) on banker"),
        ("below", "bet 5.00 on banker, below the table minimum 10.00"),
        ("short", "returned sides of shape (3,), not (4,): one per session still playing"),
        ("text", "returned sides of <U6, not side indices (integers)"),
        ("ragged", "returned (sides, amounts) that are no arrays: raised ValueError"),
        ("raises", "raised KeyError: 'boom'"),
    ],
)
def test_a_bad_return_is_refused_in_one_sentence_naming_the_strategy_and_the_place(fault: str, said: str) -> None:
    config = SessionConfig(30_000, 1_000, 50_000, 1)
    table = seeded_table(RULES, 11, 1, 4)
    with pytest.raises(StrategyError) as caught:
        run_strategy(StrategyRun("bad", Faulty, {"fault": fault}), table, settlement_table(table, RULES), RULES, config, 7)
    message = caught.value.message
    assert message.startswith(f"strategy 'bad' {said}"), message
    assert "\n" not in message
    order = [s for s, _, _ in sorted(sessions_of(table, config), key=lambda b: -(b[2] - b[1]))]  # longest first, stable
    where = order[0] if fault in ("short", "text", "ragged", "raises") else order[2]
    assert message.endswith(f"(session {where}, shoe {where}, hand 3, round 3)"), message


def test_whole_cents_as_floats_and_bets_of_sessions_that_may_not_bet_are_taken_as_they_are() -> None:
    class Cents(VectorStrategy):
        name = "cents"

        def bets(self, rounds):
            return np.zeros(rounds.n, np.int64), np.full(rounds.n, 10.07)

    cols = play(Cents, config=SessionConfig(3_000, 1_000, 50_000, 3))  # 30 units: ruin comes, then no stake
    stakes = cols["stake"]
    assert set(stakes.tolist()) <= {1_007, 0} | set(range(1_000, 1_007)) and (stakes == 1_007).any() and (stakes == 0).any()

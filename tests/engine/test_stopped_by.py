"""Which stop rule ended a session's betting: worked by hand on scripted rounds, and the same on both engines."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from helpers.scripted import play, scripted, stakes

from baccarat.engine.compiled import play_compiled
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.plugin.compose import stop_rule_names, with_stop_rules
from baccarat.plugin.manager import registry
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.table.rules import preset


def stops(use: str, cols) -> list[tuple[int, str]]:
    """(round from 1, stop rule) of every row where a stop rule ended betting."""
    names = stop_rule_names(registry().strategy(use))
    return [(int(cols["round"][row]), names[code - 1]) for row, code in enumerate(cols["stopped_by"].tolist()) if code]


def test_the_built_in_stop_rules_are_numbered_in_their_order() -> None:
    assert stop_rule_names(registry().strategy("flat")) == ("stop_loss", "stop_win", "max_rounds")
    assert stop_rule_names(registry().strategy("ev-counter")) == ("stop_loss", "stop_win", "max_rounds")


def test_stop_win_holds_before_the_round_after_the_goal_is_reached() -> None:
    # Banker wins pay 9.50 on 10: profit 9.50, 19.00, 28.50 before rounds 2, 3, 4; the goal 20 holds before round 4.
    cols = play("flat", "BBBBBB", side="banker", unit=10, stop_win=20)
    assert stops("flat", cols) == [(4, "stop_win")]
    assert stakes(cols) == [10, 10, 10, 0, 0, 0]


def test_stop_loss_holds_once_the_loss_reaches_the_limit() -> None:
    # Martingale on Player loses 10, then 20: lost 10 before round 2 (below 25), 30 before round 3 (25 or more).
    cols = play("martingale", "BBBBBB", side="player", unit=10, stop_loss=25)
    assert stops("martingale", cols) == [(3, "stop_loss")]
    assert stakes(cols) == [10, 20, 0, 0, 0, 0]  # round 3's stake of 40 is never placed


def test_max_rounds_counts_rounds_sat_out() -> None:
    # follow-last sits out rounds 1 and 2 (nothing decided before them, a tie first), bets round 3: max_rounds 3 stops
    # it at round 4.
    cols = play("flat", "TBPBB", side="follow-last", unit=10, max_rounds=3)
    assert stops("flat", cols) == [(4, "max_rounds")]
    assert stakes(cols) == [0, 0, 10, 0, 0]


def test_two_rules_holding_on_the_same_round_report_the_first_in_order() -> None:
    # Before round 3 the session has lost 20 (stop_loss 20 holds) and round 3 is past max_rounds 2: stop_loss is reported.
    cols = play("flat", "BBBB", side="player", unit=10, stop_loss=20, max_rounds=2)
    assert stops("flat", cols) == [(3, "stop_loss")]
    # Profit 19.00 before round 3 (stop_win 19 holds) and round 3 past max_rounds 2: stop_win comes first.
    cols = play("flat", "BBBB", side="banker", unit=10, stop_win=19, max_rounds=2)
    assert stops("flat", cols) == [(3, "stop_win")]
    # Only max_rounds holds: stop_win 20 is not reached (19.00) when round 3 is past 2.
    cols = play("flat", "BBBB", side="banker", unit=10, stop_win=20, max_rounds=2)
    assert stops("flat", cols) == [(3, "max_rounds")]


def test_ruin_or_the_session_running_out_stop_nothing() -> None:
    # Bankroll 20, Player loses twice: 0 left, below the table minimum, before stop_loss 25 could hold.
    cols = play("flat", "BBBB", bankroll=20, side="player", unit=10, stop_loss=25)
    assert stops("flat", cols) == []
    assert stakes(cols) == [10, 10, 0, 0]
    cols = play("flat", "BPBP", side="banker", unit=10, stop_win=100, stop_loss=100, max_rounds=4)
    assert stops("flat", cols) == []
    assert stakes(cols) == [10, 10, 10, 10]


def test_each_session_reports_its_own_stop() -> None:
    # Two sessions of one shoe each: the first stops by stop_win before its round 3, the second by max_rounds.
    cols = play("flat", "BBBB" + "PPPP", shoe_lengths=[4, 4], side="banker", unit=10, stop_win=15, max_rounds=3)
    assert stops("flat", cols) == [(3, "stop_win"), (4, "max_rounds")]
    assert cols["session"][[2, 7]].tolist() == [1, 2]


class AlwaysBanker(Strategy):
    """10 on Banker every round."""

    name = "always-banker"

    def bets(self, view):
        return {"banker": 10}


def test_a_free_form_strategy_under_stop_rules_reports_them() -> None:
    cls = with_stop_rules(AlwaysBanker, registry().stop_rules)
    rules, table = preset("punto-banco-8"), scripted("BBBBBB")
    run = StrategyRun("always", cls, {"stop_win": 15, "max_rounds": 4})
    cols = run_strategy(run, table, settlement_table(table, rules), rules, SessionConfig(100_000, 1_000, 100_000), 1)
    names = stop_rule_names(cls)
    assert [(int(r), names[c - 1]) for r, c in zip(cols["round"], cols["stopped_by"], strict=True) if c] == [(3, "stop_win")]
    assert stakes(cols) == [10, 10, 0, 0, 0, 0]


STOP_PARAMS = ({"stop_loss": 60}, {"stop_win": 40}, {"max_rounds": 30})
CASES = [
    ("martingale", {"side": "banker"}),
    ("paroli", {"side": "follow-last"}),
    ("fibonacci", {"side": "random"}),
    ("dalembert", {"side": "chop"}),
    ("flat", {"side": "player"}),
]


@pytest.mark.parametrize(
    "combination",
    [dict(p) for k in (1, 2, 3) for c in itertools.combinations(STOP_PARAMS, k) for p in [{key: v for d in c for key, v in d.items()}]],
    ids=lambda p: "+".join(p),
)
def test_both_engines_report_the_same_stop_rule_at_the_same_round(combination: dict) -> None:
    rules = preset("punto-banco-8")
    config = SessionConfig(30_000, 1_000, 50_000, 1)
    table = seeded_table_compiled(rules, 11, 1, 40)
    multipliers = settlement_table(table, rules)
    sessions = session_bounds(table, config.shoes_per_session)
    reported: set[str] = set()
    for use, side in CASES:
        cls, params = registry().configure(use, {**side, "unit": 10, **combination})
        run = StrategyRun(f"{use} {combination}", cls, params)
        fast = play_compiled(run, table, multipliers, rules, config, 11, sessions)
        reference = run_strategy(run, table, multipliers, rules, config, 11, sessions)
        assert fast is not None, "the compiled path should cover this strategy"
        assert np.array_equal(fast["stopped_by"], reference["stopped_by"])
        assert np.array_equal(fast["stake"], reference["stake"])
        codes = reference["stopped_by"]
        assert (np.bincount(reference["session"][codes > 0]) <= 1).all()  # at most one stop a session
        names = stop_rule_names(cls)
        reported |= {names[code - 1] for code in codes[codes > 0].tolist()}
    assert reported == set(combination)  # every rule of the combination ended some session (each can fail)

"""The polars summary against a plain-Python reference on random ledgers, and the edge interval's coverage."""

from __future__ import annotations

import math
import statistics
from decimal import Decimal

import numpy as np
import polars as pl
import pytest
from helpers.collected import collected_summary
from helpers.handmade import make_ledger
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccarat.results.statistics import ledger_stats as stats

Z = 1.959963984540054


def reference_summary(sessions: dict, initial: Decimal, table_min: Decimal) -> dict[str, dict]:
    """Summary written out round by round in plain Python, one strategy at a time."""
    out: dict[str, dict] = {}
    strategies = list(dict.fromkeys(s for s, _ in sessions))
    for strategy in strategies:
        per = [rounds for (s, _), rounds in sessions.items() if s == strategy]
        finals, nets, wagers, ruin_rounds, drawdowns, streaks, stakes, expected = [], [], [], [], [], [], [], 0.0
        capped = rounds_bet = 0
        for rounds in per:
            bankroll, peak, drawdown, streak, longest, ruin = initial, initial, Decimal(0), 0, 0, None
            if initial < table_min:
                ruin = 0
            wagered = net = Decimal(0)
            for number, (stake, result, exp, cap) in enumerate(rounds, start=1):
                stake, result = Decimal(str(stake)), Decimal(str(result))
                bankroll += result
                peak = max(peak, bankroll)
                drawdown = max(drawdown, peak - bankroll)
                if ruin is None and bankroll < table_min:
                    ruin = number
                if stake > 0:
                    rounds_bet += 1
                    if result < 0:
                        streak += 1
                        longest = max(longest, streak)
                    elif result > 0:
                        streak = 0
                wagered += stake
                net += result
                stakes.append(stake)
                capped += cap
                expected += exp
            finals.append(bankroll)
            nets.append(net)
            wagers.append(wagered)
            drawdowns.append(drawdown)
            streaks.append(longest)
            if ruin is not None:
                ruin_rounds.append(ruin)
        k = len(per)
        w_total, n_total = sum(wagers), sum(nets)
        edge = float(-n_total / w_total) if w_total else None
        if edge is not None and k >= 2:
            squares = sum((float(-n) - edge * float(w)) ** 2 for n, w in zip(nets, wagers, strict=True))
            se = math.sqrt(k / (k - 1) * squares) / float(w_total)
            ci = (edge - Z * se, edge + Z * se)
        else:
            ci = (None, None)
        out[strategy] = {
            "sessions": k,
            "rounds": rounds_bet,
            "wagered": w_total,
            "net": n_total,
            "final_bankroll_mean": statistics.fmean(float(f) for f in finals),
            "final_bankroll_median": statistics.median(float(f) for f in finals),
            "edge": edge,
            "edge_ci_low": ci[0],
            "edge_ci_high": ci[1],
            "expected_net": expected,
            "expected_edge": -expected / float(w_total) if w_total else None,
            "risk_of_ruin": len(ruin_rounds) / k,
            "rounds_to_ruin_mean": statistics.fmean(ruin_rounds) if ruin_rounds else None,
            "rounds_to_ruin_median": statistics.median(ruin_rounds) if ruin_rounds else None,
            "max_drawdown": max(drawdowns),
            "max_drawdown_mean": statistics.fmean(float(d) for d in drawdowns),
            "longest_losing_streak": max(streaks),
            "max_stake": max(stakes),
            "capped_bets": capped,
            "sessions_in_profit": sum(n > 0 for n in nets) / k,
        }
    return out


AMOUNTS = st.sampled_from(["0", "10", "25.5", "0.05", "100"])


@st.composite
def random_rounds(draw):
    stake = Decimal(draw(AMOUNTS))
    factor = draw(st.sampled_from(["-1", "0", "1", "0.95", "8", "-0.5"]))
    return (stake, stake * Decimal(factor), draw(st.floats(-5, 1, allow_nan=False)), draw(st.integers(0, 2)))


@st.composite
def random_sessions(draw):
    strategies = draw(st.lists(st.sampled_from(["flat", "mart", "x y", "z"]), min_size=1, max_size=3, unique=True))
    count = draw(st.integers(1, 4))
    return {(s, n): draw(st.lists(random_rounds(), min_size=1, max_size=8)) for s in strategies for n in range(1, count + 1)}


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions=random_sessions(), initial=st.sampled_from(["5", "20", "100"]), shuffle=st.integers(0, 1000))
def test_summary_matches_a_plain_python_reference(sessions, initial, shuffle) -> None:
    ledger = make_ledger(sessions, initial).sample(fraction=1.0, shuffle=True, seed=shuffle)
    order = list(dict.fromkeys(s for s, _ in sessions))
    ledger = ledger.sort(pl.col("strategy").replace_strict(order, list(range(len(order)))), maintain_order=True)
    expected = reference_summary(sessions, Decimal(initial), Decimal(10))
    summary = collected_summary(ledger, initial, 10)
    assert summary.get_column("strategy").to_list() == order
    for row in summary.iter_rows(named=True):
        want = expected[row["strategy"]]
        for key, value in want.items():
            got = row[key]
            if value is None or got is None:
                assert got is None and value is None, key
            elif isinstance(value, Decimal):
                assert got == value, key
            else:
                assert got == pytest.approx(value, rel=1e-9, abs=1e-9), key


@pytest.mark.slow
def test_edge_interval_covers_the_true_edge_95_percent_of_the_time() -> None:
    # 1000 independent experiments of 40 sessions. In each session every round stakes the session's
    # unit (10 or 50) on an even-money bet won with probability 0.45, so the true edge is exactly 0.1
    # (E[-net] / E[wagered], whatever the units). Rounds within a session are not alike (the unit is
    # shared), which is why the interval clusters by session.
    rng = np.random.default_rng(20261130)
    reps, k, rounds = 1000, 40, 25
    units = rng.choice([10, 50], size=(reps, k))
    wins = rng.binomial(rounds, 0.45, size=(reps, k))
    nets = units * (2 * wins - rounds)
    n = reps * k
    zero_money = pl.Series([Decimal(0)] * n, dtype=stats.MONEY)
    sessions = pl.DataFrame(
        {
            "strategy": [f"rep{i}" for i in range(reps) for _ in range(k)],
            "session": np.tile(np.arange(1, k + 1), reps),
            "rounds": np.full(n, rounds),
            "wagered": pl.Series((units * rounds).ravel()).cast(stats.MONEY),
            "net": pl.Series(nets.ravel()).cast(stats.MONEY),
            "expected_net": np.zeros(n),
            "final_bankroll": zero_money,
            "ruined": np.zeros(n, dtype=bool),
            "rounds_to_ruin": pl.Series([None] * n, dtype=pl.Int64),
            "max_drawdown": zero_money,
            "longest_losing_streak": np.zeros(n, dtype=np.int64),
            "max_stake": zero_money,
            "capped_bets": np.zeros(n, dtype=np.int64),
        }
    )
    summary = stats.summary_table(sessions)
    covered = summary.select(((pl.col("edge_ci_low") <= 0.1) & (0.1 <= pl.col("edge_ci_high"))).mean()).item()
    # Binomial spread of the coverage over 1000 experiments: sqrt(0.95 * 0.05 / 1000) = 0.0069; allow 4 of them.
    assert abs(covered - 0.95) < 4 * 0.0069, covered

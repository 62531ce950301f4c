"""Every summary statistic pinned on small hand-made ledgers whose answers are worked out by hand."""

from __future__ import annotations

import math
import statistics
from decimal import Decimal

import polars as pl
import pytest
from helpers import ledger_reference
from helpers.collected import collected, collected_sessions, collected_summary
from helpers.handmade import flat_ledger, make_ledger

from baccarat.errors import InputError
from baccarat.results.comparisons import strategies as comparisons
from baccarat.results.statistics import folded, student_t
from baccarat.results.statistics import ledger_stats as stats

Z = 1.959963984540054  # two-sided 95% normal quantile


def summary_row(ledger: pl.DataFrame, strategy: str | None = None, initial: int = 100, table_min: int = 10) -> dict:
    summary = collected_summary(ledger, initial, table_min)
    rows = {r["strategy"]: r for r in summary.iter_rows(named=True)}
    return rows[strategy] if strategy else next(iter(rows.values()))


# Session 1: W L L T L - W -> bankroll 110 100 90 90 80 80 90; session 2: L L W W W W -> 90 80 90 100 110 120.
TWO_SESSIONS = {"s": ["WLLTL-W", "LLWWWW"]}


def test_rounds_count_only_rounds_with_a_bet_and_money_is_exact() -> None:
    row = summary_row(flat_ledger(TWO_SESSIONS))
    assert row["sessions"] == 2
    assert row["rounds"] == 12  # 6 + 6; the sit-out round is not a bet
    assert row["wagered"] == Decimal("120")
    assert row["net"] == Decimal("10")  # -10 + 20


def test_final_bankroll_mean_and_median() -> None:
    row = summary_row(flat_ledger(TWO_SESSIONS))
    assert row["final_bankroll_mean"] == pytest.approx(105)  # (90 + 120) / 2
    assert row["final_bankroll_median"] == pytest.approx(105)
    # Four sessions ending at 90, 100, 130, 200: mean 130, median halfway between 100 and 130.
    ledger = make_ledger({("s", 1): [(10, -10)], ("s", 2): [(10, 0)], ("s", 3): [(30, 30)], ("s", 4): [(100, 100)]})
    row = summary_row(ledger)
    assert row["final_bankroll_mean"] == pytest.approx(130)
    assert row["final_bankroll_median"] == pytest.approx(115)
    assert row["sessions_in_profit"] == pytest.approx(0.5)  # a session that breaks even is not in profit


def test_edge_and_its_session_clustered_interval() -> None:
    # Losses -n per session: 10, -20 on 60 wagered each; edge = -10/120.
    # Residuals -n - edge*w = 10 + 5 = 15 and -20 + 5 = -15; se = sqrt(2/1 * 450) / 120 = 0.25.
    row = summary_row(flat_ledger(TWO_SESSIONS))
    assert row["edge"] == pytest.approx(-10 / 120)
    assert row["edge_ci_low"] == pytest.approx(-10 / 120 - Z * 0.25)
    assert row["edge_ci_high"] == pytest.approx(-10 / 120 + Z * 0.25)


def test_edge_interval_with_unequal_sessions() -> None:
    # (wagered, net) per session: (10, -10), (20, +10), (30, -30): edge = 30 / 60 = 0.5.
    # Residuals -n - 0.5 w: 10 - 5 = 5, -10 - 10 = -20, 30 - 15 = 15; sum of squares 650.
    ledger = make_ledger({("s", 1): [(10, -10)], ("s", 2): [(20, 10)], ("s", 3): [(30, -30)]})
    row = summary_row(ledger)
    se = math.sqrt(3 / 2 * 650) / 60
    assert row["edge"] == pytest.approx(0.5)
    assert (row["edge_ci_low"], row["edge_ci_high"]) == pytest.approx((0.5 - Z * se, 0.5 + Z * se))


def test_edge_interval_needs_two_sessions_and_edge_needs_a_wager() -> None:
    row = summary_row(flat_ledger({"s": ["WLL"]}))
    assert row["edge"] == pytest.approx(10 / 30)
    assert row["edge_ci_low"] is None and row["edge_ci_high"] is None
    idle = summary_row(flat_ledger({"idle": ["---", "--"]}))
    assert idle["rounds"] == 0 and idle["wagered"] == 0
    assert idle["edge"] is None and idle["edge_ci_low"] is None and idle["expected_edge"] is None
    assert idle["longest_losing_streak"] == 0 and idle["max_drawdown"] == 0 and idle["risk_of_ruin"] == 0


def test_expected_net_and_expected_edge() -> None:
    ledger = make_ledger({("s", 1): [(10, 10, -0.10579), (20, -20, -0.21158)], ("s", 2): [(100, 95, -1.0579)]})
    row = summary_row(ledger)
    assert row["expected_net"] == pytest.approx(-1.37527)
    assert row["expected_edge"] == pytest.approx(1.37527 / 130)


def test_expected_columns_are_empty_when_the_ledger_has_no_expected_net() -> None:
    row = summary_row(make_ledger({("s", 1): [(10, 10)]}, expected=False))
    assert row["expected_net"] is None and row["expected_edge"] is None


def test_risk_of_ruin_counts_ruin_at_any_point_and_rounds_to_ruin() -> None:
    ledger = make_ledger(
        {
            ("s", 1): [(95, -95), (0, 0), (5, 5), (10, 10)],  # 5 after round 1 (ruined), ends at 20
            ("s", 2): [(10, -10), (10, 10)],  # never below 10
            ("s", 3): [(50, -50), (50, -45), (0, 0)],  # 5 after round 2
            ("s", 4): [(10, -10)] * 5 + [(50, -45)],  # 50 after round 5, 5 after round 6
        }
    )
    row = summary_row(ledger, initial=100, table_min=10)
    assert row["risk_of_ruin"] == pytest.approx(3 / 4)
    assert row["rounds_to_ruin_mean"] == pytest.approx((1 + 2 + 6) / 3)
    assert row["rounds_to_ruin_median"] == pytest.approx(2)
    sessions = collected_sessions(ledger, 100, 10)
    assert sessions.get_column("ruined").to_list() == [True, False, True, True]
    assert sessions.get_column("rounds_to_ruin").to_list() == [1, None, 2, 6]


def test_a_bankroll_equal_to_the_table_minimum_is_not_ruin() -> None:
    row = summary_row(make_ledger({("s", 1): [(90, -90)]}), initial=100, table_min=10)
    assert row["risk_of_ruin"] == 0 and row["rounds_to_ruin_mean"] is None


def test_a_bankroll_that_starts_below_the_minimum_is_ruined_at_round_zero() -> None:
    row = summary_row(flat_ledger({"s": ["--", "-"]}, initial=5), initial=5, table_min=10)
    assert row["risk_of_ruin"] == 1
    assert row["rounds_to_ruin_mean"] == 0


def test_max_drawdown_counts_the_initial_bankroll_as_a_peak() -> None:
    # Session 1: 100 -> 90 -> 120 -> 95 -> 130: drops of 10 (from the start) and 25 (120 -> 95): 25.
    # Session 2: 100 -> 80 -> 85 -> 100: the only drop is from the initial bankroll: 20.
    ledger = make_ledger({("s", 1): [(10, -10), (30, 30), (25, -25), (35, 35)], ("s", 2): [(20, -20), (5, 5), (15, 15)]})
    row = summary_row(ledger)
    assert row["max_drawdown"] == Decimal("25")
    assert row["max_drawdown_mean"] == pytest.approx(22.5)
    rising = summary_row(make_ledger({("s", 1): [(10, 10), (10, 10)]}))
    assert rising["max_drawdown"] == 0


def test_longest_losing_streak_skips_pushes_and_sit_outs() -> None:
    # L L T L - L W L L: pushes and sit-outs neither extend nor break the streak -> 4.
    row = summary_row(flat_ledger({"s": ["LLTL-LWLL"]}, initial=1000))
    assert row["longest_losing_streak"] == 4


def test_losing_streaks_do_not_cross_sessions() -> None:
    # Session 1 ends with two losses, session 2 starts with three: the longest is 3, not 5.
    row = summary_row(flat_ledger({"s": ["WLWLL", "LLLW"]}))
    assert row["longest_losing_streak"] == 3


def test_a_round_whose_bets_cancel_out_is_a_push() -> None:
    # Two bets of 10 on one round, one won one lost: net 0, a push for the streak.
    ledger = make_ledger({("s", 1): [(10, -10), (20, 0), (10, -10), (10, 10)]})
    assert summary_row(ledger)["longest_losing_streak"] == 2


def test_largest_stake_and_capped_bets() -> None:
    ledger = make_ledger({("s", 1): [(10, -10, -0.1, 1), (640, 640, -6.4, 0)], ("s", 2): [(370, -370, -3.7, 2)]}, initial=1000)
    row = summary_row(ledger, initial=1000)
    assert row["max_stake"] == Decimal("640")
    assert row["capped_bets"] == 3


def test_statistics_do_not_depend_on_row_order() -> None:
    ledger = flat_ledger({"a": ["WLLTL-W", "LLWWWW", "LLLLLLLLLL"], "b": ["WWLLT", "-LWLW", "TTTL"]})
    shuffled = ledger.sample(fraction=1.0, shuffle=True, seed=3)
    ordered = collected_summary(ledger, 100, 10)
    again = collected_summary(shuffled.sort(pl.col("strategy") != "a", maintain_order=True), 100, 10)
    assert ordered.equals(again)


def test_strategies_keep_the_ledger_order() -> None:
    ledger = flat_ledger({"zeta": ["W"], "alpha": ["L"], "mid": ["T"]})
    assert collected_summary(ledger, 100, 10).get_column("strategy").to_list() == ["zeta", "alpha", "mid"]


def test_the_deprecated_session_table_warns_and_is_the_collectors_and_the_references() -> None:
    ledger = flat_ledger({"a": ["WLLTL-W", "LLWWWW", "LLLLLLLLLL"], "b": ["WWLLT", "-LWLW", "TTTL"]})
    with pytest.warns(DeprecationWarning, match="goes in baccarat 0.4"):
        table = stats.session_table(ledger, 100, 10)
    assert table.equals(collected_sessions(ledger, 100, 10))
    assert table.equals(ledger_reference.session_table(ledger, 100, 10))


def test_batches_of_sessions_and_a_parquet_scan_give_the_same_summary(tmp_path) -> None:
    ledger = flat_ledger({"a": ["WLLTL-W", "LLWWWW", "LLLLLLLLLL", "W"], "b": ["WWLLT", "-LWLW", "TTTL", "LLW"]})
    whole = collected_sessions(ledger, 100, 10)
    assert collected_sessions(ledger, 100, 10, batch_rows=1).equals(whole)
    assert collected_sessions(ledger, 100, 10, batch_rows=7).equals(whole)
    ledger.write_parquet(tmp_path / "ledger.parquet", row_group_size=5)
    assert collected_sessions(pl.scan_parquet(tmp_path / "ledger.parquet"), 100, 10, batch_rows=3).equals(whole)


def test_summary_has_every_column_of_the_contract() -> None:
    contract = [
        "strategy",
        "sessions",
        "rounds",
        "wagered",
        "net",
        "final_bankroll_mean",
        "final_bankroll_median",
        "edge",
        "edge_ci_low",
        "edge_ci_high",
        "expected_net",
        "risk_of_ruin",
        "max_drawdown",
        "longest_losing_streak",
        "max_stake",
        "capped_bets",
        "sessions_in_profit",
    ]
    columns = collected_summary(flat_ledger(TWO_SESSIONS), 100, 10).columns
    assert [c for c in columns if c in contract] == contract
    assert "rounds_to_ruin_mean" in columns and "expected_edge" in columns


def test_an_empty_ledger_gives_an_empty_summary() -> None:
    summary = collected_summary(make_ledger({}), 100, 10)
    assert summary.height == 0 and list(summary.columns) == list(stats.SUMMARY_COLUMNS)


# Paired comparison -------------------------------------------------------------------------------------


def paired_ledger() -> pl.DataFrame:
    # Baseline a: nets -10, +10, -20 on stakes 10, 10, 20.
    # b: nets 0, +30, -20 on the same sessions; in session 3 it falls to 5 (ruin) before winning back to 80.
    return make_ledger(
        {
            ("a", 1): [(10, -10)],
            ("a", 2): [(10, 10)],
            ("a", 3): [(20, -20)],
            ("b", 1): [(10, 0)],
            ("b", 2): [(30, 30)],
            ("b", 3): [(95, -95), (95, 75)],
        }
    )


def test_paired_difference_of_net_per_session() -> None:
    row = comparisons.paired_comparison(collected_sessions(paired_ledger(), 100, 10)).row(0, named=True)
    assert (row["strategy"], row["baseline"], row["sessions"]) == ("b", "a", 3)
    assert row["net_diff"] == Decimal("30")  # 10 - (-20)
    # Differences 10, 20, 0: mean 10, sample sd 10, se 10 / sqrt(3).
    assert row["net_diff_mean"] == pytest.approx(10)
    se = 10 / math.sqrt(3)
    assert (row["net_diff_ci_low"], row["net_diff_ci_high"]) == pytest.approx((10 - Z * se, 10 + Z * se))
    assert row["sessions_better"] == pytest.approx(2 / 3)
    assert row["sessions_worse"] == 0


def test_paired_difference_of_risk_of_ruin() -> None:
    row = comparisons.paired_comparison(collected_sessions(paired_ledger(), 100, 10)).row(0, named=True)
    # Ruin differences 0, 0, 1: mean 1/3, sample variance 1/3, se sqrt(1/3)/sqrt(3) = 1/3.
    assert row["risk_of_ruin_diff"] == pytest.approx(1 / 3)
    assert (row["risk_of_ruin_diff_ci_low"], row["risk_of_ruin_diff_ci_high"]) == pytest.approx((1 / 3 - Z / 3, 1 / 3 + Z / 3))


def test_edge_difference_is_the_difference_of_realised_edges() -> None:
    sessions = collected_sessions(paired_ledger(), 100, 10)
    row = comparisons.paired_comparison(sessions).row(0, named=True)
    # a: 20 lost of 40 wagered; b: 10 won of 230 wagered.
    assert row["edge_diff"] == pytest.approx(-10 / 230 - 0.5)


def test_edge_difference_against_a_steady_baseline_has_the_strategys_own_interval() -> None:
    # The baseline loses exactly 10% of its stake in every session, so it adds no variance:
    # the paired interval of the difference is as wide as the strategy's own edge interval.
    ledger = make_ledger(
        {
            ("steady", 1): [(10, -1)],
            ("steady", 2): [(30, -3)],
            ("steady", 3): [(20, -2)],
            ("wild", 1): [(10, -10)],
            ("wild", 2): [(20, 10)],
            ("wild", 3): [(30, -30)],
        }
    )
    sessions = collected_sessions(ledger, 100, 10)
    wild = stats.summary_table(sessions).row(1, named=True)
    row = comparisons.paired_comparison(sessions).row(0, named=True)
    assert row["edge_diff"] == pytest.approx(wild["edge"] - 0.1)
    # The summary's edge interval is normal; the difference the verdict tests takes Student's t (3 pairs: 2 degrees of freedom).
    widened = student_t.quantile(0.975, 2) / stats.Z95
    assert row["edge_diff_ci_high"] - row["edge_diff_ci_low"] == pytest.approx(widened * (wild["edge_ci_high"] - wild["edge_ci_low"]))


def test_a_strategy_against_an_identical_copy_differs_by_exactly_nothing() -> None:
    one = flat_ledger({"x": ["WLLTL-W", "LLWWWW", "LWL"]})
    ledger = pl.concat([one, one.with_columns(pl.lit("copy").alias("strategy"))])
    row = comparisons.paired_comparison(collected_sessions(ledger, 100, 10)).row(0, named=True)
    assert row["net_diff"] == 0
    for key in (
        "net_diff_mean",
        "net_diff_ci_low",
        "net_diff_ci_high",
        "edge_diff",
        "edge_diff_ci_low",
        "edge_diff_ci_high",
        "risk_of_ruin_diff",
        "sessions_better",
        "sessions_worse",
    ):
        assert row[key] == pytest.approx(0), key


def test_baseline_can_be_chosen_and_an_unknown_one_is_named() -> None:
    sessions = collected_sessions(paired_ledger(), 100, 10)
    row = comparisons.paired_comparison(sessions, baseline="b").row(0, named=True)
    assert (row["strategy"], row["baseline"]) == ("a", "b")
    assert row["net_diff"] == Decimal("-30")
    with pytest.raises(InputError, match="did you mean 'b'"):
        comparisons.paired_comparison(sessions, baseline="bb")


def test_a_single_strategy_has_nothing_to_compare() -> None:
    comparison = comparisons.paired_comparison(collected_sessions(flat_ledger(TWO_SESSIONS), 100, 10))
    assert comparison.height == 0 and list(comparison.columns) == list(comparisons.COMPARISON_COLUMNS)


# Aggregates for the plots ------------------------------------------------------------------------------


def test_bankroll_bands_keep_the_final_bankroll_of_sessions_that_ended() -> None:
    # Bankrolls after each round: session 1: 110 120 (ends), session 2: 90 80 70, session 3: 100 110 120.
    ledger = make_ledger({("s", 1): [(10, 10), (10, 10)], ("s", 2): [(10, -10)] * 3, ("s", 3): [(10, 0), (10, 10), (10, 10)]})
    bands = collected(ledger, 100, 10).bands
    assert bands.get_column("round").to_list() == [0, 1, 2, 3]
    assert bands.get_column("p50").to_list() == pytest.approx([100, 100, 110, 120])  # round 3: 120 (kept), 70, 120
    assert bands.get_column("p25").to_list() == pytest.approx([100, 95, 95, 95])  # linear between sorted values
    assert bands.row(0, named=True) == {"strategy": "s", "round": 0, **dict.fromkeys(["p5", "p25", "p50", "p75", "p95", "mean"], 100.0)}
    assert bands.get_column("mean").to_list() == pytest.approx([100, 100, 310 / 3, 310 / 3])  # 120 80 110, then 120 70 120


def test_bankroll_bands_sample_long_sessions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(folded, "CURVE_POINTS", 50)
    ledger = flat_ledger({"s": ["WL" * 300, "LW" * 300]}, initial=1000)
    bands = collected(ledger, 1000, 10).bands
    rounds = bands.get_column("round").to_list()
    assert rounds[0] == 0 and rounds[1] == 1 and rounds[-1] == 600 and len(rounds) == 51
    # After an even round both sessions are back at 1000; after an odd one they are at 1010 and 990.
    for r, p50, p5 in zip(rounds, bands.get_column("p50"), bands.get_column("p5"), strict=True):
        assert p50 == pytest.approx(1000)
        assert p5 == pytest.approx(1000 if r % 2 == 0 else 991)


def test_ruin_curve_is_the_share_ruined_by_each_round() -> None:
    ledger = make_ledger(
        {
            ("s", 1): [(95, -95), (0, 0), (0, 0)],
            ("s", 2): [(10, 10), (10, 10), (10, 10)],
            ("s", 3): [(50, -50), (50, -45), (0, 0)],
            ("s", 4): [(10, -10), (10, 10), (10, -10)],
        }
    )
    curve = collected(ledger, 100, 10).ruin
    assert curve.get_column("round").to_list() == [0, 1, 2, 3]
    assert curve.get_column("ruined").to_list() == pytest.approx([0, 0.25, 0.5, 0.5])


def test_sample_paths_start_at_the_initial_bankroll() -> None:
    ledger = flat_ledger({"a": ["WL", "LL", "W"], "b": ["TT", "WW", "L"]})
    paths = collected(ledger, 100, 10).paths
    assert set(paths.get_column("session")) == {1, 2, 3}
    a1 = paths.filter((pl.col("strategy") == "a") & (pl.col("session") == 1))
    assert a1.get_column("round").to_list() == [0, 1, 2]
    assert a1.get_column("bankroll").to_list() == [100, 110, 100]


def test_by_strategy_gives_the_rows_of_a_group_by_in_first_appearance_order() -> None:
    frame = pl.DataFrame({"strategy": ["b", "a", "b", "c", "a", "b"], "x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "n": [1, 1, 2, 2, 3, 3]})
    aggregations = [
        pl.col("x").sum(),
        pl.col("x").std(ddof=1).alias("sd"),
        (pl.col("n") > 1).mean().alias("share"),
        pl.len().cast(pl.Int64).alias("rows"),
    ]
    got = stats.by_strategy(frame, aggregations)
    expected = frame.group_by("strategy", maintain_order=True).agg(aggregations)
    assert got.get_column("strategy").to_list() == ["b", "a", "c"]
    assert got.schema == expected.schema
    assert got.drop("sd").equals(expected.drop("sd"))
    assert got.get_column("sd").to_list()[:2] == pytest.approx([statistics.stdev([1.0, 3.0, 6.0]), statistics.stdev([2.0, 5.0])])
    assert got.get_column("sd")[2] is None


def test_by_strategy_takes_only_the_strategies_asked_in_their_order() -> None:
    frame = pl.DataFrame({"strategy": ["b", "a", "b", "c", "a"], "x": [1.0, 2.0, 3.0, 4.0, 5.0]})
    got = stats.by_strategy(frame, [pl.col("x").sum()], strategies=["c", "b"])
    assert got.rows() == [("c", 4.0), ("b", 4.0)]
    none = stats.by_strategy(frame, [pl.col("x").sum()], strategies=[])
    assert none.height == 0 and none.columns == ["strategy", "x"]


def test_strategy_rows_are_each_strategys_rows_of_the_columns_asked() -> None:
    frame = pl.concat(
        [
            pl.DataFrame({"strategy": ["b", "a", "b"], "x": [1, 2, 3], "y": ["p", "q", "r"]}),
            pl.DataFrame({"strategy": ["c", "a", "b"], "x": [4, 5, 6], "y": ["s", "t", "u"]}),
        ],
        rechunk=False,
    )
    got = list(stats.strategy_rows(frame, "x"))
    assert [name for name, _ in got] == ["b", "a", "c"]
    assert [part.columns for _, part in got] == [["x"]] * 3
    assert [part.get_column("x").to_list() for _, part in got] == [[1, 3, 6], [2, 5], [4]]
    assert list(stats.strategy_rows(frame.clear(), "x")) == []


def test_by_strategy_of_no_rows_has_the_columns_and_no_row() -> None:
    frame = pl.DataFrame(schema={"strategy": pl.String, "x": pl.Float64})
    got = stats.by_strategy(frame, [pl.col("x").sum()])
    assert got.height == 0 and got.columns == ["strategy", "x"]


@pytest.mark.parametrize(
    ("ruined", "sessions", "low", "high"),
    [
        # Published Wilson score intervals at 95% (Newcombe 1998, Table I; Wikipedia's "Binomial proportion
        # confidence interval"): 0/10, 5/10, 81/263 and 10/10.
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (81, 263, 0.2553, 0.3662),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_risk_of_ruin_and_profit_shares_have_wilson_intervals(ruined: int, sessions: int, low: float, high: float) -> None:
    table = pl.DataFrame(
        {"strategy": ["s"] * sessions, "session": list(range(1, sessions + 1)), "ruined": [i < ruined for i in range(sessions)]}
    )
    got_low, got_high = stats.wilson_interval(pl.col("ruined").sum(), pl.len())
    row = table.select(got_low.alias("low"), got_high.alias("high")).row(0)
    assert row == pytest.approx((low, high), abs=5e-5)
    if ruined == 0:
        assert row[0] == 0.0  # exactly, not 1e-19: printed as 0
    if ruined == sessions:
        assert row[1] == 1.0


def test_summary_holds_the_wilson_intervals_of_its_shares() -> None:
    ledger = flat_ledger({"a": ["WW", "LLLLLLLLLLLL", "LW", "WL", "W"]})
    summary = collected_summary(ledger, 100, 10)
    row = summary.row(0, named=True)
    assert row["risk_of_ruin"] == pytest.approx(0.2) and row["sessions_in_profit"] == pytest.approx(0.4)
    z = stats.Z95
    for share, prefix in ((0.2, "risk_of_ruin"), (0.4, "sessions_in_profit")):
        n = 5
        centre = (share + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
        assert (row[f"{prefix}_ci_low"], row[f"{prefix}_ci_high"]) == pytest.approx((centre - half, centre + half))
    assert list(summary.columns) == list(stats.SUMMARY_COLUMNS)

"""Exact aggregates of sessions (results.statistics.tallies) against plain arithmetic, numpy and polars."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from baccarat.results.comparisons import strategies as comparisons
from baccarat.results.statistics import ledger_stats as stats
from baccarat.results.statistics import student_t, tallies


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.integers(-(2**62), 2**62)] * 3), min_size=0, max_size=30))
def test_exact_gram_is_the_sums_of_products_in_integers(rows: list[tuple[int, int, int]]) -> None:
    x = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
    gram = tallies.exact_gram(x)
    for a in range(3):
        for b in range(3):
            assert gram[a, b] == sum(int(r[a]) * int(r[b]) for r in rows)
    assert all(tallies.exact_sum(x[:, j]) == sum(int(r[j]) for r in rows) for j in range(3))


def test_exact_gram_of_many_rows_adds_blocks_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tallies, "BLOCK_ROWS", 1000)
    x = np.random.default_rng(3).integers(-(10**15), 10**15, size=(4321, 2))
    exact = [[sum(int(p) * int(q) for p, q in zip(x[:, a], x[:, b], strict=True)) for b in range(2)] for a in range(2)]
    assert tallies.exact_gram(x).tolist() == exact


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e150, max_value=1e150)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(finite | st.sampled_from([5e-324, -2.2e-308, 0.1, 1e16, -1e16]), max_size=40), st.integers(1, 7))
def test_float_sums_are_exact_and_rounded_once_in_any_pieces(values: list[float], pieces: int) -> None:
    whole, parts = tallies.FloatSum(), tallies.FloatSum()
    whole.add(np.asarray(values))
    for part in np.array_split(np.asarray(values, dtype=np.float64), pieces):
        parts.add(part)
    exact = sum((Fraction(v) for v in values), Fraction(0))
    assert whole.value() == parts.value() == float(exact)
    squared = [v for v in values if v == 0 or 1e-140 < abs(v) < 1e140]  # squares neither underflow nor overflow
    squares = tallies.FloatSum()
    squares.add_squares(np.asarray(squared, dtype=np.float64))
    assert squares.scaled == sum((Fraction(v) ** 2 for v in squared), Fraction(0)) * 2**tallies.FLOAT_OFFSET
    assert squares.count == len(squared) and whole.count == len(values)


def test_a_nan_makes_a_float_sum_nan_and_infinities_add_as_floats() -> None:
    total = tallies.FloatSum()
    total.add(np.array([1.0, np.inf]))
    assert total.value() == np.inf
    total.add(np.array([np.nan]))
    assert np.isnan(total.value())


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-(10**9), 10**9) | st.sampled_from([0, 250_000_000, 990_500_000]), min_size=1, max_size=60),
    st.lists(st.integers(0, 100), min_size=1, max_size=7),
    st.integers(1, 5),
)
def test_histograms_give_numpys_percentiles_and_polars_median_bit_for_bit(values: list[int], percentiles: list[int], pieces: int) -> None:
    counts = tallies.Counts()
    for part in np.array_split(np.asarray(values, dtype=np.int64), pieces):
        counts.add(part)
    floats = np.asarray(values, dtype=np.int64) / 1e6
    got = tallies.percentiles_of_counts(tallies.money_floats(counts.values), counts.counts, percentiles)
    assert np.array_equal(got.view(np.int64), np.percentile(floats, percentiles).view(np.int64))
    assert tallies.median_of(counts, tallies.money_floats(counts.values)) == pl.Series(floats).median()
    assert counts.ranked(np.arange(len(values))).tolist() == sorted(values)


def test_a_histogram_counts_the_same_whenever_it_merges_what_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    values = np.random.default_rng(2).integers(-50, 50, size=997)
    eager, lazy = tallies.Counts(), tallies.Counts()
    monkeypatch.setattr(tallies, "PENDING_VALUES", 2)  # merged at almost every add
    for part in np.array_split(values, 37):
        eager.add(part)
        lazy._pending.append(part.copy())  # merged only when read
    found, counts = np.unique(values, return_counts=True)
    for histogram in (eager, lazy):
        assert histogram.values.tolist() == found.tolist() and histogram.counts.tolist() == counts.tolist()


def random_sessions(rng: np.random.Generator, strategies: int, n: int, expected: bool = True) -> pl.DataFrame:
    """A session table of ``n`` sessions per strategy with awkward amounts (not binary fractions), some ruined."""
    frames = []
    for k in range(strategies):
        ruin = rng.integers(1, 60, size=n)
        ruined = rng.random(n) < 0.02
        needed = rng.integers(10, 2_000, size=n) * 10_000 + rng.integers(0, 3, size=n) * 3
        money = lambda micros: pl.Series(micros).cast(stats.MONEY) / 10**6  # noqa: E731
        frames.append(
            pl.DataFrame(
                {
                    "strategy": [f"s{k}"] * n,
                    "session": np.arange(1, n + 1),
                    "rounds_dealt": rng.integers(1, 90, size=n),
                    "rounds": rng.integers(0, 90, size=n),
                    "wagered": money(rng.integers(0, 9_000, size=n) * 10_000 + 3),
                    "net": money(rng.integers(-5_000, 5_000, size=n) * 9_500 + 1),
                    "expected_net": rng.normal(-1.1, 0.3, size=n) if expected else pl.Series([None] * n, dtype=pl.Float64),
                    "final_bankroll": money(rng.integers(0, 400, size=n) * 5_000_000 + 70_000),
                    "peak": money(np.full(n, 1_000_000_000)),
                    "ruined": ruined,
                    "rounds_to_ruin": pl.Series(np.where(ruined, ruin, 0)).set(pl.Series(~ruined), None),
                    "max_drawdown": money(rng.integers(0, 10_000, size=n) * 10_001),
                    "longest_losing_streak": rng.integers(0, 15, size=n),
                    "max_stake": money(rng.integers(1, 100, size=n) * 10_000_000),
                    "capped_bets": rng.integers(0, 3, size=n),
                    "stopped_by": pl.Series([None] * n, dtype=pl.String),
                    "bankroll_needed": money(needed).set(pl.Series(ruined | (rng.random(n) < 0.01)), None),
                }
            )
        )
    return pl.concat(frames).select(stats.SESSION_COLUMNS)


@pytest.mark.parametrize("expected", [True, False])
def test_tallies_added_in_odd_pieces_give_the_summary_and_comparison_of_the_whole_table(expected: bool) -> None:
    rng = np.random.default_rng(11)
    sessions = random_sessions(rng, 3, 1_001, expected)
    labels = ["s0", "s1", "s2"]
    tallied = [tallies.SessionTally() for _ in labels]
    pairs = [tallies.PairTally() for _ in labels[1:]]
    arrays = [stats.session_values(sessions.filter(pl.col("strategy") == label)) for label in labels]
    for start, stop in zip([0, 1, 8, 21, 500, 997], [1, 8, 21, 500, 997, 1_001], strict=True):  # odd chunk sizes
        chunk = [(values[start:stop], None if e is None else e[start:stop]) for values, e in arrays]
        for k, (values, e) in enumerate(chunk):
            tallied[k].add(values, e)
            if k:
                pairs[k - 1].add(values, e, *chunk[0])
    assert_frame_equal(stats.summary_of_tallies(list(zip(labels, tallied, strict=True))), stats.summary_table(sessions))
    folded = comparisons.comparison_of_tallies("s0", list(zip(labels[1:], pairs, strict=True)))
    assert_frame_equal(folded, comparisons.paired_comparison(sessions))


def test_the_summary_from_exact_aggregates_is_the_float_definition_to_rounding() -> None:
    """Each figure against its plain polars expression: equal where both are exact, within a few ulps where floats add up."""
    sessions = random_sessions(np.random.default_rng(5), 2, 2_000)
    summary = stats.summary_table(sessions)
    wagered, net = stats.as_float("wagered"), stats.as_float("net")
    plain = sessions.group_by("strategy", maintain_order=True).agg(
        pl.len().cast(pl.Int64).alias("sessions"),
        pl.col("wagered", "net").sum(),
        stats.as_float("final_bankroll").mean().alias("final_bankroll_mean"),
        stats.as_float("final_bankroll").median().alias("final_bankroll_median"),
        (-net.sum() / wagered.sum()).alias("edge"),
        stats.ratio_se(-net, wagered).alias("se"),
        pl.col("expected_net").sum(),
        pl.col("ruined").mean().alias("risk_of_ruin"),
        stats.as_float("rounds_to_ruin").filter(pl.col("ruined")).median().alias("rounds_to_ruin_median"),
        stats.as_float("max_drawdown").mean().alias("max_drawdown_mean"),
        *(expr for p in stats.RUIN_TARGETS for expr in stats.bankroll_for_ruin(p)),
    )
    exact = ["sessions", "wagered", "net", "final_bankroll_median", "risk_of_ruin", "rounds_to_ruin_median"]
    exact += [c for c in plain.columns if c.startswith("bankroll_for_ruin")]
    assert_frame_equal(summary.select("strategy", *exact), plain.select("strategy", *exact))
    for column in ("final_bankroll_mean", "edge", "expected_net", "max_drawdown_mean"):
        assert np.allclose(summary[column].to_numpy(), plain[column].to_numpy(), rtol=1e-14, atol=0), column
    se = (summary["edge_ci_high"] - summary["edge_ci_low"]) / (2 * stats.Z95)
    assert np.allclose(se.to_numpy(), plain["se"].to_numpy(), rtol=1e-9, atol=0)
    assert summary["bankroll_for_ruin_5pct"].null_count() < summary.height  # the ranks fell on known figures too


def test_the_paired_comparison_from_exact_aggregates_is_the_float_definition_to_rounding() -> None:
    sessions = random_sessions(np.random.default_rng(8), 2, 3_000)
    row = comparisons.paired_comparison(sessions).row(0, named=True)
    a, b = (sessions.filter(pl.col("strategy") == s) for s in ("s1", "s0"))
    diff = a["net"].cast(pl.Float64) - b["net"].cast(pl.Float64)
    luck = (diff - a["expected_net"]) + b["expected_net"]
    ruin = a["ruined"].cast(pl.Float64) - b["ruined"].cast(pl.Float64)
    k = len(diff)
    assert row["net_diff"] == a["net"].sum() - b["net"].sum()
    assert row["sessions_better"] == (a["net"] > b["net"]).sum() / k
    for name, values in (("net_diff", diff), ("luck_diff", luck), ("risk_of_ruin_diff", ruin)):
        mean = row[name if name == "risk_of_ruin_diff" else f"{name}_mean"]
        low = row[f"{name}_ci_low"]
        assert mean == pytest.approx(values.mean(), rel=1e-13)
        assert (mean - low) / stats.Z95 == pytest.approx(values.std() / k**0.5, rel=1e-9)
    assert isinstance(row["net_diff"], Decimal)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(finite, finite), max_size=30), st.integers(1, 5))
def test_float_products_are_exact_in_any_pieces(pairs: list[tuple[float, float]], pieces: int) -> None:
    kept = [(a, b) for a, b in pairs if all(v == 0 or 1e-70 < abs(v) < 1e70 for v in (a, b))]  # products neither under- nor overflow
    left, right = (np.asarray([p[j] for p in kept], dtype=np.float64) for j in (0, 1))
    total = tallies.FloatSum()
    for a, b in zip(np.array_split(left, pieces), np.array_split(right, pieces), strict=True):
        total.add_products(a, b)
    assert total.exact() == sum((Fraction(a) * Fraction(b) for a, b in kept), Fraction(0))
    assert total.count == len(kept)


def test_the_expected_edges_standard_errors_are_the_delta_method_of_their_definition() -> None:
    """The summary's and the comparison's intervals of expected edges against the plain float formulas."""
    sessions = random_sessions(np.random.default_rng(21), 2, 2_500)
    a, b = (sessions.filter(pl.col("strategy") == s) for s in ("s1", "s0"))
    e, w = a["expected_net"].to_numpy(), a["wagered"].cast(pl.Float64).to_numpy()
    eb, wb = b["expected_net"].to_numpy(), b["wagered"].cast(pl.Float64).to_numpy()
    k = len(e)
    ra, rb = e.sum() / w.sum(), eb.sum() / wb.sum()
    influence = -(e - ra * w) / w.sum() + (eb - rb * wb) / wb.sum()
    paired_se = np.sqrt(k / (k - 1) * (influence**2).sum())
    row = comparisons.paired_comparison(sessions).row(0, named=True)
    assert row["expected_edge_diff"] == pytest.approx(-ra + rb, rel=1e-12)
    # The verdict's differences take Student's t: k - 1 degrees of freedom paired, Welch-Satterthwaite's unpaired.
    paired_t = student_t.quantile(0.975, k - 1)
    assert (row["expected_edge_diff_ci_high"] - row["expected_edge_diff"]) / paired_t == pytest.approx(paired_se, rel=1e-9)
    summary = stats.summary_table(sessions).row(1, named=True)
    single_se = np.sqrt(k / (k - 1) * ((e - ra * w) ** 2).sum()) / w.sum()
    assert (summary["expected_edge_ci_high"] - summary["expected_edge"]) / stats.Z95 == pytest.approx(single_se, rel=1e-9)
    unpaired = comparisons.unpaired_comparison(sessions).row(0, named=True)
    base_se = np.sqrt(k / (k - 1) * ((eb - rb * wb) ** 2).sum()) / wb.sum()
    both = np.sqrt(single_se**2 + base_se**2)

    def df(u: np.ndarray) -> float:  # k - 1, fewer for tails heavier than normal (excess kurtosis of the influences)
        return 2 / (2 / (k - 1) + max(k * (u**4).sum() / (u**2).sum() ** 2 - 3, 0) / k)

    welch = (single_se**2 + base_se**2) ** 2 / (single_se**4 / df(e - ra * w) + base_se**4 / df(eb - rb * wb))
    unpaired_t = student_t.quantile(0.975, welch)
    assert (unpaired["expected_edge_diff_ci_high"] - unpaired["expected_edge_diff"]) / unpaired_t == pytest.approx(both, rel=1e-9)

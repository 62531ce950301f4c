"""Each strategy against a baseline: paired session by session when they met the same rounds, else as independent samples.

Both reduce the session table (:func:`baccarat.results.statistics.folded.fold_sessions`); definitions are in docs/results.md.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from baccarat.errors import InputError, did_you_mean
from baccarat.money import MICROS_PER_UNIT as MICROS
from baccarat.results.comparisons.verdict import TESTED_DF, FixedBets, with_verdicts
from baccarat.results.ledger import MONEY
from baccarat.results.statistics import student_t
from baccarat.results.statistics.ledger_stats import (
    TALLIED_COLUMNS,
    Z95,
    as_float,
    by_strategy,
    decimal,
    ratio_se,
    session_values,
    strategies_of,
    units,
)
from baccarat.results.statistics.tallies import FLOAT_OFFSET, FloatSum, PairTally, expected_edge_diff_se, pair_rows

COMPARISON_COLUMNS = (
    "strategy",
    "baseline",
    "sessions",
    "net_diff",
    "net_diff_mean",
    "net_diff_ci_low",
    "net_diff_ci_high",
    "edge_diff",
    "edge_diff_ci_low",
    "edge_diff_ci_high",
    "risk_of_ruin_diff",
    "risk_of_ruin_diff_ci_low",
    "risk_of_ruin_diff_ci_high",
    "sessions_better",
    "sessions_worse",
    "wagered_diff_mean",
    "expected_edge_diff",
    "expected_edge_diff_ci_low",
    "expected_edge_diff_ci_high",
    "expected_net_diff_mean",
    "luck_diff_mean",
    "luck_diff_ci_low",
    "luck_diff_ci_high",
    "edge_diff_p_value",
    "verdict_basis",
    "verdict_p_value",
    "verdict_p_holm",
    "verdict",
)
"""Columns of ``comparison.csv``, in order."""


def paired_comparison(sessions: pl.DataFrame | pl.LazyFrame, baseline: str | None = None, fixed: FixedBets | None = None) -> pl.DataFrame:
    """Compare every strategy with ``baseline`` (default: the first) session by session.

    Strategies ran on the very same rounds, so each session gives a pair.
    Per strategy: ``net_diff`` (total net minus the baseline's, exact),
    ``net_diff_mean`` per session with a paired 95% interval, the difference
    of realised edges ``edge_diff`` with a paired delta-method interval, the
    difference of ruin shares with a paired interval, and the shares of
    sessions that ended better or worse than the baseline's. Every figure is
    made from exact aggregates of the pairs (:class:`~baccarat.results.statistics.tallies.PairTally`),
    one strategy's rows read at a time; a run folds the same aggregates as
    its chunks arrive. The difference of expected edges has its paired
    interval too; ``fixed`` (the strategies that back one fixed bet) decides
    which rows' expected edges are exact (:func:`baccarat.results.comparisons.verdict.with_verdicts`).
    """
    order = strategies_of(sessions)
    baseline = chosen_baseline(order, baseline)
    lazy = sessions.lazy()

    def rows(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        part = lazy.filter(pl.col("strategy") == name).select("session", *TALLIED_COLUMNS).collect(engine="streaming")
        return (part.get_column("session").to_numpy(), *session_values(part))

    base_session, base_values, base_expected = rows(baseline)
    tallies = []
    for name in order:
        if name == baseline:
            continue
        session, values, expected = rows(name)
        mine, theirs = pair_rows(session, base_session)
        tally = PairTally()
        tally.add(
            values[mine],
            None if expected is None else expected[mine],
            base_values[theirs],
            None if base_expected is None else base_expected[theirs],
        )
        tallies.append((name, tally))
    return comparison_of_tallies(baseline, tallies, fixed)


def chosen_baseline(order: list[str], baseline: str | None) -> str:
    """Return the baseline of a comparison: ``baseline``, or the first strategy; a label not among ``order`` is refused."""
    if baseline is None:
        baseline = order[0] if order else ""
    if baseline not in order:
        raise InputError(f"no strategy is labelled {baseline!r}{did_you_mean(baseline, order)}; the strategies are {', '.join(order)}")
    return baseline


def _spread(k: int, total: int, squares: int, scale: int) -> float | None:
    """The sample standard deviation (ddof=1) of ``k`` values from their exact sum and sum of squares (over ``scale``²)."""
    if k < 2:
        return None
    return math.sqrt((k * squares - total * total) / (k * (k - 1) * scale * scale))


def _edge_diff_se(t: PairTally) -> float | None:
    """The paired delta-method standard error of the difference of edges, its sum of squared influences exact."""
    n, w, bn, bw = (int(v) for v in t.sums)
    if t.pairs < 2 or w <= 0 or bw <= 0:
        return None
    # Each pair's influence times (w·bw)²: (net·w - n·wagered)·bw² - (b_net·bw - bn·b_wagered)·w².
    c = [w * bw * bw, -n * bw * bw, -bw * w * w, bn * w * w]
    squares = sum(c[a] * c[b] * int(t.gram[a, b]) for a in range(4) for b in range(4))
    k = float(t.pairs)
    return math.sqrt(k / (k - 1) * (squares / (w * bw) ** 4))


def _pair_row(label: str, baseline: str, t: PairTally) -> dict[str, object]:
    """The comparison row of a strategy's pairs with the baseline (see :func:`paired_comparison`)."""
    k = t.pairs
    n, w, bn, bw = (int(v) for v in t.sums)
    g = [[int(v) for v in row] for row in t.gram]
    diff_sum, diff_squares = n - bn, g[0][0] - 2 * g[0][2] + g[2][2]
    ruin_sum, ruin_squares = t.ruined - t.base_ruined, t.ruined + t.base_ruined - 2 * t.both_ruined
    mean = (lambda total: total / k) if k else (lambda total: None)
    diff_mean = mean(units(diff_sum))
    diff_sd = _spread(k, diff_sum, diff_squares, MICROS)
    ruin_mean = mean(float(ruin_sum))
    ruin_sd = _spread(k, ruin_sum, ruin_squares, 1)
    edge_diff = (-units(n) / units(w) + units(bn) / units(bw)) if w > 0 and bw > 0 else None
    edge_se = _edge_diff_se(t)
    known = t.expected_known and k > 0
    expected_edge = None
    if known and w > 0 and bw > 0:
        expected_edge = -t.expected.value() / units(w) - -t.base_expected.value() / units(bw)
    expected_se = expected_edge_diff_se(t) if expected_edge is not None else None
    luck_mean = t.luck.value() / k if known else None
    luck_sd = _float_spread(k, t.luck, t.luck_squares) if known else None

    def interval(centre: float | None, sd: float | None) -> tuple[float | None, float | None]:
        if centre is None or sd is None:
            return None, None
        se = sd / math.sqrt(k)
        return centre - Z95 * se, centre + Z95 * se

    # The differences of edges the verdict tests: Student's t with k - 1 degrees of freedom (their standard
    # errors are estimated from the same k pairs; the normal quantile's tails are too thin).
    t95 = student_t.quantile(0.975, k - 1) if k >= 2 else math.nan

    row: dict[str, object] = {"strategy": label, "baseline": baseline, "sessions": k, "net_diff": decimal(diff_sum)}
    row["net_diff_mean"] = diff_mean
    row["net_diff_ci_low"], row["net_diff_ci_high"] = interval(diff_mean, diff_sd)
    row["edge_diff"] = edge_diff
    row["edge_diff_ci_low"], row["edge_diff_ci_high"] = (
        (edge_diff - t95 * edge_se, edge_diff + t95 * edge_se) if edge_diff is not None and edge_se is not None else (None, None)
    )
    row["risk_of_ruin_diff"] = ruin_mean
    row["risk_of_ruin_diff_ci_low"], row["risk_of_ruin_diff_ci_high"] = interval(ruin_mean, ruin_sd)
    row["sessions_better"], row["sessions_worse"] = mean(float(t.better)), mean(float(t.worse))
    row["wagered_diff_mean"] = mean(units(w - bw))
    row["expected_edge_diff"] = expected_edge
    row["expected_edge_diff_ci_low"], row["expected_edge_diff_ci_high"] = (
        (expected_edge - t95 * expected_se, expected_edge + t95 * expected_se) if expected_se is not None else (None, None)
    )
    row["expected_net_diff_mean"] = t.expected_diff.value() / k if known else None
    row["luck_diff_mean"] = luck_mean
    row["luck_diff_ci_low"], row["luck_diff_ci_high"] = interval(luck_mean, luck_sd)
    row |= dict.fromkeys(TESTED_DF, float(k - 1) if k >= 2 else None)
    return row


def _float_spread(k: int, total: FloatSum, squares: FloatSum) -> float | None:
    """The sample standard deviation (ddof=1) of ``k`` floats from their exact sum and exact sum of squares."""
    if k < 2:
        return None
    if total.special != 0 or total.special != total.special or squares.special != 0 or squares.special != squares.special:
        return math.nan
    s1, s2, scale = total.scaled, squares.scaled, 1 << FLOAT_OFFSET
    return math.sqrt((k * s2 * scale - s1 * s1) / (k * (k - 1) * scale * scale))


def comparison_of_tallies(baseline: str, tallies: list[tuple[str, PairTally]], fixed: FixedBets | None = None) -> pl.DataFrame:
    """Return :func:`paired_comparison` from each strategy's exact aggregates of its pairs with ``baseline``."""
    schema = {"strategy": pl.String, "baseline": pl.String, "sessions": pl.Int64, "net_diff": MONEY}
    schema |= {c: pl.Float64 for c in COMPARISON_COLUMNS[4 : COMPARISON_COLUMNS.index("edge_diff_p_value")]}
    schema |= dict.fromkeys(TESTED_DF, pl.Float64)
    out = pl.DataFrame([_pair_row(label, baseline, t) for label, t in tallies], schema=schema, orient="row")
    return with_verdicts(out, fixed).select(COMPARISON_COLUMNS)


def _expected_edge(expected: pl.Expr, wagered: pl.Expr) -> pl.Expr:
    """Expected edge of the bets placed, ``-sum(expected_net) / sum(wagered)``: NaN when one bet's is not known, null without bets."""
    known = (wagered.sum() > 0) & expected.is_not_null().all()
    return pl.when(known).then(-expected.sum() / wagered.sum()).alias("expected_edge_diff")


def unpaired_comparison(sessions: pl.DataFrame, baseline: str | None = None, fixed: FixedBets | None = None) -> pl.DataFrame:
    """Compare every strategy with ``baseline`` (default: the first) as independent samples.

    For strategies that did not play the same rounds (runs with other shoes,
    seeds or rules), so that sessions do not pair: the columns of
    :func:`paired_comparison`, with Welch's interval for the difference of
    mean net per session (``sqrt(s_a²/n_a + s_b²/n_b)``), the two edges'
    delta-method standard errors combined (``sqrt(se_a² + se_b²)``) and the
    normal interval of a difference of two shares for the risk of ruin,
    the two expected edges' standard errors combined likewise;
    ``sessions_better`` and ``sessions_worse`` are null (nothing pairs). The
    two differences of edges the verdict tests take Student's t quantile
    with Welch-Satterthwaite's degrees of freedom, each sample's from
    :func:`ratio_df` (fewer for heavy-tailed sessions).
    """
    order = strategies_of(sessions)
    baseline = chosen_baseline(order, baseline)
    wagered, net = as_float("wagered"), as_float("net")
    edge = pl.when(wagered.sum() > 0).then(-net.sum() / wagered.sum())
    k = pl.len().cast(pl.Float64)
    parts = by_strategy(
        sessions,
        [
            pl.len().cast(pl.Int64).alias("n"),
            pl.col("net").sum().alias("total"),
            net.mean().alias("mean"),
            (net.var(ddof=1) / k).alias("mean_var"),
            edge.alias("edge"),
            (ratio_se(-net, wagered) ** 2).alias("edge_var"),
            ratio_df(-net, wagered).alias("edge_df"),
            as_float("ruined").mean().alias("ruin"),
            (as_float("ruined").mean() * (1 - as_float("ruined").mean()) / k).alias("ruin_var"),
            wagered.mean().alias("wagered_mean"),
            _expected_edge(as_float("expected_net"), wagered).alias("expected_edge"),
            (ratio_se(-as_float("expected_net"), wagered) ** 2).alias("expected_edge_var"),
            ratio_df(-as_float("expected_net"), wagered).alias("expected_edge_df"),
            as_float("expected_net").mean().alias("expected_mean"),
            (net - as_float("expected_net")).mean().alias("luck"),
            ((net - as_float("expected_net")).var(ddof=1) / k).alias("luck_var"),
        ],
    )
    base = parts.filter(pl.col("strategy") == baseline).drop("strategy").rename(lambda c: f"b_{c}")
    rows = parts.filter(pl.col("strategy") != baseline).join(base, how="cross")

    def diff(a: str, var: str, name: str) -> list[pl.Expr]:
        value = pl.col(a) - pl.col(f"b_{a}")
        se = (pl.col(var) + pl.col(f"b_{var}")).sqrt()
        return [value.alias(name), (value - Z95 * se).alias(f"{name}_ci_low"), (value + Z95 * se).alias(f"{name}_ci_high")]

    def welch(a: str, var: str, name: str) -> list[pl.Expr]:
        """The difference, its standard error and Welch-Satterthwaite's degrees of freedom (the interval is set from t below)."""
        mine, theirs = pl.col(var), pl.col(f"b_{var}")
        df = (mine + theirs) ** 2 / (mine**2 / pl.col(f"{a}_df") + theirs**2 / pl.col(f"b_{a}_df"))
        return [(pl.col(a) - pl.col(f"b_{a}")).alias(name), (mine + theirs).sqrt().alias(f"{name}_se"), df.alias(f"{name}_df")]

    out = rows.select(
        "strategy",
        pl.lit(baseline, dtype=pl.String).alias("baseline"),
        pl.col("n").alias("sessions"),
        (pl.col("total") - pl.col("b_total")).alias("net_diff"),
        *diff("mean", "mean_var", "net_diff_mean"),
        *welch("edge", "edge_var", "edge_diff"),
        *diff("ruin", "ruin_var", "risk_of_ruin_diff"),
        pl.lit(None, dtype=pl.Float64).alias("sessions_better"),
        pl.lit(None, dtype=pl.Float64).alias("sessions_worse"),
        (pl.col("wagered_mean") - pl.col("b_wagered_mean")).alias("wagered_diff_mean"),
        *welch("expected_edge", "expected_edge_var", "expected_edge_diff"),
        (pl.col("expected_mean") - pl.col("b_expected_mean")).alias("expected_net_diff_mean"),
        *diff("luck", "luck_var", "luck_diff_mean"),
    ).rename(
        {
            "net_diff_mean_ci_low": "net_diff_ci_low",
            "net_diff_mean_ci_high": "net_diff_ci_high",
            "luck_diff_mean_ci_low": "luck_diff_ci_low",
            "luck_diff_mean_ci_high": "luck_diff_ci_high",
        }
    )
    out = out.with_columns(*_t_interval(out, "edge_diff"), *_t_interval(out, "expected_edge_diff"))
    return with_verdicts(out, fixed).select(COMPARISON_COLUMNS)


def ratio_df(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    """Degrees of freedom of :func:`~baccarat.results.statistics.ledger_stats.ratio_se`'s variance, for Student's t.

    ``k - 1`` for sessions whose influences ``u = num - ratio·den`` have
    normal tails; fewer where their kurtosis ``κ = k·Σu⁴ / (Σu²)²`` exceeds
    3, since the variance is then estimated less steadily:
    ``2 / (2/(k-1) + (κ-3)/k)`` (the variance of a sample variance is
    ``σ⁴·(2/(k-1) + (κ-3)/k)``, a chi-square's ``2σ⁴/df``). A counter that
    bets in 40% of its one-shoe sessions has ``κ`` near 20: its two samples of
    100 shoes were called better or worse than each other in 6.4% of 1,200
    pairs with ``k - 1``, in 3.8% with these. Null below 2 sessions.
    """
    ratio = num.sum() / den.sum()
    u = num - ratio * den
    k = pl.len().cast(pl.Float64)
    kurtosis = k * (u**4).sum() / ((u**2).sum() ** 2)
    excess = pl.max_horizontal(kurtosis - 3, pl.lit(0.0)).fill_nan(0.0)
    return pl.when(pl.len() >= 2).then(2 / (2 / (k - 1) + excess / k)).otherwise(None)


def _t_interval(table: pl.DataFrame, name: str) -> list[pl.Series]:
    """The 95% interval of column ``name`` from its ``_se`` and ``_df`` columns, by Student's t quantile.

    Degrees of freedom that are not a number (both variances 0) leave a
    standard error of 0: the interval is the point.
    """
    lows, highs = [], []
    for value, se, df in table.select(name, f"{name}_se", f"{name}_df").rows():
        if value is None or se is None or math.isnan(value) or math.isnan(se):
            lows.append(None)
            highs.append(None)
            continue
        half = 0.0 if se == 0 else student_t.quantile(0.975, df if df is not None and df > 0 else math.inf) * se
        lows.append(value - half)
        highs.append(value + half)
    return [pl.Series(f"{name}_ci_low", lows, dtype=pl.Float64), pl.Series(f"{name}_ci_high", highs, dtype=pl.Float64)]

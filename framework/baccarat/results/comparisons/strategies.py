"""Each strategy against a baseline: paired session by session when they met the same rounds, else as independent samples.

Both reduce the session table (:func:`baccarat.results.statistics.ledger_stats.session_table`); definitions are in docs/results.md.
"""

from __future__ import annotations

import polars as pl

from baccarat.results.comparisons.verdict import with_verdicts
from baccarat.results.ledger import MONEY
from baccarat.results.statistics.ledger_stats import Z95, as_float, by_strategy, ratio_se, strategies_of

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
    "expected_net_diff_mean",
    "luck_diff_mean",
    "luck_diff_ci_low",
    "luck_diff_ci_high",
    "edge_diff_p_value",
    "edge_diff_p_holm",
    "verdict",
)
"""Columns of ``comparison.csv``, in order."""


def paired_comparison(sessions: pl.DataFrame | pl.LazyFrame, baseline: str | None = None) -> pl.DataFrame:
    """Compare every strategy with ``baseline`` (default: the first) session by session.

    Strategies ran on the very same rounds, so each session gives a pair.
    Per strategy: ``net_diff`` (total net minus the baseline's, exact),
    ``net_diff_mean`` per session with a paired 95% interval, the difference
    of realised edges ``edge_diff`` with a paired delta-method interval, the
    difference of ruin shares with a paired interval, and the shares of
    sessions that ended better or worse than the baseline's.
    """
    order = strategies_of(sessions)
    if baseline is None:
        baseline = order[0] if order else ""
    if baseline not in order:
        from baccarat.errors import InputError, did_you_mean

        raise InputError(f"no strategy is labelled {baseline!r}{did_you_mean(baseline, order)}; the strategies are {', '.join(order)}")
    base = (
        sessions.lazy()
        .filter(pl.col("strategy") == baseline)
        .select(  # lazy: only these columns are filtered
            "session",
            pl.col("net").alias("b_net"),
            pl.col("wagered").alias("b_wagered"),
            pl.col("ruined").alias("b_ruined"),
            pl.col("expected_net").cast(pl.Float64).alias("b_expected_net"),
        )
        .collect()
    )
    pairs = sessions.lazy().select("strategy", "session", "net", "wagered", "ruined", pl.col("expected_net").cast(pl.Float64))
    k = pl.len().cast(pl.Float64)
    diff = as_float("net") - as_float("b_net")
    ruin_diff = pl.col("ruined").cast(pl.Float64) - pl.col("b_ruined").cast(pl.Float64)
    w, bw = as_float("wagered"), as_float("b_wagered")
    # Influence of each session on edge - baseline edge (delta method on both ratios).
    influence = (
        -(-as_float("net") + as_float("net").sum() / w.sum() * w) / w.sum()
        + (-as_float("b_net") + as_float("b_net").sum() / bw.sum() * bw) / bw.sum()
    )
    edge_diff = pl.when((w.sum() > 0) & (bw.sum() > 0)).then(-as_float("net").sum() / w.sum() + as_float("b_net").sum() / bw.sum())
    edge_se = pl.when(pl.len() >= 2).then((k / (k - 1) * (influence**2).sum()).sqrt())
    diff_se = diff.std(ddof=1) / k.sqrt()
    ruin_se = ruin_diff.std(ddof=1) / k.sqrt()
    expected, b_expected = pl.col("expected_net"), pl.col("b_expected_net")
    luck_diff = (diff - expected) + b_expected
    luck_se = luck_diff.std(ddof=1) / k.sqrt()
    out = by_strategy(
        pairs,
        [
            pl.lit(baseline).alias("baseline"),
            pl.len().cast(pl.Int64).alias("sessions"),
            (pl.col("net").sum() - pl.col("b_net").sum()).alias("net_diff"),
            diff.mean().alias("net_diff_mean"),
            (diff.mean() - Z95 * diff_se).alias("net_diff_ci_low"),
            (diff.mean() + Z95 * diff_se).alias("net_diff_ci_high"),
            edge_diff.alias("edge_diff"),
            (edge_diff - Z95 * edge_se).alias("edge_diff_ci_low"),
            (edge_diff + Z95 * edge_se).alias("edge_diff_ci_high"),
            ruin_diff.mean().alias("risk_of_ruin_diff"),
            (ruin_diff.mean() - Z95 * ruin_se).alias("risk_of_ruin_diff_ci_low"),
            (ruin_diff.mean() + Z95 * ruin_se).alias("risk_of_ruin_diff_ci_high"),
            (pl.col("net") > pl.col("b_net")).mean().alias("sessions_better"),
            (pl.col("net") < pl.col("b_net")).mean().alias("sessions_worse"),
            (w - bw).mean().alias("wagered_diff_mean"),
            _expected_edge(expected, w) - _expected_edge(b_expected, bw),
            (expected - b_expected).mean().alias("expected_net_diff_mean"),
            luck_diff.mean().alias("luck_diff_mean"),
            (luck_diff.mean() - Z95 * luck_se).alias("luck_diff_ci_low"),
            (luck_diff.mean() + Z95 * luck_se).alias("luck_diff_ci_high"),
        ],
        join=lambda part: part.join(base.lazy(), on="session", how="inner", maintain_order="left"),
        strategies=[name for name in order if name != baseline],
    )
    if out.is_empty():
        out = pl.DataFrame(
            schema={
                "strategy": pl.String,
                "baseline": pl.String,
                "sessions": pl.Int64,
                "net_diff": MONEY,
                **{c: pl.Float64 for c in COMPARISON_COLUMNS[4:-3]},
            }
        )
    return with_verdicts(out).select(COMPARISON_COLUMNS)


def _expected_edge(expected: pl.Expr, wagered: pl.Expr) -> pl.Expr:
    """Expected edge of the bets placed, ``-sum(expected_net) / sum(wagered)``: NaN when one bet's is not known, null without bets."""
    known = (wagered.sum() > 0) & expected.is_not_null().all()
    return pl.when(known).then(-expected.sum() / wagered.sum()).alias("expected_edge_diff")


def unpaired_comparison(sessions: pl.DataFrame, baseline: str | None = None) -> pl.DataFrame:
    """Compare every strategy with ``baseline`` (default: the first) as independent samples.

    For strategies that did not play the same rounds (runs with other shoes,
    seeds or rules), so that sessions do not pair: the columns of
    :func:`paired_comparison`, with Welch's interval for the difference of
    mean net per session (``sqrt(s_a²/n_a + s_b²/n_b)``), the two edges'
    delta-method standard errors combined (``sqrt(se_a² + se_b²)``) and the
    normal interval of a difference of two shares for the risk of ruin;
    ``sessions_better`` and ``sessions_worse`` are null (nothing pairs).
    """
    order = strategies_of(sessions)
    if baseline is None:
        baseline = order[0] if order else ""
    if baseline not in order:
        from baccarat.errors import InputError, did_you_mean

        raise InputError(f"no strategy is labelled {baseline!r}{did_you_mean(baseline, order)}; the strategies are {', '.join(order)}")
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
            as_float("ruined").mean().alias("ruin"),
            (as_float("ruined").mean() * (1 - as_float("ruined").mean()) / k).alias("ruin_var"),
            wagered.mean().alias("wagered_mean"),
            _expected_edge(as_float("expected_net"), wagered).alias("expected_edge"),
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

    out = rows.select(
        "strategy",
        pl.lit(baseline, dtype=pl.String).alias("baseline"),
        pl.col("n").alias("sessions"),
        (pl.col("total") - pl.col("b_total")).alias("net_diff"),
        *diff("mean", "mean_var", "net_diff_mean"),
        *diff("edge", "edge_var", "edge_diff"),
        *diff("ruin", "ruin_var", "risk_of_ruin_diff"),
        pl.lit(None, dtype=pl.Float64).alias("sessions_better"),
        pl.lit(None, dtype=pl.Float64).alias("sessions_worse"),
        (pl.col("wagered_mean") - pl.col("b_wagered_mean")).alias("wagered_diff_mean"),
        (pl.col("expected_edge") - pl.col("b_expected_edge")).alias("expected_edge_diff"),
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
    return with_verdicts(out).select(COMPARISON_COLUMNS)

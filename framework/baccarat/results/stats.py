"""Statistics of a run: pure functions of the ledger, in polars.

Everything starts from the ledger (one row per round per strategy per
session) and two facts of the experiment: the initial bankroll and the table
minimum (ruin is a bankroll below it). The work is done in two steps:

1. :func:`session_table` folds the ledger into one row per strategy and
   session. It scans the ledger lazily in batches of sessions, so a ledger
   larger than memory works: only one batch of rows is held at a time.
2. :func:`summary_table` and :func:`paired_comparison` reduce that small
   table to one row per strategy.

:func:`bankroll_bands`, :func:`ruin_curve` and :func:`sample_paths` give the
per-round aggregates that the plots draw. Definitions are in docs/results.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from statistics import NormalDist

import numpy as np
import polars as pl

from baccarat.results.ledger import MONEY

Z95 = NormalDist().inv_cdf(0.975)
"""Two-sided 95% quantile of the standard normal distribution (1.95996...)."""

BATCH_ROWS = 1_000_000
"""Ledger rows folded at once by :func:`session_table` (bounds its memory)."""

BAND_CELLS = 4_000_000
"""Bankroll values (sessions x rounds) held at once by :func:`bankroll_bands`."""

CURVE_POINTS = 400
"""Most rounds at which :func:`bankroll_bands` evaluates the bankroll quantiles."""

BAND_PERCENTILES = (5, 25, 50, 75, 95)
"""Percentiles of the bankroll drawn as the median and its two bands."""

Ledger = pl.LazyFrame | pl.DataFrame


def money(amount: Decimal | int | float | str) -> pl.Expr:
    """Return an exact money literal (``Decimal(38, 6)``) for comparisons with ledger columns."""
    return pl.lit(Decimal(str(amount)), dtype=MONEY)


def strategy_order(ledger: Ledger) -> list[str]:
    """Return the ledger's strategy labels in order of first appearance."""
    return ledger.lazy().select(pl.col("strategy").unique(maintain_order=True)).collect().to_series().to_list()


def _session_aggregates(initial: Decimal, table_min: Decimal, has_expected: bool) -> list[pl.Expr]:
    """Return the per-session aggregations of :func:`session_table`."""
    by_round = pl.col("bankroll").sort_by("round")
    peak = pl.max_horizontal(by_round.cum_max(), money(initial))
    decided = (pl.col("stake") > 0) & (pl.col("net") != 0)
    losses = pl.col("net").filter(decided).sort_by(pl.col("round").filter(decided)) < 0
    runs = losses.rle()
    below = pl.col("bankroll") < money(table_min)
    if initial < table_min:
        ruin_round = pl.lit(0, dtype=pl.Int64)
    else:
        ruin_round = pl.col("round").filter(below).min().cast(pl.Int64)
    expected = pl.col("expected_net").cast(pl.Float64).sum() if has_expected else pl.lit(None, dtype=pl.Float64)
    return [
        pl.len().cast(pl.Int64).alias("rounds_dealt"),
        (pl.col("stake") > 0).sum().cast(pl.Int64).alias("rounds"),
        pl.col("stake").sum().alias("wagered"),
        pl.col("net").sum().alias("net"),
        expected.alias("expected_net"),
        by_round.last().alias("final_bankroll"),
        pl.max_horizontal(pl.col("bankroll").max(), money(initial)).alias("peak"),
        ruin_round.alias("rounds_to_ruin"),
        (peak - by_round).max().alias("max_drawdown"),
        runs.struct.field("len").filter(runs.struct.field("value")).max().fill_null(0).cast(pl.Int64)
        .alias("longest_losing_streak"),
        pl.col("stake").max().alias("max_stake"),
        pl.col("capped").sum().cast(pl.Int64).alias("capped_bets"),
    ]


def session_table(ledger: Ledger, initial_bankroll: Decimal | int | str, table_min: Decimal | int | str,
                  batch_rows: int = BATCH_ROWS, stops: pl.DataFrame | None = None) -> pl.DataFrame:
    """Fold the ledger into one row per strategy and session, sorted by strategy order then session.

    Columns: ``strategy``, ``session``, ``rounds_dealt`` (ledger rows),
    ``rounds`` (rounds with a bet), ``wagered``, ``net``, ``expected_net``
    (null when the ledger has no ``expected_net``), ``final_bankroll``,
    ``peak`` (highest bankroll of the session, the initial one included),
    ``ruined``, ``rounds_to_ruin`` (round after which the bankroll first fell
    below the table minimum, 0 when it started below, null when never),
    ``max_drawdown`` (peak-to-trough, the initial bankroll counting as a
    peak), ``longest_losing_streak`` (pushes and sit-outs skipped),
    ``max_stake``, ``capped_bets``, ``stopped_by``. Money columns stay exact decimals.

    ``stopped_by``, the stop rule that ended a session's betting, is a fact
    of the play the ledger does not hold: it is taken from ``stops`` (rows
    ``strategy``, ``session``, ``stopped_by``, as the engines report them;
    :func:`stopped_sessions`), null for a session not listed there.

    The ledger is read ``batch_rows`` rows at a time (whole sessions), so a
    lazy scan of a Parquet file larger than memory works.
    """
    initial, minimum = Decimal(str(initial_bankroll)), Decimal(str(table_min))
    lf = ledger.lazy()
    has_expected = "expected_net" in lf.collect_schema().names()
    strategies = strategy_order(lf)
    extent = lf.select(pl.len().alias("rows"), pl.col("session").min().alias("lo"), pl.col("session").max().alias("hi")).collect()
    rows, lo, hi = extent.row(0)
    aggregates = _session_aggregates(initial, minimum, has_expected)
    frames = []
    if rows:
        span = hi - lo + 1
        step = max(1, int(batch_rows * span / rows))
        for first in range(lo, hi + 1, step):
            batch = lf.filter(pl.col("session").is_between(first, first + step - 1))
            frames.append(batch.group_by("strategy", "session").agg(aggregates).collect())
    table = pl.concat(frames) if frames else lf.group_by("strategy", "session").agg(aggregates).collect()
    order = pl.col("strategy").replace_strict(strategies, list(range(len(strategies))), default=len(strategies))
    table = table.sort(order, "session")
    if stops is None:
        table = table.with_columns(pl.lit(None, dtype=pl.String).alias("stopped_by"))
    else:
        table = table.join(stops.select("strategy", "session", pl.col("stopped_by").cast(pl.String)),
                           on=["strategy", "session"], how="left", maintain_order="left")
    money_columns = [pl.col(name).cast(MONEY) for name in ("wagered", "net", "final_bankroll", "peak", "max_drawdown", "max_stake")]
    return table.with_columns(pl.col("rounds_to_ruin").is_not_null().alias("ruined"), *money_columns).select(
        "strategy", "session", "rounds_dealt", "rounds", "wagered", "net", "expected_net", "final_bankroll", "peak",
        "ruined", "rounds_to_ruin", "max_drawdown", "longest_losing_streak", "max_stake", "capped_bets", "stopped_by")


def stopped_sessions(sessions: pl.DataFrame) -> pl.DataFrame:
    """Return the sessions a stop rule ended (``strategy``, ``session``, ``stopped_by``): the ``stops`` of :func:`session_table`."""
    return sessions.lazy().filter(pl.col("stopped_by").is_not_null()).select("strategy", "session", "stopped_by").collect()


def _f(name: str) -> pl.Expr:
    return pl.col(name).cast(pl.Float64)


def _ratio_se(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    """Cluster (per-session) delta-method standard error of ``sum(num) / sum(den)``; null below 2 sessions."""
    ratio = num.sum() / den.sum()
    k = pl.len().cast(pl.Float64)
    spread = ((num - ratio * den) ** 2).sum()
    return pl.when(pl.len() >= 2).then((k / (k - 1) * spread).sqrt() / den.sum().abs()).otherwise(None)


def wilson_interval(successes: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Return the Wilson score interval (low, high) of a share ``successes / n``; null when ``n`` is 0.

    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``: unlike the normal
    interval it stays within [0, 1] and is not empty at a share of 0 or 1.
    """
    k, total = successes.cast(pl.Float64), n.cast(pl.Float64)
    share = k / total
    z2 = z * z
    centre = (share + z2 / (2 * total)) / (1 + z2 / total)
    half = z / (1 + z2 / total) * (share * (1 - share) / total + z2 / (4 * total * total)).sqrt()
    ok = n > 0
    return (pl.when(ok).then(pl.max_horizontal(centre - half, pl.lit(0.0))),
            pl.when(ok).then(pl.min_horizontal(centre + half, pl.lit(1.0))))


SUMMARY_COLUMNS = (
    "strategy", "sessions", "rounds", "wagered", "net", "final_bankroll_mean", "final_bankroll_median",
    "edge", "edge_ci_low", "edge_ci_high", "expected_net", "expected_edge", "risk_of_ruin",
    "risk_of_ruin_ci_low", "risk_of_ruin_ci_high",
    "rounds_to_ruin_mean", "rounds_to_ruin_median", "max_drawdown", "max_drawdown_mean",
    "longest_losing_streak", "max_stake", "capped_bets", "sessions_in_profit",
    "sessions_in_profit_ci_low", "sessions_in_profit_ci_high",
)
"""Columns of ``summary.csv``, in order."""


def summary_table(sessions: pl.DataFrame) -> pl.DataFrame:
    """Return one summary row per strategy (in the order of ``sessions``) from :func:`session_table`.

    Realised ``edge`` is ``-net / wagered`` (null when nothing was wagered),
    its 95% interval ``edge +- 1.96 * se`` with the delta-method standard
    error of the ratio clustered by session. Shares (``risk_of_ruin``,
    ``sessions_in_profit``) are fractions of sessions, each with its 95%
    Wilson interval (:func:`wilson_interval`).
    """
    wagered, net = _f("wagered"), _f("net")
    se = _ratio_se(-net, wagered)
    edge = pl.when(wagered.sum() > 0).then(-net.sum() / wagered.sum())
    ruin_rounds = _f("rounds_to_ruin").filter(pl.col("ruined"))
    expected = pl.when(pl.col("expected_net").is_not_null().any()).then(pl.col("expected_net").sum())
    ruin_low, ruin_high = wilson_interval(pl.col("ruined").sum(), pl.len())
    profit_low, profit_high = wilson_interval((pl.col("net") > 0).sum(), pl.len())
    summary = by_strategy(sessions, [
        pl.len().cast(pl.Int64).alias("sessions"),
        pl.col("rounds").sum(),
        pl.col("wagered").sum(),
        pl.col("net").sum(),
        _f("final_bankroll").mean().alias("final_bankroll_mean"),
        _f("final_bankroll").median().alias("final_bankroll_median"),
        edge.alias("edge"),
        (edge - Z95 * se).alias("edge_ci_low"),
        (edge + Z95 * se).alias("edge_ci_high"),
        expected.alias("expected_net"),
        pl.when(wagered.sum() > 0).then(-expected / wagered.sum()).alias("expected_edge"),
        pl.col("ruined").mean().alias("risk_of_ruin"),
        ruin_low.alias("risk_of_ruin_ci_low"),
        ruin_high.alias("risk_of_ruin_ci_high"),
        ruin_rounds.mean().alias("rounds_to_ruin_mean"),
        ruin_rounds.median().alias("rounds_to_ruin_median"),
        pl.col("max_drawdown").max(),
        _f("max_drawdown").mean().alias("max_drawdown_mean"),
        pl.col("longest_losing_streak").max(),
        pl.col("max_stake").max(),
        pl.col("capped_bets").sum(),
        (pl.col("net") > 0).mean().alias("sessions_in_profit"),
        profit_low.alias("sessions_in_profit_ci_low"),
        profit_high.alias("sessions_in_profit_ci_high"),
    ])
    return summary.select(SUMMARY_COLUMNS)


def strategies_of(frame: pl.DataFrame) -> list[str]:
    """Return the strategies of a table with a ``strategy`` column, in order of first appearance."""
    return frame.get_column("strategy").unique(maintain_order=True).to_list()


def strategy_rows(frame: pl.DataFrame, *columns: str) -> Iterator[tuple[str, pl.DataFrame]]:
    """Yield each strategy (in order of first appearance) with its rows of ``columns`` only.

    One strategy's columns are in memory at a time: a ``group_by`` would
    hold every group, with every column, at once.
    """
    lazy = frame.lazy()
    for name in strategies_of(frame):
        yield name, lazy.filter(pl.col("strategy") == name).select(columns).collect()


def by_strategy(frame: pl.DataFrame, aggregations: list[pl.Expr],
                join: Callable[[pl.DataFrame], pl.DataFrame] | None = None,
                strategies: Sequence[str] | None = None) -> pl.DataFrame:
    """Return one row of ``aggregations`` per strategy, in the order of ``frame`` (as ``group_by(...).agg`` would).

    Strategies are taken one at a time (``join`` applied to each one's rows
    first), in a select: memory holds one strategy's rows, not lists per group.
    ``strategies``, when given, are those taken (default: every one).
    """
    frames = []
    for name in strategies_of(frame) if strategies is None else strategies:
        part = frame.filter(pl.col("strategy") == name)
        if join is not None:
            part = join(part)
        frames.append(part.select(pl.lit(name, dtype=pl.String).alias("strategy"), *aggregations))
    if not frames:
        empty = frame.clear() if join is None else join(frame.clear())
        return empty.group_by("strategy", maintain_order=True).agg(aggregations)
    return pl.concat(frames)


def summarize(ledger: Ledger, initial_bankroll: Decimal | int | str, table_min: Decimal | int | str) -> pl.DataFrame:
    """Return ``summary.csv`` of a ledger: :func:`summary_table` of :func:`session_table`."""
    return summary_table(session_table(ledger, initial_bankroll, table_min))


COMPARISON_COLUMNS = (
    "strategy", "baseline", "sessions", "net_diff", "net_diff_mean", "net_diff_ci_low", "net_diff_ci_high",
    "edge_diff", "edge_diff_ci_low", "edge_diff_ci_high", "risk_of_ruin_diff", "risk_of_ruin_diff_ci_low",
    "risk_of_ruin_diff_ci_high", "sessions_better", "sessions_worse",
)
"""Columns of ``comparison.csv``, in order."""


def paired_comparison(sessions: pl.DataFrame, baseline: str | None = None) -> pl.DataFrame:
    """Compare every strategy with ``baseline`` (default: the first) session by session.

    Strategies ran on the very same rounds, so each session gives a pair.
    Per strategy: ``net_diff`` (total net minus the baseline's, exact),
    ``net_diff_mean`` per session with a paired 95% interval, the difference
    of realised edges ``edge_diff`` with a paired delta-method interval, the
    difference of ruin shares with a paired interval, and the shares of
    sessions that ended better or worse than the baseline's.
    """
    order = sessions.get_column("strategy").unique(maintain_order=True).to_list()
    if baseline is None:
        baseline = order[0] if order else ""
    if baseline not in order:
        from baccarat.errors import InputError, did_you_mean

        raise InputError(f"no strategy is labelled {baseline!r}{did_you_mean(baseline, order)}; "
                         f"the strategies are {', '.join(order)}")
    base = sessions.lazy().filter(pl.col("strategy") == baseline).select(  # lazy: only these columns are filtered
        "session", pl.col("net").alias("b_net"), pl.col("wagered").alias("b_wagered"), pl.col("ruined").alias("b_ruined")).collect()
    pairs = sessions.select("strategy", "session", "net", "wagered", "ruined")
    k = pl.len().cast(pl.Float64)
    diff = _f("net") - _f("b_net")
    ruin_diff = pl.col("ruined").cast(pl.Float64) - pl.col("b_ruined").cast(pl.Float64)
    w, bw = _f("wagered"), _f("b_wagered")
    # Influence of each session on edge - baseline edge (delta method on both ratios).
    influence = -(-_f("net") + _f("net").sum() / w.sum() * w) / w.sum() \
        + (-_f("b_net") + _f("b_net").sum() / bw.sum() * bw) / bw.sum()
    edge_diff = pl.when((w.sum() > 0) & (bw.sum() > 0)).then(-_f("net").sum() / w.sum() + _f("b_net").sum() / bw.sum())
    edge_se = pl.when(pl.len() >= 2).then((k / (k - 1) * (influence ** 2).sum()).sqrt())
    diff_se = diff.std(ddof=1) / k.sqrt()
    ruin_se = ruin_diff.std(ddof=1) / k.sqrt()
    out = by_strategy(pairs, [
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
    ], join=lambda part: part.join(base, on="session", how="inner", maintain_order="left"),
        strategies=[name for name in order if name != baseline])
    if out.is_empty():
        out = pl.DataFrame(schema={"strategy": pl.String, "baseline": pl.String, "sessions": pl.Int64,
                                   "net_diff": MONEY, **{c: pl.Float64 for c in COMPARISON_COLUMNS[4:]}})
    return out.select(COMPARISON_COLUMNS)


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

        raise InputError(f"no strategy is labelled {baseline!r}{did_you_mean(baseline, order)}; "
                         f"the strategies are {', '.join(order)}")
    wagered, net = _f("wagered"), _f("net")
    edge = pl.when(wagered.sum() > 0).then(-net.sum() / wagered.sum())
    k = pl.len().cast(pl.Float64)
    parts = by_strategy(sessions, [
        pl.len().cast(pl.Int64).alias("n"),
        pl.col("net").sum().alias("total"),
        net.mean().alias("mean"),
        (net.var(ddof=1) / k).alias("mean_var"),
        edge.alias("edge"),
        (_ratio_se(-net, wagered) ** 2).alias("edge_var"),
        _f("ruined").mean().alias("ruin"),
        (_f("ruined").mean() * (1 - _f("ruined").mean()) / k).alias("ruin_var"),
    ])
    base = parts.filter(pl.col("strategy") == baseline).drop("strategy").rename(lambda c: f"b_{c}")
    rows = parts.filter(pl.col("strategy") != baseline).join(base, how="cross")

    def diff(a: str, var: str, name: str) -> list[pl.Expr]:
        value = pl.col(a) - pl.col(f"b_{a}")
        se = (pl.col(var) + pl.col(f"b_{var}")).sqrt()
        return [value.alias(name), (value - Z95 * se).alias(f"{name}_ci_low"), (value + Z95 * se).alias(f"{name}_ci_high")]

    out = rows.select(
        "strategy", pl.lit(baseline, dtype=pl.String).alias("baseline"), pl.col("n").alias("sessions"),
        (pl.col("total") - pl.col("b_total")).alias("net_diff"),
        *diff("mean", "mean_var", "net_diff_mean"), *diff("edge", "edge_var", "edge_diff"),
        *diff("ruin", "ruin_var", "risk_of_ruin_diff"),
        pl.lit(None, dtype=pl.Float64).alias("sessions_better"), pl.lit(None, dtype=pl.Float64).alias("sessions_worse"),
    ).rename({"net_diff_mean_ci_low": "net_diff_ci_low", "net_diff_mean_ci_high": "net_diff_ci_high"})
    return out.select(COMPARISON_COLUMNS)


def curve_rounds(max_round: int, points: int = CURVE_POINTS) -> np.ndarray:
    """Return the rounds (from 1) at which bankroll bands are evaluated: all of them, or ``points`` spread evenly."""
    if max_round <= points:
        return np.arange(1, max_round + 1, dtype=np.int64)
    return np.unique(np.linspace(1, max_round, points).round().astype(np.int64))


def bankroll_bands(ledger: Ledger, sessions: pl.DataFrame, initial_bankroll: Decimal | int | str,
                   points: int = CURVE_POINTS, cells: int = BAND_CELLS) -> pl.DataFrame:
    """Return percentiles of the bankroll over sessions after each round, per strategy.

    Columns ``strategy``, ``round`` (0 is the start), ``p5``, ``p25``,
    ``p50``, ``p75``, ``p95``. A session that has ended keeps its final
    bankroll, so every round counts every session. With more than ``points``
    rounds, the rounds are sampled evenly. At most ``cells`` bankroll values
    are held in memory at once.
    """
    lf = ledger.lazy()
    initial = float(Decimal(str(initial_bankroll)))
    names = [f"p{p}" for p in BAND_PERCENTILES]
    frames = []
    for label, group in strategy_rows(sessions, "session", "rounds_dealt", "final_bankroll"):
        ids = group.get_column("session").to_numpy()
        last = group.get_column("rounds_dealt").to_numpy()
        final = group.get_column("final_bankroll").cast(pl.Float64).to_numpy()
        grid = curve_rounds(int(last.max()) if len(last) else 0, points)
        chunk = max(1, cells // max(len(ids), 1))
        rows = [np.full(len(BAND_PERCENTILES), initial)]
        for start in range(0, len(grid), chunk):
            part = grid[start:start + chunk]
            values = lf.filter((pl.col("strategy") == label) & pl.col("round").is_in(part.tolist())).select(
                "session", "round", pl.col("bankroll").cast(pl.Float64)).collect()
            matrix = np.full((len(ids), len(part)), np.nan)
            matrix[np.searchsorted(ids, values.get_column("session").to_numpy()),
                   np.searchsorted(part, values.get_column("round").to_numpy())] = values.get_column("bankroll").to_numpy()
            matrix = np.where(last[:, None] < part[None, :], final[:, None], matrix)
            rows.extend(np.nanpercentile(matrix, BAND_PERCENTILES, axis=0).T)
        table = np.asarray(rows)
        frames.append(pl.DataFrame({"strategy": [label] * len(table), "round": np.concatenate([[0], grid]),
                                    **{n: table[:, i] for i, n in enumerate(names)}}))
    if not frames:
        return pl.DataFrame(schema={"strategy": pl.String, "round": pl.Int64, **{n: pl.Float64 for n in names}})
    return pl.concat(frames)


def ruin_curve(sessions: pl.DataFrame) -> pl.DataFrame:
    """Return the share of sessions ruined by each round, per strategy: ``strategy``, ``round`` (from 0), ``ruined``."""
    frames = []
    for strategy, group in strategy_rows(sessions, "rounds_dealt", "rounds_to_ruin"):
        count = group.height
        horizon = int(group.get_column("rounds_dealt").max() or 0)
        ruin = group.get_column("rounds_to_ruin").drop_nulls().to_numpy().astype(np.int64)
        ruined = np.cumsum(np.bincount(ruin, minlength=horizon + 1)[: horizon + 1]) / count
        frames.append(pl.DataFrame({"strategy": [strategy] * (horizon + 1),
                                    "round": np.arange(horizon + 1, dtype=np.int64), "ruined": ruined}))
    if not frames:
        return pl.DataFrame(schema={"strategy": pl.String, "round": pl.Int64, "ruined": pl.Float64})
    return pl.concat(frames)


def sample_paths(ledger: Ledger, sessions: pl.DataFrame, initial_bankroll: Decimal | int | str, count: int = 5) -> pl.DataFrame:
    """Return the bankroll path of the first ``count`` sessions of every strategy (round 0 is the start).

    Columns ``strategy``, ``session``, ``round``, ``bankroll`` (float).
    """
    chosen = sessions.get_column("session").unique().sort().head(count).to_list()
    paths = ledger.lazy().filter(pl.col("session").is_in(chosen)).select(
        "strategy", "session", pl.col("round").cast(pl.Int64), pl.col("bankroll").cast(pl.Float64)).collect()
    starts = sessions.filter(pl.col("session").is_in(chosen)).select(
        "strategy", "session", pl.lit(0, dtype=pl.Int64).alias("round"),
        pl.lit(float(Decimal(str(initial_bankroll)))).alias("bankroll"))
    return pl.concat([starts, paths]).sort("session", "round", maintain_order=True)

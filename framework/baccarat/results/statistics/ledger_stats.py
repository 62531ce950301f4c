"""Statistics of a run's sessions: the summary's definitions, from exact aggregates of the session table.

Every figure starts from the session table (one row per strategy and
session; a run folds it from its ledger as the chunks arrive,
:mod:`baccarat.results.statistics.folded`) and two facts of the experiment:
the initial bankroll and the table minimum (ruin is a bankroll below it).
:func:`summary_table` (and the comparisons) reduce that table to one row
per strategy, through exact aggregates
(:class:`~baccarat.results.statistics.tallies.SessionTally`): a run adds
the same aggregates up as its sessions arrive (:func:`summary_of_tallies`).

Comparisons between strategies are in :mod:`baccarat.results.comparisons.strategies`,
the per-round aggregates the plots draw in :mod:`baccarat.results.statistics.curves`.
Definitions are in docs/results.md.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from statistics import NormalDist

import numpy as np
import polars as pl

from baccarat.money import MICROS_PER_UNIT as MICROS
from baccarat.results.ledger import MONEY
from baccarat.results.statistics.replay import session_table_of
from baccarat.results.statistics.tallies import (
    SESSION_COLUMNS,
    Pricing,
    SessionTally,
    expected_edge_se,
    median_of,
    money_floats,
    session_values,
)
from baccarat.table.pace import HANDS_PER_HOUR


def rebates_of(tally: SessionTally, pricing: Pricing) -> int:
    """The rebates a strategy's sessions earned, in micro-units: the rolling rebate on its wagers, the loss rebate on
    each session's loss (exact: whole cents times whole basis points are whole micro-units; a remainder is dropped)."""
    losses = np.maximum(pricing.bankroll_micros - tally.finals.values, 0)
    lost = int((losses.astype(object) * tally.finals.counts.astype(object)).sum()) if len(losses) else 0
    return int(pricing.rolling_rebate * tally.wagered + pricing.loss_rebate * lost)


def _pace_figures(tally: SessionTally, pricing: Pricing | None, expected: float | None) -> dict[str, object]:
    """The rebates, and the expected loss per session and per hour after them (at the table's pace)."""
    rebates = rebates_of(tally, pricing) if pricing is not None else 0
    if expected is None or not tally.sessions:
        return {"rebates": decimal(rebates), "expected_loss_per_session": None, "expected_loss_per_hour": None}
    per_session = (-expected - units(rebates)) / tally.sessions
    hands = tally.rounds_dealt / tally.sessions
    pace = pricing.hands_per_hour if pricing is not None else HANDS_PER_HOUR
    return {
        "rebates": decimal(rebates),
        "expected_loss_per_session": per_session,
        "expected_loss_per_hour": per_session * pace / hands if hands else None,
    }


Z95 = NormalDist().inv_cdf(0.975)
"""Two-sided 95% quantile of the standard normal distribution (1.95996...)."""

Ledger = pl.LazyFrame | pl.DataFrame


def money(amount: Decimal | int | float | str) -> pl.Expr:
    """Return an exact money literal (``Decimal(38, 6)``) for comparisons with ledger columns."""
    return pl.lit(Decimal(str(amount)), dtype=MONEY)


def strategy_order(ledger: Ledger) -> list[str]:
    """Return the ledger's strategy labels in order of first appearance."""
    return ledger.lazy().select(pl.col("strategy").unique(maintain_order=True)).collect().to_series().to_list()


def session_table(
    ledger: Ledger,
    initial_bankroll: Decimal | int | str,
    table_min: Decimal | int | str,
    batch_rows: int | None = None,
    stops: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Deprecated (goes in 0.4): the session table of a ledger; ``baccarat.load(RUN_DIR).sessions`` gives a saved run's.

    Returns the ledger replayed through the run's statistics collector
    (:func:`baccarat.results.statistics.replay.session_table_of`): one row per strategy and
    session, :data:`SESSION_COLUMNS`, ``stopped_by`` from ``stops``.
    ``batch_rows`` is ignored.
    """
    warnings.warn(
        "baccarat.results.statistics.ledger_stats.session_table is deprecated and goes in baccarat 0.4: "
        "use baccarat.load(RUN_DIR).sessions (or Result.sessions)",
        DeprecationWarning,
        stacklevel=2,
    )
    return session_table_of(ledger, strategy_order(ledger), Decimal(str(initial_bankroll)), Decimal(str(table_min)), stops)


def stopped_sessions(sessions: pl.DataFrame) -> pl.DataFrame:
    """Return the sessions a stop rule ended (``strategy``, ``session``, ``stopped_by``): the ``stops`` of :func:`session_table`."""
    return sessions.lazy().filter(pl.col("stopped_by").is_not_null()).select("strategy", "session", "stopped_by").collect()


def as_float(name: str) -> pl.Expr:
    """Return column ``name`` as floats (for the statistics computed in floating point)."""
    return pl.col(name).cast(pl.Float64)


def ratio_se(num: pl.Expr, den: pl.Expr) -> pl.Expr:
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
    # At a share of 0 (or 1) the bound is 0 (or 1) exactly: the formula gives it up to rounding (1e-19).
    return (
        pl.when(ok).then(pl.when(k == 0).then(0.0).otherwise(pl.max_horizontal(centre - half, pl.lit(0.0)))),
        pl.when(ok).then(pl.when(k == total).then(1.0).otherwise(pl.min_horizontal(centre + half, pl.lit(1.0)))),
    )


SUMMARY_COLUMNS = (
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
    "expected_edge",
    "expected_edge_ci_low",
    "expected_edge_ci_high",
    "risk_of_ruin",
    "risk_of_ruin_ci_low",
    "risk_of_ruin_ci_high",
    "rounds_to_ruin_mean",
    "rounds_to_ruin_median",
    "max_drawdown",
    "max_drawdown_mean",
    "longest_losing_streak",
    "max_stake",
    "capped_bets",
    "sessions_in_profit",
    "sessions_in_profit_ci_low",
    "sessions_in_profit_ci_high",
    "rebates",
    "expected_loss_per_session",
    "expected_loss_per_hour",
    "bankroll_for_ruin_1pct",
    "bankroll_for_ruin_1pct_ci_low",
    "bankroll_for_ruin_1pct_ci_high",
    "bankroll_for_ruin_5pct",
    "bankroll_for_ruin_5pct_ci_low",
    "bankroll_for_ruin_5pct_ci_high",
    "notes",
)
"""Columns of ``summary.csv``, in order."""

SMALL_SAMPLE = 100
"""Sessions below which the normal 95% intervals are known to cover less than 95% (flat Tie, 30 sessions: about 90%)."""


def small_sample_notes(sessions: int) -> list[str]:
    """Return what a summary row says of intervals whose coverage falls short with ``sessions`` sessions (none when enough)."""
    notes = []
    if sessions < SMALL_SAMPLE:
        notes.append(f"{sessions} sessions: normal 95% intervals cover less than 95% below {SMALL_SAMPLE} (flat Tie at 30: about 90%)")
    for p in RUIN_TARGETS:
        needed = sessions_for_interval(1 - p)
        if sessions < needed:
            notes.append(f"bankroll for ruin at most {round(p * 100)}%: its 95% interval has no upper bound below {needed} sessions")
    return notes


RUIN_TARGETS = (0.01, 0.05)
"""Risks of ruin for which the summary gives the bankroll needed (``bankroll_for_ruin_1pct``, ``..._5pct``)."""


def quantile_ranks(k: int, q: float, level: float = 0.95) -> tuple[int | None, int | None, int | None]:
    """Return the 1-based ranks, among ``k`` sorted values, of the ``q`` quantile's estimate and of its exact interval.

    The estimate is the ``ceil(kq)``-th value. The interval is the
    distribution-free one from the binomial distribution: ``X``, the count
    of values at or below the true quantile, is Binomial(k, q); the ranks
    ``l`` (the largest with ``P(X < l) <= (1 - level)/2``) and ``u`` (the
    smallest with ``P(X < u) >= (1 + level)/2``) give ``P(x_(l) <= quantile
    <= x_(u)) >= level`` whatever the distribution. None for a rank that
    does not exist (too few values: see :func:`sessions_for_interval`).
    """
    if k < 1:
        return None, None, None
    estimate = max(1, math.ceil(k * q - 1e-9))
    if q >= 1 or q <= 0:
        return estimate, None, None
    j = np.arange(k, dtype=np.float64)
    log_pmf = np.concatenate([[k * math.log1p(-q)], k * math.log1p(-q) + np.cumsum(np.log((k - j) / (j + 1)) + math.log(q / (1 - q)))])
    pmf = np.exp(log_pmf - log_pmf.max())
    below = np.cumsum(pmf) / pmf.sum()  # below[i] = P(X <= i)
    tail = (1 - level) / 2
    low = int(np.searchsorted(below, tail, side="right"))  # P(X <= low - 1) <= tail: the largest such low
    high = int(np.searchsorted(below, 1 - tail, side="left")) + 1  # P(X <= high - 1) >= 1 - tail: the smallest
    return estimate, (low if low >= 1 else None), (high if high <= k else None)


def sessions_for_interval(q: float, level: float = 0.95) -> int:
    """Return the fewest values whose ``q`` quantile has both bounds of :func:`quantile_ranks` (``q**k <= (1 - level)/2``)."""
    tail = (1 - level) / 2
    return max(math.ceil(math.log(tail) / math.log(q)), math.ceil(math.log(tail) / math.log(1 - q)))


def bankroll_for_ruin(p: float) -> list[pl.Expr]:
    """Return the smallest starting bankroll whose risk of ruin is at most ``p``, from the sessions, with its 95% interval.

    Each session's ``bankroll_needed`` (:func:`bankroll_needed`) is the
    least bankroll, in whole table minimums, from which it is not known to
    have been ruined (a bet cut to the bankroll is not ruin); a session that
    was ruined counts as needing more than the session's bankroll. The
    estimate is the ``ceil(k(1-p))``-th smallest of the ``k`` sessions'
    figures, so that at most ``p`` of the sessions need more; the interval is
    the exact distribution-free one of that quantile (:func:`quantile_ranks`),
    with at least 95% coverage. Null where the rank falls on a session that
    was ruined (more than the session's bankroll: ``baccarat exact
    --ruin-at-most`` finds it) or where the sessions are too few for the bound.
    """
    name = f"bankroll_for_ruin_{round(p * 100)}pct"
    needs = pl.col("bankroll_needed").sort(nulls_last=True)

    def rank(which: int) -> pl.Expr:  # 1-based rank -> the order statistic, null where there is none
        index = pl.len().map_batches(
            lambda k: pl.Series([(lambda r: -1 if r is None else r - 1)(quantile_ranks(int(k[0]), 1 - p)[which])]),
            return_dtype=pl.Int64,
            returns_scalar=True,
        )
        inside = (index >= 0) & (index < pl.len())
        return pl.when(inside).then(needs.get(index.clip(0, pl.len() - 1)))

    return [rank(0).alias(name), rank(1).alias(f"{name}_ci_low"), rank(2).alias(f"{name}_ci_high")]


def summary_table(sessions: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """Return one summary row per strategy (in the order of ``sessions``) from :func:`session_table`.

    Realised ``edge`` is ``-net / wagered`` (null when nothing was wagered),
    its 95% interval ``edge +- 1.96 * se`` with the delta-method standard
    error of the ratio clustered by session (:func:`ratio_se`). Shares
    (``risk_of_ruin``, ``sessions_in_profit``) are fractions of sessions,
    each with its 95% Wilson interval (:func:`wilson_interval`).
    ``bankroll_for_ruin_*`` are :func:`bankroll_for_ruin` (null for a
    session table without ``bankroll_needed``). Every figure is made from
    exact aggregates of the sessions (:class:`~baccarat.results.statistics.tallies.SessionTally`:
    integer sums of money, exact histograms for medians and quantiles, the
    sessions' floats summed exactly), one strategy's rows read at a time; a
    run folds the same aggregates as its chunks arrive, so the two give the
    same numbers.
    """
    present = sessions.lazy().collect_schema().names()
    columns = [name for name in TALLIED_COLUMNS if name in present]  # a table made by hand may lack some (none: not known)
    return summary_of_tallies([(name, tally_sessions(rows)) for name, rows in strategy_rows(sessions, *columns)])


TALLIED_COLUMNS = tuple(name for name in SESSION_COLUMNS if name not in ("strategy", "session", "peak", "ruined", "stopped_by"))
"""The session table's columns a :class:`~baccarat.results.statistics.tallies.SessionTally` adds up."""


def tally_sessions(rows: pl.DataFrame) -> SessionTally:
    """Return the exact aggregates of one strategy's rows of the session table (:data:`TALLIED_COLUMNS`)."""
    tally = SessionTally()
    tally.add(*session_values(rows))
    return tally


def units(micros: int) -> float:
    """Return an exact amount in micro-units as the nearest float of its units."""
    return micros / MICROS


def decimal(micros: int | None) -> Decimal | None:
    """Return an amount in micro-units as an exact decimal (None stays None)."""
    return None if micros is None else Decimal(micros).scaleb(-6)


def wilson_of(successes: int, n: int) -> tuple[float | None, float | None]:
    """Return :func:`wilson_interval` of counts, computed by the very same expressions."""
    low, high = wilson_interval(pl.col("s"), pl.col("n"))
    return pl.DataFrame({"s": [successes], "n": [n]}).select(low.alias("low"), high.alias("high")).row(0)


def ruin_bankrolls(tally: SessionTally, p: float) -> list[int | None]:
    """Return :func:`bankroll_for_ruin` (estimate, low, high; micro-units) from a tally's histogram of ``bankroll_needed``."""
    found = []
    for rank in quantile_ranks(tally.sessions, 1 - p):
        index = -1 if rank is None else rank - 1  # unknown figures sort last
        inside = 0 <= index < tally.needed.total
        found.append(int(tally.needed.ranked([index])[0]) if inside else None)
    return found


def _ratio_se(tally: SessionTally) -> float | None:
    """:func:`ratio_se` of ``-net`` over ``wagered`` from exact sums: the spread ``Σ(num - ratio·den)²`` is exact."""
    n, w = tally.net, tally.wagered
    if tally.sessions < 2 or w == 0:
        return None
    (nn, nw), (_, ww) = tally.moments
    spread = (w * w * nn - 2 * n * w * nw + n * n * ww) / (w * w * MICROS * MICROS)
    k = float(tally.sessions)
    return math.sqrt(k / (k - 1) * spread) / abs(units(w))


def _summary_row(label: str, tally: SessionTally, pricing: Pricing | None = None) -> dict[str, object]:
    """The summary row of one strategy's tally (see :func:`summary_table`)."""
    n = tally.sessions
    wagered = units(tally.wagered)
    edge = -units(tally.net) / wagered if tally.wagered > 0 else None
    se = _ratio_se(tally)
    expected = tally.expected.value() if tally.expected_known else None
    expected_edge = -expected / wagered if expected is not None and tally.wagered > 0 else None
    expected_se = expected_edge_se(tally) if expected_edge is not None else None
    ruined_rounds = int((tally.ruin_rounds.values * tally.ruin_rounds.counts).sum())
    ruin_low, ruin_high = wilson_of(tally.ruined, n)
    profit_low, profit_high = wilson_of(tally.in_profit, n)
    row: dict[str, object] = {
        "strategy": label,
        "sessions": n,
        "rounds": tally.rounds,
        "wagered": decimal(tally.wagered),
        "net": decimal(tally.net),
        "final_bankroll_mean": units(tally.final_sum) / n,
        "final_bankroll_median": median_of(tally.finals, money_floats(tally.finals.values)),
        "edge": edge,
        "edge_ci_low": None if edge is None or se is None else edge - Z95 * se,
        "edge_ci_high": None if edge is None or se is None else edge + Z95 * se,
        "expected_net": expected,
        "expected_edge": expected_edge,
        "expected_edge_ci_low": None if expected_se is None else expected_edge - Z95 * expected_se,
        "expected_edge_ci_high": None if expected_se is None else expected_edge + Z95 * expected_se,
        "risk_of_ruin": tally.ruined / n,
        "risk_of_ruin_ci_low": ruin_low,
        "risk_of_ruin_ci_high": ruin_high,
        "rounds_to_ruin_mean": float(ruined_rounds) / tally.ruined if tally.ruined else None,
        "rounds_to_ruin_median": median_of(tally.ruin_rounds),
        "max_drawdown": decimal(tally.drawdown_max),
        "max_drawdown_mean": units(tally.drawdown_sum) / n,
        "longest_losing_streak": tally.streak_max,
        "max_stake": decimal(tally.stake_max),
        "capped_bets": tally.capped,
        "sessions_in_profit": tally.in_profit / n,
        "sessions_in_profit_ci_low": profit_low,
        "sessions_in_profit_ci_high": profit_high,
        **_pace_figures(tally, pricing, expected),
    }
    notes = small_sample_notes(n)
    for p in RUIN_TARGETS:
        name = f"bankroll_for_ruin_{round(p * 100)}pct"
        found = ruin_bankrolls(tally, p)
        for suffix, micros in zip(("", "_ci_low", "_ci_high"), found, strict=True):
            row[name + suffix] = decimal(micros)
        if found[0] is None:
            notes.append(
                f"bankroll for ruin at most {round(p * 100)}%: more than the session's bankroll; baccarat exact --ruin-at-most finds it"
            )
    row["notes"] = "; ".join(notes) or None
    return row


SUMMARY_SCHEMA = {
    name: pl.String
    if name in ("strategy", "notes")
    else pl.Int64
    if name in ("sessions", "rounds", "longest_losing_streak", "capped_bets")
    else MONEY
    if name in ("wagered", "net", "max_drawdown", "max_stake", "rebates") or name.startswith("bankroll_for_ruin")
    else pl.Float64
    for name in SUMMARY_COLUMNS
}
"""Types of the columns of ``summary.csv``."""


def summary_of_tallies(tallies: Sequence[tuple[str, SessionTally]], pricing: Pricing | None = None) -> pl.DataFrame:
    """Return :func:`summary_table` from each strategy's exact aggregates (strategies without a session give no row).

    ``pricing`` gives the rebates and the table's pace (without it: no rebate, :data:`HANDS_PER_HOUR`).
    """
    rows = [_summary_row(label, tally, pricing) for label, tally in tallies if tally.sessions]
    summary = pl.DataFrame(rows, schema=SUMMARY_SCHEMA, orient="row")
    # NaN: a bet whose expected value is not known (docs/results.md); shown empty, as any unknown figure
    unknown = ("expected_net", "expected_edge", "expected_edge_ci_low", "expected_edge_ci_high", "expected_loss_per_session")
    return summary.with_columns(pl.col(*unknown, "expected_loss_per_hour").fill_nan(None))


def strategies_of(frame: pl.DataFrame | pl.LazyFrame) -> list[str]:
    """Return the strategies of a table (or a lazy scan of one) with a ``strategy`` column, in order of first appearance."""
    # Streaming: a scan of a large run's sessions.parquet is read in batches, not as a column of every session.
    return frame.lazy().select(pl.col("strategy").unique(maintain_order=True)).collect(engine="streaming").to_series().to_list()


def strategy_rows(frame: pl.DataFrame | pl.LazyFrame, *columns: str) -> Iterator[tuple[str, pl.DataFrame]]:
    """Yield each strategy (in order of first appearance) with its rows of ``columns`` only.

    One strategy's columns are in memory at a time: a ``group_by`` would
    hold every group, with every column, at once.
    """
    lazy = frame.lazy()
    for name in strategies_of(frame):
        yield name, lazy.filter(pl.col("strategy") == name).select(columns).collect(engine="streaming")


def by_strategy(
    frame: pl.DataFrame | pl.LazyFrame,
    aggregations: list[pl.Expr],
    join: Callable[[pl.LazyFrame], pl.LazyFrame] | None = None,
    strategies: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Return one row of ``aggregations`` per strategy, in the order of ``frame`` (as ``group_by(...).agg`` would).

    Strategies are taken one at a time (``join`` applied to each one's rows
    first, lazily), in a select: memory holds the columns the aggregations
    read of one strategy's rows, not lists per group. ``frame`` may be a lazy
    scan of a file (a run's ``sessions.parquet``), read strategy by strategy.
    ``strategies``, when given, are those taken (default: every one).
    """
    lazy = frame.lazy()
    read = sorted({column for expr in aggregations for column in expr.meta.root_names()}) or ["strategy"]
    frames = []
    for name in strategies_of(lazy) if strategies is None else strategies:
        part = lazy.filter(pl.col("strategy") == name)
        if join is not None:
            part = join(part)
        # Only the columns read (streamed from a large run's sessions.parquet), each in one piece: a frame in
        # memory and a scan of a file give the same floats.
        rows = part.select(read).collect(engine="streaming").rechunk()
        # One aggregation at a time: polars would evaluate them side by side, each with temporaries of every row.
        columns = [rows.select(aggregation) for aggregation in aggregations]
        frames.append(pl.concat([pl.DataFrame({"strategy": [name]}, schema={"strategy": pl.String}), *columns], how="horizontal"))
    if not frames:
        empty = lazy.clear() if join is None else join(lazy.clear())
        return empty.group_by("strategy", maintain_order=True).agg(aggregations).collect()
    return pl.concat(frames)

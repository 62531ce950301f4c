"""Independent references computed from the ledger, in polars and numpy: the statistics collector is held to them.

The framework makes every statistic one way, from sessions folded as they
arrive (:mod:`baccarat.results.statistics.folded`); these functions make the
same figures another way, straight from the ledger (a frame or a lazy scan):
the session table by polars aggregations, the bands by numpy's percentiles
of every session's bankroll, the ruin curve and the final bankrolls'
percentiles from the session table, the sample paths from the ledger's rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import polars as pl

from baccarat.compiling import plays_compiled
from baccarat.money import MICROS_PER_UNIT as MICROS
from baccarat.results.comparisons.strategies import paired_comparison
from baccarat.results.ledger import MONEY, money_micros
from baccarat.results.statistics.ledger_stats import SESSION_COLUMNS, Ledger, money, strategy_order, strategy_rows, summary_table
from baccarat.results.statistics.round_counts import BAND_PERCENTILES, curve_rounds
from baccarat.results.statistics.ruin_threshold import ruin_thresholds
from baccarat.results.statistics.tallies import exact_sum

BATCH_ROWS = 1_000_000
"""Ledger rows folded at once by :func:`session_table` (bounds its memory)."""

CURVE_POINTS = 400
"""Most rounds at which :func:`bankroll_bands` evaluates the bankroll's percentiles (the collector's default)."""

BAND_CELLS = 4_000_000
"""Bankroll values (sessions x rounds) held at once by :func:`bankroll_bands`."""

FINAL_QUANTILES = {"min": 0, "p5": 5, "p25": 25, "median": 50, "p75": 75, "p95": 95, "max": 100}


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
        runs.struct.field("len").filter(runs.struct.field("value")).max().fill_null(0).cast(pl.Int64).alias("longest_losing_streak"),
        pl.col("stake").max().alias("max_stake"),
        pl.col("capped").sum().cast(pl.Int64).alias("capped_bets"),
    ]


def bankroll_needed(rows: pl.DataFrame, initial: Decimal, table_min: Decimal) -> pl.DataFrame:
    """Return each session's ``bankroll_needed`` (``strategy``, ``session``, ``bankroll_needed``) from its ledger rows.

    The least starting bankroll, in whole table minimums (the grid of
    ``baccarat exact --ruin-at-most``), from which the session is not ruined
    when replayed with the same outcomes and stakes: every bankroll is
    ``initial - B`` lower until a stake exceeds the bankroll before it; such a
    bet is cut to the whole bankroll, and ruins the session when it loses (a
    cut bet is not a failure in itself). Null (more than the session's
    bankroll) for a session ruined from its own bankroll. The kernel is the
    one the run folds with (:mod:`baccarat.results.statistics.ruin_threshold`),
    so both give the same figures; ``rows`` are ledger rows (``strategy``,
    ``session``, ``round``, ``stake``, ``net``, ``bankroll``) of whole sessions.
    """
    rows = rows.sort("strategy", "session", "round")
    keys = rows.select("strategy", "session")
    n = rows.height
    changed = (keys.get_column("session") != keys.get_column("session").shift(1)) | (
        keys.get_column("strategy") != keys.get_column("strategy").shift(1)
    )
    starts = np.flatnonzero(changed.fill_null(True).to_numpy()) if n else np.zeros(0, dtype=np.int64)
    lengths = np.diff(np.append(starts, n))
    micros = {name: money_micros(rows.get_column(name), 0) for name in ("stake", "net", "bankroll")}
    needed = ruin_thresholds(
        starts,
        lengths,
        micros["stake"],
        micros["net"],
        micros["bankroll"],
        int(initial * MICROS),
        int(table_min * MICROS),
        plays_compiled(n),
    )
    found = (keys[starts] if n else keys.clear()).with_columns(pl.Series("micros", needed, dtype=pl.Int64))
    known = pl.when(pl.col("micros") >= 0).then(pl.col("micros"))
    return found.select("strategy", "session", (known.cast(MONEY) / 1_000_000).cast(MONEY).alias("bankroll_needed"))


def session_table(
    ledger: Ledger,
    initial_bankroll: Decimal | int | str,
    table_min: Decimal | int | str,
    batch_rows: int = BATCH_ROWS,
    stops: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Fold the ledger into one row per strategy and session, sorted by strategy order then session.

    Columns: ``strategy``, ``session``, ``rounds_dealt`` (ledger rows),
    ``rounds`` (rounds with a bet), ``wagered``, ``net``, ``expected_net``
    (null when the ledger has no ``expected_net``), ``final_bankroll``,
    ``peak`` (highest bankroll of the session, the initial one included),
    ``ruined``, ``rounds_to_ruin`` (round after which the bankroll first fell
    below the table minimum, 0 when it started below, null when never),
    ``max_drawdown`` (peak-to-trough, the initial bankroll counting as a
    peak), ``longest_losing_streak`` (pushes and sit-outs skipped),
    ``max_stake``, ``capped_bets``, ``stopped_by``, ``bankroll_needed``
    (:func:`bankroll_needed`). Money columns stay exact decimals.

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
            needed = bankroll_needed(batch.select("strategy", "session", "round", "stake", "net", "bankroll").collect(), initial, minimum)
            frames.append(batch.group_by("strategy", "session").agg(aggregates).collect().join(needed, on=["strategy", "session"]))
    if not frames:
        empty = lf.group_by("strategy", "session").agg(aggregates).collect()
        frames.append(empty.with_columns(pl.lit(None, dtype=MONEY).alias("bankroll_needed")))
    table = pl.concat(frames)
    order = pl.col("strategy").replace_strict(strategies, list(range(len(strategies))), default=len(strategies))
    table = table.sort(order, "session")
    if stops is None:
        table = table.with_columns(pl.lit(None, dtype=pl.String).alias("stopped_by"))
    else:
        table = table.join(
            stops.select("strategy", "session", pl.col("stopped_by").cast(pl.String)),
            on=["strategy", "session"],
            how="left",
            maintain_order="left",
        )
    money_columns = [
        pl.col(name).cast(MONEY) for name in ("wagered", "net", "final_bankroll", "peak", "max_drawdown", "max_stake", "bankroll_needed")
    ]
    return table.with_columns(pl.col("rounds_to_ruin").is_not_null().alias("ruined"), *money_columns).select(SESSION_COLUMNS)


def band_means(micros: np.ndarray, axis: int) -> np.ndarray:
    """The mean bankroll of each round from the sessions' bankrolls in micro-units: their exact sum over ``axis``, divided once.

    Both ways of computing the bands (from the ledger here, from the run's spool in
    :mod:`baccarat.results.statistics.folded`) call it, so their means are the same floats.
    """
    sessions = micros.shape[axis]
    return micros.sum(axis=axis) / sessions / 1e6


def bankroll_bands(
    ledger: Ledger, sessions: pl.DataFrame, initial_bankroll: Decimal | int | str, points: int = 400, cells: int = 4_000_000
) -> pl.DataFrame:
    """Return percentiles of the bankroll over sessions after each round, per strategy.

    Columns ``strategy``, ``round`` (0 is the start), ``p5``, ``p25``,
    ``p50``, ``p75``, ``p95``, ``mean`` (shown beside the median: a
    progression's median can rise while its mean falls). A session that has ended keeps its final
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
        means = [initial]
        for start in range(0, len(grid), chunk):
            part = grid[start : start + chunk]
            values = (
                lf.filter((pl.col("strategy") == label) & pl.col("round").is_in(part.tolist()))
                .select("session", "round", pl.col("bankroll").cast(pl.Float64))
                .collect()
            )
            matrix = np.full((len(ids), len(part)), np.nan)
            matrix[
                np.searchsorted(ids, values.get_column("session").to_numpy()), np.searchsorted(part, values.get_column("round").to_numpy())
            ] = values.get_column("bankroll").to_numpy()
            matrix = np.where(last[:, None] < part[None, :], final[:, None], matrix)
            rows.extend(np.nanpercentile(matrix, BAND_PERCENTILES, axis=0).T)
            means.extend(band_means(np.rint(matrix * 1e6).astype(np.int64), axis=0))
        table = np.asarray(rows)
        frames.append(
            pl.DataFrame(
                {
                    "strategy": [label] * len(table),
                    "round": np.concatenate([[0], grid]),
                    **{n: table[:, i] for i, n in enumerate(names)},
                    "mean": np.asarray(means, dtype=np.float64),
                }
            )
        )
    if not frames:
        return pl.DataFrame(schema={"strategy": pl.String, "round": pl.Int64, **{n: pl.Float64 for n in names}, "mean": pl.Float64})
    return pl.concat(frames)


def ruin_curve(sessions: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """Return the share of sessions ruined by each round, per strategy: ``strategy``, ``round`` (from 0), ``ruined``."""
    frames = []
    for strategy, group in strategy_rows(sessions, "rounds_dealt", "rounds_to_ruin"):
        count = group.height
        horizon = int(group.get_column("rounds_dealt").max() or 0)
        ruin = group.get_column("rounds_to_ruin").drop_nulls().to_numpy().astype(np.int64)
        ruined = np.cumsum(np.bincount(ruin, minlength=horizon + 1)[: horizon + 1]) / count
        frames.append(
            pl.DataFrame({"strategy": [strategy] * (horizon + 1), "round": np.arange(horizon + 1, dtype=np.int64), "ruined": ruined})
        )
    if not frames:
        return pl.DataFrame(schema={"strategy": pl.String, "round": pl.Int64, "ruined": pl.Float64})
    return pl.concat(frames)


def sample_paths(
    ledger: Ledger,
    sessions: pl.DataFrame | pl.LazyFrame,
    initial_bankroll: Decimal | int | str,
    count: int = 5,
    chosen: list[int] | None = None,
) -> pl.DataFrame:
    """Return the bankroll path of the first ``count`` sessions of every strategy (round 0 is the start).

    Columns ``strategy``, ``session``, ``round``, ``bankroll`` (float). ``chosen``, when given, are those
    first sessions' numbers, known already (a run gathers them as its chunks arrive).
    """
    if chosen is None:
        chosen = sessions.lazy().select(pl.col("session").unique().sort().head(count)).collect().to_series().to_list()
    paths = (
        ledger.lazy()
        .filter(pl.col("session").is_in(chosen))
        .select("strategy", "session", pl.col("round").cast(pl.Int64), pl.col("bankroll").cast(pl.Float64))
        .collect()
    )
    starts = (
        sessions.lazy()
        .filter(pl.col("session").is_in(chosen))
        .select(
            "strategy", "session", pl.lit(0, dtype=pl.Int64).alias("round"), pl.lit(float(Decimal(str(initial_bankroll)))).alias("bankroll")
        )
        .collect()
    )
    return pl.concat([starts, paths]).sort("session", "round", maintain_order=True)


def final_quantiles(sessions: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """Return the final bankroll's percentiles (:data:`FINAL_QUANTILES`), mean and session count, one row per strategy."""
    found = []
    for name, part in strategy_rows(sessions, "final_bankroll"):  # one strategy's finals at a time, for every percentile
        micros = money_micros(part.get_column("final_bankroll"))
        figures = dict(zip(FINAL_QUANTILES, np.percentile(micros / 1e6, list(FINAL_QUANTILES.values())).tolist(), strict=True))
        mean = exact_sum(micros) / (len(micros) * 10**6)  # the exact mean, rounded once
        found.append({"strategy": name, **figures, "mean": mean, "sessions": len(micros)})
    schema = {"strategy": pl.String, **dict.fromkeys(FINAL_QUANTILES, pl.Float64), "mean": pl.Float64, "sessions": pl.Int64}
    return pl.DataFrame(found, schema=schema)


def summarize(ledger: Ledger, initial_bankroll: Decimal | int | str, table_min: Decimal | int | str) -> pl.DataFrame:
    """Return ``summary.csv`` of a ledger: ``summary_table`` of :func:`session_table`."""
    return summary_table(session_table(ledger, initial_bankroll, table_min))


@dataclass
class ReferenceAnalysis:
    """Every frame of a run's analysis, made from its ledger by the references above."""

    sessions: pl.DataFrame
    summary: pl.DataFrame
    comparison: pl.DataFrame
    bands: pl.DataFrame
    ruin: pl.DataFrame
    finals: pl.DataFrame
    paths: pl.DataFrame


def reference_analysis(
    ledger: Ledger,
    initial_bankroll: Decimal | int | str,
    table_min: Decimal | int | str,
    baseline: str | None = None,
    stops: pl.DataFrame | None = None,
    fixed: dict[str, str | None] | None = None,
    points: int | None = None,
    cells: int | None = None,
) -> ReferenceAnalysis:
    """Return every frame of the analysis of ``ledger`` as the references make them (bands at most at ``points`` rounds,
    default :data:`CURVE_POINTS`, holding at most ``cells`` bankrolls at once, default :data:`BAND_CELLS`)."""
    points = CURVE_POINTS if points is None else points
    cells = BAND_CELLS if cells is None else cells
    sessions = session_table(ledger, initial_bankroll, table_min, stops=stops)
    return ReferenceAnalysis(
        sessions=sessions,
        summary=summary_table(sessions),
        comparison=paired_comparison(sessions, baseline, fixed),
        bands=bankroll_bands(ledger, sessions, initial_bankroll, points, cells),
        ruin=ruin_curve(sessions),
        finals=final_quantiles(sessions),
        paths=sample_paths(ledger, sessions, initial_bankroll),
    )

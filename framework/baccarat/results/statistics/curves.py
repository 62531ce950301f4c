"""Aggregates the charts draw: bankroll bands over sessions, the ruin curve, a few sample paths, the final bankrolls' percentiles."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from baccarat.results.statistics.ledger_stats import Ledger, strategy_rows

if TYPE_CHECKING:
    from baccarat.results.statistics.tallies import SessionTally

BAND_CELLS = 4_000_000
"""Bankroll values (sessions x rounds) held at once by :func:`bankroll_bands`."""

CURVE_POINTS = 400
"""Most rounds at which :func:`bankroll_bands` evaluates the bankroll quantiles."""

BAND_PERCENTILES = (5, 25, 50, 75, 95)
"""Percentiles of the bankroll drawn as the median and its two bands."""


def curve_rounds(max_round: int, points: int = CURVE_POINTS) -> np.ndarray:
    """Return the rounds (from 1) at which bankroll bands are evaluated: all of them, or ``points`` spread evenly."""
    if max_round <= points:
        return np.arange(1, max_round + 1, dtype=np.int64)
    return np.unique(np.linspace(1, max_round, points).round().astype(np.int64))


def band_means(micros: np.ndarray, axis: int) -> np.ndarray:
    """The mean bankroll of each round from the sessions' bankrolls in micro-units: their exact sum over ``axis``, divided once.

    Both ways of computing the bands (from the ledger here, from the run's spool in
    :mod:`baccarat.results.statistics.folded`) call it, so their means are the same floats.
    """
    sessions = micros.shape[axis]
    return micros.sum(axis=axis) / sessions / 1e6


def bankroll_bands(
    ledger: Ledger, sessions: pl.DataFrame, initial_bankroll: Decimal | int | str, points: int = CURVE_POINTS, cells: int = BAND_CELLS
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


def ruin_curve_of_tallies(tallies: Sequence[tuple[str, SessionTally]]) -> pl.DataFrame:
    """Return :func:`ruin_curve` from each strategy's exact aggregates (its histogram of rounds to ruin)."""
    frames = []
    for strategy, tally in tallies:
        horizon = tally.longest_session
        ruined = np.zeros(horizon + 1, dtype=np.int64)
        kept = tally.ruin_rounds.values <= horizon
        np.add.at(ruined, tally.ruin_rounds.values[kept], tally.ruin_rounds.counts[kept])
        frames.append(
            pl.DataFrame(
                {
                    "strategy": [strategy] * (horizon + 1),
                    "round": np.arange(horizon + 1, dtype=np.int64),
                    "ruined": np.cumsum(ruined) / tally.sessions,
                }
            )
        )
    if not frames:
        return pl.DataFrame(schema={"strategy": pl.String, "round": pl.Int64, "ruined": pl.Float64})
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


FINAL_QUANTILES = {"min": 0, "p5": 5, "p25": 25, "median": 50, "p75": 75, "p95": 95, "max": 100}
"""Percentiles of the final bankroll a chart draws, by column name."""


def final_quantiles(sessions: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """Return the final bankroll's percentiles (:data:`FINAL_QUANTILES`), mean and session count, one row per strategy."""
    from baccarat.results.statistics.ledger_stats import money_micros
    from baccarat.results.statistics.tallies import exact_sum

    found = []
    for name, part in strategy_rows(sessions, "final_bankroll"):  # one strategy's finals at a time, for every percentile
        micros = money_micros(part.get_column("final_bankroll"))
        figures = dict(zip(FINAL_QUANTILES, np.percentile(micros / 1e6, list(FINAL_QUANTILES.values())).tolist(), strict=True))
        mean = exact_sum(micros) / (len(micros) * 10**6)  # the exact mean, rounded once
        found.append({"strategy": name, **figures, "mean": mean, "sessions": len(micros)})
    schema = {"strategy": pl.String, **dict.fromkeys(FINAL_QUANTILES, pl.Float64), "mean": pl.Float64, "sessions": pl.Int64}
    return pl.DataFrame(found, schema=schema)


def final_quantiles_of_tallies(tallies: Sequence[tuple[str, SessionTally]]) -> pl.DataFrame:
    """Return :func:`final_quantiles` from each strategy's exact aggregates (its histogram of final bankrolls).

    The percentiles are numpy's of every session's final bankroll, bit for
    bit; the mean is the exact sum's, rounded once.
    """
    from baccarat.results.statistics.tallies import money_floats, percentiles_of_counts

    found = []
    for name, tally in tallies:
        floats = money_floats(tally.finals.values)
        figures = percentiles_of_counts(floats, tally.finals.counts, list(FINAL_QUANTILES.values())).tolist()
        mean = tally.final_sum / (tally.sessions * 10**6)
        found.append({"strategy": name, **dict(zip(FINAL_QUANTILES, figures, strict=True)), "mean": mean, "sessions": tally.sessions})
    schema = {"strategy": pl.String, **dict.fromkeys(FINAL_QUANTILES, pl.Float64), "mean": pl.Float64, "sessions": pl.Int64}
    return pl.DataFrame(found, schema=schema)

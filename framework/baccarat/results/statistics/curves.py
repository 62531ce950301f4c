"""Aggregates the charts draw from a run's tallies: the ruin curve and the final bankrolls' percentiles.

The bankroll bands are read off exact per-round counts (:mod:`baccarat.results.statistics.round_counts`), the sample
paths kept as the sessions arrive (:class:`baccarat.results.statistics.folded.RunStatsCollector`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from baccarat.results.statistics.tallies import SessionTally, money_floats, percentiles_of_counts


def ruin_curve(tallies: Sequence[tuple[str, SessionTally]]) -> pl.DataFrame:
    """Return the share of sessions ruined by each round, per strategy: ``strategy``, ``round`` (from 0), ``ruined``.

    From each strategy's exact aggregates (its histogram of rounds to ruin), up to its longest session.
    """
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


FINAL_QUANTILES = {"min": 0, "p5": 5, "p25": 25, "median": 50, "p75": 75, "p95": 95, "max": 100}
"""Percentiles of the final bankroll a chart draws, by column name."""


def final_quantiles(tallies: Sequence[tuple[str, SessionTally]]) -> pl.DataFrame:
    """Return the final bankroll's percentiles (:data:`FINAL_QUANTILES`), mean and session count, one row per strategy.

    From each strategy's exact aggregates (its histogram of final bankrolls): the percentiles are numpy's of every
    session's final bankroll, bit for bit; the mean is the exact sum's, rounded once.
    """
    found = []
    for name, tally in tallies:
        floats = money_floats(tally.finals.values)
        figures = percentiles_of_counts(floats, tally.finals.counts, list(FINAL_QUANTILES.values())).tolist()
        mean = tally.final_sum / (tally.sessions * 10**6)
        found.append({"strategy": name, **dict(zip(FINAL_QUANTILES, figures, strict=True)), "mean": mean, "sessions": tally.sessions})
    schema = {"strategy": pl.String, **dict.fromkeys(FINAL_QUANTILES, pl.Float64), "mean": pl.Float64, "sessions": pl.Int64}
    return pl.DataFrame(found, schema=schema)

"""A run's statistics as 100,000 sessions of 12 strategies would give them, from a small real run (for report sizes and times).

The aggregates the charts draw do not grow with the number of sessions (the
bands are evaluated at most at 400 rounds, the sample paths are 5 sessions,
the ruin curve one row per round), except the session table: so a small
real run with long sessions gives the bands, paths and ruin curve, and its
session table, repeated under new session ids, gives the rest. The summary,
comparison and ruin curve are computed from that table as a run computes them.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

import baccarat
from baccarat.results.comparisons.strategies import paired_comparison
from baccarat.results.report.analysis import Analysis
from baccarat.results.statistics.ledger_stats import summary_table
from helpers.ledger_reference import final_quantiles, ruin_curve

UNITS = ("flat", "martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind", "grand-martingale")


def small_run(out: Path, strategies: int = 12, shoes_per_session: int = 8) -> baccarat.Result:
    """A real run of ``strategies`` strategies over two sessions of ``shoes_per_session`` shoes (about 640 rounds each)."""
    experiment = {
        "name": f"large-{strategies}",
        "shoes": {"seed": 9, "count": 2 * shoes_per_session},
        "session": {"bankroll": 1000, "shoes_per_session": shoes_per_session, "table_min": 10, "table_max": 2000},
        "strategies": [
            {
                "name": f"{UNITS[i % len(UNITS)]}[unit=10,side={('banker', 'player')[i % 2]},n={i}]",
                "use": UNITS[i % len(UNITS)],
                "params": {"side": ("banker", "player")[i % 2], "unit": 10},
            }
            for i in range(strategies)
        ],
    }
    return baccarat.run(experiment, out=out)


def large_analysis(run: baccarat.Result, sessions: int = 100_000) -> Analysis:
    """The run's analysis with its session table repeated to ``sessions`` sessions per strategy."""
    small = run.analysis
    table = small.sessions
    per_strategy = table.group_by("strategy").len().get_column("len").max()
    copies = -(-sessions // per_strategy)
    copy = pl.DataFrame({"copy": range(copies)}, schema={"copy": pl.Int64})
    big = (
        table.join(copy, how="cross")
        .with_columns((pl.col("session") + pl.col("copy") * per_strategy).alias("session"))
        .drop("copy")
        .filter(pl.col("session") <= sessions)
        .sort("strategy", "session", maintain_order=True)
    )
    order = table.get_column("strategy").unique(maintain_order=True).to_list()
    big = big.sort(pl.col("strategy").replace_strict(order, list(range(len(order)))), "session")
    return Analysis(
        _sessions=big,
        _summary=summary_table(big),
        _comparison=paired_comparison(big, None),
        _bands=small.bands,
        ruin=ruin_curve(big),
        _paths=small.paths,
        initial_bankroll=small.initial_bankroll,
        table_min=small.table_min,
        _finals=final_quantiles(big),
    )

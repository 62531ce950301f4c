"""The framework's statistics of a ledger made by hand: the ledger replayed through the statistics collector.

What ``baccarat report`` and ``baccarat.load`` do with a saved run's ledger, for ledgers that tests write by hand
(:mod:`helpers.ledger_reference` makes the same figures independently, from the ledger).
"""

from __future__ import annotations

from decimal import Decimal

import polars as pl

from baccarat.results.collected import results_of
from baccarat.results.report.analysis import Analysis, analyse
from baccarat.results.statistics.folded import RunStatsCollector
from baccarat.results.statistics.ledger_stats import strategy_order
from baccarat.results.statistics.replay import BATCH_ROWS, replay


def collected(
    ledger: pl.DataFrame | pl.LazyFrame,
    initial_bankroll: Decimal | int | str,
    table_min: Decimal | int | str,
    baseline: str | None = None,
    stops: pl.DataFrame | None = None,
    fixed: dict[str, str | None] | None = None,
    batch_rows: int = BATCH_ROWS,
) -> Analysis:
    """Return the analysis of ``ledger`` (its strategies in order of first appearance) as the collector makes it."""
    initial, minimum = Decimal(str(initial_bankroll)), Decimal(str(table_min))
    has_expected = "expected_net" in ledger.lazy().collect_schema().names()
    collector = RunStatsCollector(None, strategy_order(ledger), has_expected=has_expected, baseline=baseline, fixed=fixed)
    replay(ledger, collector, int(initial * 10**6), int(minimum * 100), stops, batch_rows)
    return analyse(results_of(collector, initial), initial, minimum)


def collected_sessions(
    ledger: pl.DataFrame | pl.LazyFrame, initial_bankroll: Decimal | int | str, table_min: Decimal | int | str, **options
) -> pl.DataFrame:
    """Return the session table of ``ledger`` as the collector makes it."""
    return collected(ledger, initial_bankroll, table_min, **options).sessions


def collected_summary(
    ledger: pl.DataFrame | pl.LazyFrame, initial_bankroll: Decimal | int | str, table_min: Decimal | int | str
) -> pl.DataFrame:
    """Return ``summary.csv`` of ``ledger`` as the collector makes it."""
    return collected(ledger, initial_bankroll, table_min).summary

"""A run's statistics from the collector that folded its sessions: the summary, the comparison with the baseline,
the curves and the bands (what :func:`baccarat.results.report.analysis.analyse` makes an analysis of).

It sits above :mod:`baccarat.results.statistics` and :mod:`baccarat.results.comparisons`, whose tallies it
puts together, so that neither imports the other. A run's collector folds its chunks as they arrive; a saved
run's ledger is replayed through a collector of its own (:func:`replayed`): the same figures either way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl

from baccarat.money import MICROS_PER_CENT, MICROS_PER_UNIT
from baccarat.results.comparisons.strategies import chosen_baseline, comparison_of_tallies
from baccarat.results.statistics import curves
from baccarat.results.statistics.folded import RunStatsCollector
from baccarat.results.statistics.ledger_stats import Pricing, summary_of_tallies
from baccarat.results.statistics.replay import replay


def statistics_of(collector: RunStatsCollector) -> dict[str, Any]:
    """Return what the tallies give: summary, comparison, ruin curve, final bankrolls' percentiles and the sessions
    of the sample paths."""
    played, pairs = collector.tallied()
    # A run without a session has nothing to compare (and no baseline to check).
    baseline = chosen_baseline([label for label, _ in played], collector.baseline) if played else collector.baseline or ""
    return {
        "summary": summary_of_tallies(played, collector.pricing),
        "comparison": comparison_of_tallies(baseline, pairs, collector.fixed),
        "ruin": curves.ruin_curve(played),
        "finals": curves.final_quantiles(played),
        "sample_sessions": collector.first_sessions.tolist(),
    }


def results_of(collector: RunStatsCollector, initial_bankroll: Decimal) -> dict[str, Any]:
    """Return the session table, the statistics of the tallies, and (when the collector counted bankrolls) the bands
    and the sample paths.

    The session table is a scan of the ``sessions.parquet`` just written in the collector's folder
    (``sessions_written``), or a frame when the collector has no folder; with a folder and the bankrolls, the
    per-round counts and sample paths are written there too (``round_counts.parquet``).
    """
    sessions = collector.write_sessions()
    found = {"sessions": sessions, "sessions_written": isinstance(sessions, pl.LazyFrame), **statistics_of(collector)}
    if not collector.bankrolls:
        return found
    collector.write_counts()  # beside sessions.parquet: a saved run's bands are read from it, not counted again
    return {**found, "bands": collector.bands(initial_bankroll), "paths": collector.sample_paths(initial_bankroll)}


def replayed(
    ledger: pl.LazyFrame | pl.DataFrame | Path,
    labels: Sequence[str],
    initial_bankroll: Decimal,
    table_min: Decimal,
    baseline: str | None = None,
    fixed: Mapping[str, str | None] | None = None,
    stops: pl.DataFrame | None = None,
    folder: Path | None = None,
    bankrolls: bool = True,
    sessions: Path | None = None,
    pricing: Pricing | None = None,
    counts: Path | None = None,
) -> dict[str, Any]:
    """Return :func:`results_of` a collector that ``ledger`` (the strategies ``labels``) was replayed through.

    ``ledger`` is best the path of a run's ``ledger.parquet/``, read a chunk at a time
    (:func:`baccarat.results.statistics.replay.replay`).
    ``stops`` give which stop rule ended each session (the ledger does not
    hold it). With ``folder``, the session table is written there as
    ``sessions.parquet``; without, it is held as a frame and nothing is written.
    ``sessions``, the run's own ``sessions.parquet`` (checked against its
    manifest by the caller), is replayed as it is, beside the ledger's bankrolls; with it, ``counts`` (the
    run's own ``round_counts.parquet``, checked the same way) gives the bands and sample paths, and no bankroll
    of the ledger is read.
    """
    scan = pl.scan_parquet(ledger) if isinstance(ledger, Path) else ledger.lazy()
    has_expected = "expected_net" in scan.collect_schema().names()
    collector = RunStatsCollector(
        folder, labels, has_expected=has_expected, bankrolls=bankrolls, baseline=baseline, fixed=fixed, pricing=pricing
    )
    initial_micros = int(Decimal(str(initial_bankroll)) * MICROS_PER_UNIT)
    table_min_cents = int(Decimal(str(table_min)) * MICROS_PER_UNIT) // MICROS_PER_CENT
    try:
        replay(ledger, collector, initial_micros, table_min_cents, stops, sessions=sessions, counts=counts)
    except BaseException:
        collector.session_spool.remove()
        raise
    return results_of(collector, Decimal(str(initial_bankroll)))

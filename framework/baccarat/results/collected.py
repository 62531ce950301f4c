"""A run's statistics from the collector that folded its sessions: the summary, the comparison with the baseline,
the curves and the bands (the keyword arguments of :func:`baccarat.results.report.analysis.write_results`).

It sits above :mod:`baccarat.results.statistics` and :mod:`baccarat.results.comparisons`, whose tallies it
puts together, so that neither imports the other.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from baccarat.results.comparisons.strategies import chosen_baseline, comparison_of_tallies
from baccarat.results.statistics import curves
from baccarat.results.statistics.folded import RunStatsCollector
from baccarat.results.statistics.ledger_stats import summary_of_tallies


def statistics_of(collector: RunStatsCollector) -> dict[str, Any]:
    """Return what the tallies give: summary, comparison, ruin curve, final bankrolls' percentiles and the sessions
    of the sample paths."""
    played, pairs = collector.tallied()
    baseline = chosen_baseline([label for label, _ in played], collector.baseline)
    return {
        "summary": summary_of_tallies(played),
        "comparison": comparison_of_tallies(baseline, pairs, collector.fixed),
        "ruin": curves.ruin_curve_of_tallies(played),
        "finals": curves.final_quantiles_of_tallies(played),
        "sample_sessions": collector.first_sessions.tolist(),
    }


def results_of(collector: RunStatsCollector, initial_bankroll: Decimal) -> dict[str, Any]:
    """Return the session table, the statistics of the tallies and the bankroll bands.

    The session table is a scan of the ``sessions.parquet`` just written (``sessions_written``). The bands come as
    a function that computes them from the spools and then removes the spools, for
    :func:`baccarat.results.report.analysis.analyse` to call in the background.
    """
    try:
        sessions = collector.write_sessions()
        found = {"sessions": sessions, "sessions_written": True, **statistics_of(collector)}
    except BaseException:
        collector.spool.remove()
        raise
    if not collector.bankrolls:
        return found
    return {**found, "bands": lambda: collector.bands(initial_bankroll), "paths": collector.sample_paths(initial_bankroll)}

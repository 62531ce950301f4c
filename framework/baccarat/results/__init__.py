"""Results: the ledger, and by job the statistics, the comparisons, the charts and the report of a run.

Its parts import only downward, in this order (``tests/test_architecture.py``): the ledger, its checks and the
formatting; statistics; comparisons; ``collected``; charts; the report.

- :mod:`~baccarat.results.ledger`: ledger frames: engine columns to Arrow and polars, exact Decimal money, Parquet
  on disk.
- :mod:`~baccarat.results.ledger_checks`: what a saved ledger and session table must say, checked where they are read.
- :mod:`~baccarat.results.formatting`: figures as people read them: money, percentages, counts, intervals, the
  one-screen summary, JSON-ready rows.
- :mod:`~baccarat.results.statistics`: statistics of a run, from the ledger (``ledger_stats``) or folded while the
  run plays (``folded``), and the per-round curves (``curves``).
- :mod:`~baccarat.results.comparisons`: each strategy of a run against its baseline (``strategies``), and saved
  runs side by side (``runs``, what ``baccarat compare`` prints).
- :mod:`~baccarat.results.collected`: a run's statistics put together from the collector that folded its sessions.
- :mod:`~baccarat.results.charts`: the charts of a run and the roads scoreboard, as Vega-Altair charts.
- :mod:`~baccarat.results.report`: the run's tables and self-contained HTML report (``analysis``, ``run_analysis``,
  ``html``), and the plain facts a report states about a run (``run_facts``).

The manifest of a run folder is the execution layer's, beside the run folder it describes
(:mod:`baccarat.execution.manifest`).
"""

__all__ = ["charts", "collected", "comparisons", "formatting", "ledger", "ledger_checks", "report", "statistics"]

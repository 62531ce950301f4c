"""Results: the ledger, statistics, plots, the report, comparison of runs, the manifest of a run folder.

- :mod:`~baccarat.results.chart_drawing`: draw a chart as a PNG with Pillow: antialiased by drawing at twice the
  size, translucent bands composited, ticks stepping by 1, 2 or 5.
- :mod:`~baccarat.results.charts`: charts as plain objects: what a plot draws, readable by tests and users, drawn
  as PNG with Pillow.
- :mod:`~baccarat.results.compare`: compare saved runs: their summaries side by side, paired when they played the
  very same rounds.
- :mod:`~baccarat.results.comparisons`: each strategy against a baseline: paired session by session when they met
  the same rounds, else as independent samples.
- :mod:`~baccarat.results.curves`: per-round aggregates the plots draw: bankroll bands over sessions, the ruin
  curve, a few sample paths.
- :mod:`~baccarat.results.facts`: the plain facts a report states about a run besides its statistics: what was
  played, on which table, with what money.
- :mod:`~baccarat.results.formatting`: figures as people read them: money, percentages, counts, intervals, the one-
  screen summary, JSON-ready rows.
- :mod:`~baccarat.results.html`: the self-contained HTML report of a run: its sections, tables and embedded images,
  from the analysis and the run's facts.
- :mod:`~baccarat.results.ledger`: ledger frames: engine columns to Arrow and polars, exact Decimal money, Parquet
  on disk.
- :mod:`~baccarat.results.manifest`: the files of a run folder, as its `manifest.json` records them, and the checks
  made against that record.
- :mod:`~baccarat.results.plots`: plots of a run as charts: bankroll curves, final bankrolls, ruin over rounds,
  paired comparison, the exact analysis.
- :mod:`~baccarat.results.report`: results of a run: statistics, plots and a self-contained HTML report, from the
  ledger.
- :mod:`~baccarat.results.roads_plot`: draw a shoe's roads as a scoreboard PNG (Pillow, no display needed).
- :mod:`~baccarat.results.runstats`: statistics gathered while a run plays, so that its summary and plots never read
  the ledger back.
- :mod:`~baccarat.results.stats`: statistics of a run: pure functions of the ledger, in polars.
"""

__all__ = [
    "chart_drawing",
    "charts",
    "compare",
    "comparisons",
    "curves",
    "facts",
    "formatting",
    "html",
    "ledger",
    "manifest",
    "plots",
    "report",
    "roads_plot",
    "runstats",
    "stats",
]

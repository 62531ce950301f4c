"""The tables and report of a run.

- :mod:`~baccarat.results.report.analysis`: the statistics of a run gathered for its tables and report, and the
  files written from them (``sessions.parquet``, ``summary.csv``, ``comparison.csv``, ``report.html``, charts on request).
- :mod:`~baccarat.results.report.html`: the self-contained HTML report of a run: its sections and tables.
- :mod:`~baccarat.results.report.chart_html`: the charts in the report: their specifications and the script drawing them.
- :mod:`~baccarat.results.report.patterns_html`: the report's section "The shoes against fair shoes": the run's own
  rounds tested as ``baccarat patterns RUN_DIR`` tests them.
- :mod:`~baccarat.results.report.run_analysis`: :class:`Analysis`, every statistic of a run as frames, and its charts.
- :mod:`~baccarat.results.report.run_facts`: the plain facts a report states about a run besides its statistics:
  what was played, on which table, with what money.
"""

__all__ = ["analysis", "chart_html", "html", "patterns_html", "run_analysis", "run_facts"]

"""Charts of a run.

- :mod:`~baccarat.results.charts.model`: charts as plain objects: what a plot draws, readable by tests and users.
- :mod:`~baccarat.results.charts.drawing`: draw a chart as a PNG with Pillow.
- :mod:`~baccarat.results.charts.plots`: plots of a run as charts: bankroll curves, final bankrolls, ruin over
  rounds, paired comparison, the exact analysis.
- :mod:`~baccarat.results.charts.roads`: a shoe's roads drawn as a scoreboard PNG.
"""

__all__ = ["drawing", "model", "plots", "roads"]

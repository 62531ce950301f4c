"""Charts of a run, as Vega-Lite specifications made with Vega-Altair (the browser draws them; vl-convert on request).

- :mod:`~baccarat.results.charts.plots`: the charts of a run: medians overlaid with their bands, one panel per
  strategy, survival, final bankrolls, paired difference, drawdown, a grid heatmap, the exact analysis.
- :mod:`~baccarat.results.charts.pieces`: what the charts share: row budget, thinning, colours, legend pick, zoom, scales.
- :mod:`~baccarat.results.charts.scoreboard`: a shoe's roads as a scoreboard chart.
- :mod:`~baccarat.results.charts.observed_fair`: the chart of ``baccarat patterns``: each statistic seen against fair shoes.
- :mod:`~baccarat.results.charts.in_out_sample`: the chart of ``baccarat search``: the kept candidates in sample against
  fresh shoes.
- :mod:`~baccarat.results.charts.export`: charts as JSON for the report, the offline Vega JavaScript, PNG and SVG files.
"""

__all__ = ["export", "in_out_sample", "observed_fair", "pieces", "plots", "scoreboard"]

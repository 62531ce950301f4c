"""Statistics of a run.

- :mod:`~baccarat.results.statistics.ledger_stats`: statistics of a run: pure functions of the ledger, in polars.
- :mod:`~baccarat.results.statistics.folded`: statistics gathered while a run plays, so that its summary and plots
  never read the ledger back.
- :mod:`~baccarat.results.statistics.tallies`: exact aggregates of sessions (integer sums, exact histograms) that add
  up chunk by chunk: the summary and the paired comparison are made from them.
- :mod:`~baccarat.results.statistics.curves`: per-round aggregates the plots draw: bankroll bands over sessions, the
  ruin curve, a few sample paths.
- :mod:`~baccarat.results.statistics.student_t`: Student's t distribution, for intervals and p-values from few
  independent units (the differences the verdict tests, the predictors' scores).
- :mod:`~baccarat.results.statistics.ruin_threshold`: each session's ``bankroll_needed``, the least starting bankroll
  in whole table minimums from which it is not ruined, by one kernel for both ways of making the session table.
"""

__all__ = ["curves", "folded", "ledger_stats", "ruin_threshold", "tallies"]

"""Statistics of a run.

- :mod:`~baccarat.results.statistics.folded`: the statistics collector, the one definition of every figure: each
  chunk's ledger columns folded into session rows, added to exact aggregates as the chunks arrive.
- :mod:`~baccarat.results.statistics.replay`: a saved ledger replayed through the same fold and collector.
- :mod:`~baccarat.results.statistics.ledger_stats`: the summary's definitions, from exact aggregates of the session table.
- :mod:`~baccarat.results.statistics.tallies`: exact aggregates of sessions (integer sums, exact histograms) that add
  up chunk by chunk: the summary and the paired comparison are made from them.
- :mod:`~baccarat.results.statistics.round_counts`: each round's bankroll over the sessions as exact counts, folded
  chunk by chunk: the bankroll bands.
- :mod:`~baccarat.results.statistics.saved_counts`: those counts and the sample paths saved in the run folder
  (``round_counts.parquet``) and read back by ``report`` and ``load`` instead of counting the ledger's bankrolls again.
- :mod:`~baccarat.results.statistics.curves`: the ruin curve and the final bankrolls' percentiles, from the tallies.
- :mod:`~baccarat.results.statistics.student_t`: Student's t distribution, for intervals and p-values from few
  independent units (the differences the verdict tests, the predictors' scores).
- :mod:`~baccarat.results.statistics.ruin_threshold`: each session's ``bankroll_needed``, the least starting bankroll
  in whole table minimums from which it is not ruined.
"""

__all__ = ["curves", "folded", "ledger_stats", "replay", "round_counts", "ruin_threshold", "saved_counts", "student_t", "tallies"]

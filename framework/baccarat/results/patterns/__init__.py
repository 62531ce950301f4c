"""Patterns players read in shoes, tested against fair shoes (``baccarat patterns``), and predictors scored (``baccarat predict``).

- :mod:`~baccarat.results.patterns.against_fair`: a sample of shoes tested against fair shoes as plain data, for
  ``baccarat patterns --json`` and for a run's report (the run's own rounds, up to 1,000 shoes).
- :mod:`~baccarat.results.patterns.shoe_counts`: what each shoe shows as integer counts: outcomes, pairs, streaks,
  chops, what follows a streak of k, the derived roads' colours.
- :mod:`~baccarat.results.patterns.fair_shoes`: a pool of seeded fair shoes under the same rules, resampled to the
  sample's number of shoes.
- :mod:`~baccarat.results.patterns.fairness`: each statistic beside fair shoes, Monte Carlo p-values corrected by
  Holm's method, and the one-sentence verdict.
- :mod:`~baccarat.results.patterns.predictions`: predictors of the next round scored by log-loss and Brier score,
  paired with the exact predictor's (``baccarat predict``).
- :mod:`~baccarat.results.patterns.search_luck`: the best of N candidates in sample and out of sample, deflated
  for the number tried (``baccarat search``).
- :mod:`~baccarat.results.patterns.sources`: the shoes to test, from a recorded file, a run folder or a seed.
"""

__all__ = ["against_fair", "fair_shoes", "fairness", "predictions", "search_luck", "shoe_counts", "sources"]

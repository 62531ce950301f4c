"""Comparisons: of the strategies of one run, and of saved runs.

- :mod:`~baccarat.results.comparisons.strategies`: each strategy of a run against a baseline: paired session by
  session when they met the same rounds, else as independent samples.
- :mod:`~baccarat.results.comparisons.runs`: saved runs compared (``baccarat compare``): their summaries side by
  side, paired when they played the very same rounds.

- :mod:`~baccarat.results.comparisons.verdict`: the verdict of each comparison with the baseline: what a strategy
  changes, said on the right measure.
- :mod:`~baccarat.results.comparisons.conclusion`: the plain-language conclusion the report and ``baccarat run``
  open with.
"""

__all__ = ["runs", "strategies"]

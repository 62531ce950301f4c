"""Exact session analysis: the distribution of a session by a dynamic program over (bankroll, progression state).

- :mod:`~baccarat.exact.analysis`: what can be analysed, and the analysis of
  an experiment's strategies (the entry points);
- :mod:`~baccarat.exact.results`: the figures (:class:`ExactResult`,
  :class:`ExactAnalysis`, :class:`Skipped`);
- :mod:`~baccarat.exact.bounds`: the memory bound (:data:`MAX_STATES`) and
  :class:`ExactLimitError`;
- :mod:`~baccarat.exact.states`: a progression's states and moves;
- :mod:`~baccarat.exact.grid`: the bankroll grid and sums over it;
- :mod:`~baccarat.exact.dense` and :mod:`~baccarat.exact.sparse`: the dynamic
  program with few progression states (dense over the grid) and with many;
- :mod:`~baccarat.exact.dense_step`: the dense program's compiled step, one round of bets (a numba kernel).

``docs/exact.md`` describes the method and when the figures are exact.

- :mod:`~baccarat.exact.plan`: the figures of ``baccarat plan``: each strategy's exact figures, the bankroll a target
  risk needs, the rebates, the loss per hour, and a sentence of conclusion.
- :mod:`~baccarat.exact.ruin_bankroll`: the smallest starting bankroll whose exact risk of ruin is at most a target,
  searched in table-minimum steps.
"""

from baccarat.exact.analysis import (
    analyse_experiment,
    analyse_session,
    analyse_strategy,
    combined_limits,
    round_outcomes,
    rounds_independent,
    session_rounds,
)
from baccarat.exact.bounds import MAX_STATES, ExactLimitError
from baccarat.exact.results import QUANTILES, ExactAnalysis, ExactResult, Skipped

__all__ = [
    "MAX_STATES",
    "QUANTILES",
    "ExactAnalysis",
    "ExactLimitError",
    "ExactResult",
    "Skipped",
    "analyse_experiment",
    "analyse_session",
    "analyse_strategy",
    "combined_limits",
    "round_outcomes",
    "rounds_independent",
    "session_rounds",
]
